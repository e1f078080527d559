import {
  INSPECTION_ITEMS,
  LANGUAGE_CODES,
  REMINDER_DOCUMENTS,
  smsParts,
  VEHICLE_COLOURS,
  type SmsParts,
} from '@transport/domain';
import { FixedClock } from '@transport/domain/testing';
import type { CertificatesService, VehicleCheck } from '../src/certificates/certificates.service';
import type { AppConfig } from '../src/config';
import type { MessageSender, RateLimits } from '../src/core/ports';
import type { PublicRegistry } from '../src/core/public-registry';
import {
  activationText,
  noticeCancelledText,
  noticeDecidedText,
  noticeText,
  passwordLinkText,
  receiptText,
  reminderText,
  withdrawalText,
} from '../src/i18n/sms-texts';
import { USSD_FILES } from '../src/i18n/catalogues';
import { LANGUAGES, MessageCatalogue, type MessageKey } from '../src/ussd/message-catalogue';
import { PublicChecksService } from '../src/ussd/public-checks.service';
import { USSD_SCREEN_CHARS } from '../src/ussd/ussd-flow';

/**
 * Issue 48, items 3 and 4: every SMS the service sends, in every language, filled with the longest values it can hold,
 * within its budget of parts (GSM-7 160/153, UCS-2 70/67: libs/domain smsParts); every USSD screen within 182
 * characters in every language. The table of parts per template and language is printed, so a change of wording
 * shows what it costs. A budget is per encoding where a language's letters (Ɔ, Ɛ, Ŋ, Ʋ, Ɗ...) make a text UCS-2:
 * reminders are 2 parts whatever the language.
 */
const NOW = new Date('2027-11-20T10:00:00Z');
const LATER = new Date('2027-12-25T10:00:00Z');
const ZONE = 'Africa/Accra';
/** The longest plate spelling the registry takes, a make and a union longer than any the verdict shows in full. */
const PLATE = 'GW 12345-27';
const LONG_MAKE = 'Mercedes-Benz Sprinter Long Wheelbase';
const LONG_UNION = 'Ghana Private Road Transport Union of TUC, Accra Branch';

/** The service with fakes for what it reads: the vehicle check it formats is `check`. */
function checksWith(check: VehicleCheck | undefined): PublicChecksService {
  const certificates = { current: async () => check } as unknown as CertificatesService;
  const registry = {
    vehicleIdByPlateKey: async () => (check ? 'v1' : undefined),
    vehicleIdByCheckCode: async () => (check ? 'v1' : undefined),
  } as unknown as PublicRegistry;
  return new PublicChecksService(
    certificates,
    registry,
    {} as RateLimits,
    new FixedClock(NOW),
    { next: () => 'id' },
    {} as MessageSender,
    { timeZone: ZONE } as AppConfig,
  );
}

const vehicleCheck = (state: VehicleCheck['state'], expired = false): VehicleCheck => ({
  state,
  checkedAt: NOW,
  vehicle: { registrationNumber: PLATE, make: LONG_MAKE, color: '#000080', transportUnion: LONG_UNION },
  documents: [
    { document: 'roadworthy', expiresOn: LATER, expired: false },
    { document: 'insurance', expiresOn: expired ? NOW : LATER, expired },
    { document: 'driverLicense', expiresOn: LATER, expired: false },
  ],
});

interface Template {
  name: string;
  text: string;
  /** The most parts: one number for every encoding, or one per encoding. */
  budget: number | { gsm7: number; ucs2: number };
}

const budgetOf = (t: Template, encoding: SmsParts['encoding']) =>
  typeof t.budget === 'number' ? t.budget : t.budget[encoding];

/** The longest failed inspection a notice names: the three longest items' words in the language (unsorted: any). */
const LONGEST_ITEMS = [...INSPECTION_ITEMS];

