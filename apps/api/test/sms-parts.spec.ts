import { reminderText, smsParts, REMINDER_DOCUMENTS, type SmsParts } from '@transport/domain';
import { FixedClock } from '@transport/domain/testing';
import type { CertificatesService, VehicleCheck } from '../src/certificates/certificates.service';
import type { AppConfig } from '../src/config';
import type { MessageSender, RateLimits } from '../src/core/ports';
import type { PublicRegistry } from '../src/core/public-registry';
import { activationText } from '../src/drivers/activation-texts';
import { passwordLinkText } from '../src/people/people.service';
import { CATALOGUES, LANGUAGES, MessageCatalogue } from '../src/ussd/message-catalogue';
import { EN, type MessageKey } from '../src/ussd/messages/en';
import { PublicChecksService } from '../src/ussd/public-checks.service';
import { USSD_SCREEN_CHARS } from '../src/ussd/ussd-flow';

/**
 * Issue 48, item 4: every SMS the service sends, filled with the longest values it can hold, within its budget of
 * parts (GSM-7 160/153, UCS-2 70/67: libs/domain smsParts); every USSD screen within 182 characters. The table of
 * parts per template is printed, so a change of wording shows what it costs.
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
  budget: number;
}

async function templates(): Promise<Template[]> {
  const list: Template[] = [];
  for (const document of REMINDER_DOCUMENTS)
    for (const days of [30, 1, 0])
      list.push({
        name: `reminder ${document} ${days} days`,
        text: reminderText(
          {
            document,
            expiry: new Date(NOW.getTime() + days * 86_400_000),
            subject: document === 'licence' ? undefined : PLATE,
          },
          NOW,
          ZONE,
        ),
        budget: 2,
      });
  list.push({ name: 'activation key', text: activationText('123456', 168), budget: 1 });
  const email = 'abena.mensah-owusu@kpone-katamanso.gov.gh'.padEnd(40, 'x');
  const url = `https://transport.example.gov.gh/dashboard/#/set-password?token=${'x'.repeat(43)}&email=${encodeURIComponent(email)}`;
  const assembly = 'Kpone Katamanso Municipal Assembly, Tema Area'.padEnd(60, 'x');
  list.push({ name: 'invitation link', text: passwordLinkText('invitation', assembly, email, 720, url), budget: 3 });
  list.push({ name: 'password reset link', text: passwordLinkText('reset', assembly, email, 1440, url), budget: 3 });
  for (const language of LANGUAGES) {
    const en = (check: VehicleCheck | undefined) => checksWith(check).vehicleVerdict(PLATE, language);
    list.push({ name: `[${language}] check: valid`, text: await en(vehicleCheck('valid')), budget: 2 });
    list.push({ name: `[${language}] check: expired`, text: await en(vehicleCheck('expired', true)), budget: 2 });
    list.push({ name: `[${language}] check: not approved`, text: await en(vehicleCheck('withdrawn')), budget: 2 });
    list.push({ name: `[${language}] check: not found`, text: await en(undefined), budget: 2 });
    const m = new MessageCatalogue(ZONE);
    for (const key of ['sms.help', 'sms.stopped', 'sms.started'] as const)
      list.push({ name: `[${language}] ${key}`, text: m.format(language, key), budget: 1 });
  }
  return list;
}

describe('SMS parts per template', () => {
  it('keeps every template within its budget, and prints the table', async () => {
    const rows = (await templates()).map((t) => ({ ...t, ...smsParts(t.text) }) as Template & SmsParts);
    const table = rows
      .map(
        (r) =>
          `${r.name.padEnd(34)} ${r.encoding.padEnd(5)} ${String(r.units).padStart(4)} units  ${r.parts}/${r.budget} parts`,
      )
      .join('\n');
    console.log(`SMS parts per template (GSM-7 160/153, UCS-2 70/67):\n${table}`);
    expect(rows.filter((r) => r.parts > r.budget).map((r) => `${r.name}: ${r.parts} parts`)).toEqual([]);
    expect(rows.find((r) => r.name === 'reminder insurance 30 days')?.parts).toBeLessThanOrEqual(2);
  });

  it('fails a template past its budget (the check can fail)', () => {
    expect(smsParts(`${activationText('123456', 168)} Ɔ`).parts).toBeGreaterThan(1);
  });
});

describe('USSD screens', () => {
  const m = new MessageCatalogue(ZONE);
  const values = { plate: PLATE, typed: 'x'.repeat(20), licence: 'x'.repeat(20) };

  it('fit 182 characters, with the longest values, in every language', async () => {
    for (const language of LANGUAGES) {
      // The screens said as they are (the vehicle verdict is composed below, from its parts).
      const screens = (Object.keys(EN) as MessageKey[]).filter(
        (k) => k.startsWith('ussd.') || k.startsWith('check.driver'),
      );
      for (const key of screens) {
        const text = m.format(language, key, { ...values, approved: 'no' });
        expect({ key, over: text.length > USSD_SCREEN_CHARS }).toEqual({ key, over: false });
      }
      for (const state of ['valid', 'expired', 'withdrawn'] as const) {
        const text = await checksWith(vehicleCheck(state, state === 'expired')).vehicleVerdict(PLATE, language);
        expect(text.length).toBeLessThanOrEqual(USSD_SCREEN_CHARS);
      }
      expect((await checksWith(undefined).vehicleVerdict('x'.repeat(40), language)).length).toBeLessThanOrEqual(
        USSD_SCREEN_CHARS,
      );
    }
  });

  it('say a verdict in words: colour by name, make and union cut to fit', async () => {
    const text = await checksWith(vehicleCheck('valid')).vehicleVerdict(PLATE, 'en');
    expect(text).toMatch(/^GW 12345-27 Mercedes-Ben\.\. navy blue: VALID to 25 Dec 2027\. Roadworthy to 25 Dec 2027\./);
    expect(text).toMatch(/Union Ghana Private Road\.\.\.$/);
  });
});

describe('message catalogues', () => {
  it('have no key English lacks, and English has every key', () => {
    for (const language of LANGUAGES) expect(Object.keys(CATALOGUES[language]).filter((k) => !(k in EN))).toEqual([]);
    expect(Object.keys(CATALOGUES.en).sort()).toEqual(Object.keys(EN).sort());
  });

  it('say a missing entry or language in English, never as its key', () => {
    const m = new MessageCatalogue(ZONE);
    expect(m.format('tw', 'sms.help')).toBe(EN['sms.help']);
    expect(m.format('xx', 'ussd.ended')).toBe('Thank you for checking.');
  });
});