const STAFF_EMAIL = 'abena.mensah-owusu@kpone-katamanso.gov.gh'.padEnd(40, 'x');
const STAFF_URL = `https://transport.example.gov.gh/dashboard/#/set-password?token=${'x'.repeat(43)}&email=${encodeURIComponent(STAFF_EMAIL)}`;
const STAFF_ASSEMBLY = 'Kpone Katamanso Municipal Assembly, Tema Area'.padEnd(60, 'x');

async function templates(): Promise<Template[]> {
  const list: Template[] = [];
  for (const language of LANGUAGE_CODES) {
    const tag = `[${language}]`;
    for (const document of REMINDER_DOCUMENTS)
      for (const days of [30, 1, 0])
        list.push({
          name: `${tag} reminder ${document} ${days} days`,
          text: reminderText(
            {
              document,
              // The longest month name of the language's dates: every month of the year is tried below.
              expiry: new Date(NOW.getTime() + days * 86_400_000),
              subject: document === 'licence' ? undefined : PLATE,
            },
            NOW,
            ZONE,
            language,
          ),
          budget: 2,
        });
    // Reminders 30 days ahead in every month, for the longest month name of the language.
    for (let month = 0; month < 12; month++) {
      const at = new Date(Date.UTC(2027, month, 1, 10));
      list.push({
        name: `${tag} reminder insurance 30 days, month ${month + 1}`,
        text: reminderText(
          { document: 'insurance', expiry: new Date(at.getTime() + 30 * 86_400_000), subject: PLATE },
          at,
          ZONE,
          language,
        ),
        budget: 2,
      });
    }
    list.push({
      name: `${tag} activation key`,
      text: activationText('123456', 168, language),
      budget: { gsm7: 1, ucs2: 2 },
    });
    // The three items whose words are longest in this language, on the day of the longest month name.
    const words = LONGEST_ITEMS.map((item) => ({
      item,
      n: withdrawalText({ id: 'v', registrationNumber: '' }, [item], NOW, ZONE, language).length,
    }))
      .sort((a, b) => b.n - a.n)
      .slice(0, 3)
      .map((w) => w.item);
    for (let month = 0; month < 12; month++)
      list.push({
        name: `${tag} withdrawal notice, 3 items, month ${month + 1}`,
        text: withdrawalText(
          { id: 'v', registrationNumber: PLATE },
          words,
          new Date(Date.UTC(2027, month, 20, 10)),
          ZONE,
          language,
        ),
        budget: { gsm7: 2, ucs2: 3 },
      });
    const verdict = (check: VehicleCheck | undefined) => checksWith(check).vehicleVerdict(PLATE, language);
    // The verdict fits one USSD screen (182 characters): two GSM-7 parts, three UCS-2 ones.
    const verdictBudget = { gsm7: 2, ucs2: 3 };
    list.push({ name: `${tag} check: valid`, text: await verdict(vehicleCheck('valid')), budget: verdictBudget });
    list.push({
      name: `${tag} check: expired`,
      text: await verdict(vehicleCheck('expired', true)),
      budget: verdictBudget,
    });
    list.push({
      name: `${tag} check: not approved`,
      text: await verdict(vehicleCheck('withdrawn')),
      budget: verdictBudget,
    });
    list.push({ name: `${tag} check: not found`, text: await verdict(undefined), budget: verdictBudget });
    const m = new MessageCatalogue(ZONE);
    for (const key of ['sms.help', 'sms.stopped', 'sms.started'] as const)
      list.push({ name: `${tag} ${key}`, text: m.format(language, key), budget: { gsm7: 1, ucs2: 2 } });
    // Links to staff, in their language: an assembly's name of 60 characters, an e-mail of 40, the link about 140
    // (in UCS-2, a language written with Ɔ, Ɛ or Ŋ, that is six or seven parts: staff links and notices are few).
    list.push({
      name: `${tag} invitation link`,
      text: passwordLinkText('invitation', STAFF_ASSEMBLY, STAFF_EMAIL, 720, STAFF_URL, language),
      budget: { gsm7: 3, ucs2: 7 },
    });
    list.push({
      name: `${tag} password reset link`,
      text: passwordLinkText('reset', STAFF_ASSEMBLY, STAFF_EMAIL, 1440, STAFF_URL, language),
      budget: { gsm7: 3, ucs2: 7 },
    });
    // A roadside notice with two offences described at length, in each month (the due date's month name).
    for (let month = 0; month < 12; month++)
      list.push({
        name: `${tag} roadside notice, month ${month + 1}`,
        text: noticeText(
          {
            assembly: STAFF_ASSEMBLY,
            plate: PLATE,
            offences: 'TF-01 Operating without a valid sticker; TF-07 Loading or offloading at a no-stopping place',
            amount: 'GHS 1,250.00',
            due: new Date(Date.UTC(2027, month, 20, 10)),
            // The page's token: the notice id, the secret's id and an HMAC (64 hex digits, the longest form).
            link: `https://transport.example.gov.gh/n/${'x'.repeat(24)}.k1.${'y'.repeat(64)}`,
          },
          ZONE,
          language,
        ),
        budget: { gsm7: 3, ucs2: 7 },
      });
    // A supervisor's decision of a contest (each outcome, each month) and a cancellation: the reason is on the page.
    const link = `https://transport.example.gov.gh/n/${'x'.repeat(24)}.k1.${'y'.repeat(64)}`;
    for (const outcome of ['upheld', 'reduced', 'cancelled'])
      for (let month = 0; month < 12; month++)
        list.push({
          name: `${tag} contest ${outcome}, month ${month + 1}`,
          text: noticeDecidedText(
            {
              assembly: STAFF_ASSEMBLY,
              plate: PLATE,
              outcome,
              amount: 'GHS 1,250.00',
              due: new Date(Date.UTC(2027, month, 20, 10)),
              link,
            },
            ZONE,
            language,
          ),
          budget: { gsm7: 3, ucs2: 7 },
        });
    list.push({
      name: `${tag} notice cancelled`,
      text: noticeCancelledText({ assembly: STAFF_ASSEMBLY, plate: PLATE, link }, ZONE, language),
      budget: { gsm7: 2, ucs2: 5 },
    });
    // A notice's payment receipt, part paid (the longer), with the provider's longest payment id, in each month.
    for (let month = 0; month < 12; month++)
      list.push({
        name: `${tag} notice receipt, month ${month + 1}`,
        text: receiptText(
          {
            assembly: STAFF_ASSEMBLY,
            plate: PLATE,
            notice: 'ABCDEF12',
            amount: 'GHS 1,250.00',
            remaining: 'GHS 1,250.00',
            paid: false,
            at: new Date(Date.UTC(2027, month, 20, 10)),
            reference: 'x'.repeat(32),
          },
          ZONE,
          language,
        ),
        budget: { gsm7: 3, ucs2: 7 },
      });
  }
  return list;
}

describe('SMS parts per template', () => {
  it('keeps every template within its budget, and prints the table', async () => {
    const rows = (await templates()).map((t) => {
      const parts = smsParts(t.text);
      return { ...t, ...parts, most: budgetOf(t, parts.encoding) };
    });
    const table = rows
      .map(
        (r) =>
          `${r.name.padEnd(46)} ${r.encoding.padEnd(5)} ${String(r.units).padStart(4)} units  ${r.parts}/${r.most} parts`,
      )
      .join('\n');
    console.log(`SMS parts per template and language (GSM-7 160/153, UCS-2 70/67):\n${table}`);
    expect(rows.filter((r) => r.parts > r.most).map((r) => `${r.name}: ${r.parts} parts, ${r.text}`)).toEqual([]);
    // Every language has every template, and the reminders' budget is 2 parts in each.
    for (const language of LANGUAGE_CODES) {
      const reminders = rows.filter((r) => r.name.startsWith(`[${language}] reminder`));
      expect(reminders.length).toBe(21);
      expect(Math.max(...reminders.map((r) => r.parts))).toBeLessThanOrEqual(2);
    }
    // Twi is written with Ɔ and Ɛ: its texts are UCS-2, counted as such.
    expect(rows.find((r) => r.name === '[tw] reminder insurance 30 days')?.encoding).toBe('ucs2');
  });

  it('fails a template past its budget (the check can fail)', () => {
    expect(smsParts(`${activationText('123456', 168)} Ɔ`).parts).toBeGreaterThan(1);
    expect(smsParts(`${activationText('123456', 168)} Ɔ`).encoding).toBe('ucs2');
  });
});

describe('USSD screens', () => {
  const m = new MessageCatalogue(ZONE);
  const values = { plate: 'x'.repeat(20), typed: 'x'.repeat(20), licence: 'x'.repeat(20) };

  /** Every screen of a language with the longest values: each message, the ones shown after "not a choice". */
  async function screens(language: string): Promise<Array<{ name: string; text: string }>> {
    const t = (key: MessageKey, extra = {}) => m.format(language, key, { ...values, ...extra });
    const keys = (Object.keys(USSD_FILES.en) as MessageKey[]).filter(
      (k) => (k.startsWith('ussd.') || k.startsWith('check.')) && k !== 'check.vehicle',
    );
    const list = keys.flatMap((key) =>
      ['yes', 'no'].map((approved) => ({
        name: `${key} ${approved}`,
        text: t(key, { approved, state: 'none', date: NOW }),
      })),
    );
    const languageMenu = [
      t('ussd.languages'),
      ...LANGUAGES.map((l, i) => `${i + 1} ${m.format(l, 'language.name')}`),
    ].join('\n');
    list.push({ name: 'language menu', text: languageMenu });
    list.push({ name: 'invalid + menu', text: `${t('ussd.invalid')}\n${t('ussd.menu')}` });
    list.push({ name: 'invalid + language menu', text: `${t('ussd.invalid')}\n${languageMenu}` });
    // The verdicts with every colour's name and every month's (the longest of the language's words).
    for (const [hex] of VEHICLE_COLOURS)
      for (let month = 0; month < 12; month++) {
        const until = new Date(Date.UTC(2027, month, 28, 10));
        for (const state of ['valid', 'expired', 'withdrawn'] as const) {
          const check = vehicleCheck(state, state === 'expired');
          check.vehicle.color = hex;
          check.documents = check.documents.map((d) => ({ ...d, expiresOn: until }));
          list.push({
            name: `verdict ${state} ${hex} ${month + 1}`,
            text: await checksWith(check).vehicleVerdict(PLATE, language),
          });
        }
      }
    list.push({
      name: 'vehicle not found',
      text: await checksWith(undefined).vehicleVerdict('x'.repeat(40), language),
    });
    return list;
  }

  it('fit 182 characters, with the longest values, in every language (the longest printed)', async () => {
    const longest: string[] = [];
    for (const language of LANGUAGES) {
      const all = await screens(language);
      expect(
        all.filter((s) => s.text.length > USSD_SCREEN_CHARS).map((s) => `${language} ${s.name}: ${s.text}`),
      ).toEqual([]);
      const top = all.reduce((a, b) => (b.text.length > a.text.length ? b : a));
      longest.push(`${language.padEnd(4)} ${String(top.text.length).padStart(3)} characters: ${top.name}`);
    }
    console.log(`The longest USSD screen per language (at most ${USSD_SCREEN_CHARS}):\n${longest.join('\n')}`);
    expect(LANGUAGES).toEqual(['en', 'tw', 'gaa', 'ee', 'ha', 'dag']);
  });

  it('say a verdict in words: colour by name, make and union cut to fit', async () => {
    const text = await checksWith(vehicleCheck('valid')).vehicleVerdict(PLATE, 'en');
    expect(text).toMatch(/^GW 12345-27 Mercedes-Ben\.\. navy blue: VALID to 25 Dec 2027\. Roadworthy to 25 Dec 2027\./);
    expect(text).toMatch(/Union Ghana Private Road\.\.\.$/);
  });
});
