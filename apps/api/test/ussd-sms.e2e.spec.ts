import type { AppConfig } from '../src/config';
import { Metrics } from '../src/core/observability/metrics';
import type { ReminderStore } from '../src/core/ports';
import { REMINDERS } from '../src/core/tokens';
import { appOnTier } from './support/app-on-tier';
import { describeOnEachTier } from './support/test-app';

const USER = 'hubtel';
const PASSWORD = 'a-long-hubtel-inbound-secret';
const BASIC = `Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString('base64')}`;
/** Hubtel's own requests come from here in these tests (X-Forwarded-For, one trusted proxy). */
const HUBTEL_ADDRESS = '203.0.113.10';

const ussdConfig = (c: AppConfig): AppConfig => ({
  ...c,
  trustProxy: 1,
  hubtel: {
    ...c.hubtel,
    username: USER,
    password: PASSWORD,
    allowedAddresses: ['203.0.113.0/24'],
    ussdStepsPerPhonePerHour: 40,
    smsRepliesPerPhonePerHour: 3,
    reportsPerPhonePerDay: 2,
  },
});

interface Screen {
  SessionId: string;
  Type: string;
  Message: string;
  Label: string;
  ClientState: string;
  DataType: string;
  FieldType: string;
}

/**
 * Issue 48, items 1 and 2: the registry checked from a feature phone, over HTTP in Hubtel's exact format. USSD
 * (Programmable Services: Type initiation/response/release/timeout, ClientState carried between steps) and inbound SMS
 * (CHECK, STOP, START, HELP), authenticated, limited per number; every screen at most 182 characters.
 */
describeOnEachTier('USSD and SMS checks over Hubtel', (tier) => {
  const { running, fixture: f, http } = appOnTier(tier, { fixture: true, config: ussdConfig });
  const screens: string[] = [];
  let session = 0;
  let caller = 0;

  /** One step as Hubtel sends it: its sample's spelling ("Type":"initiation", "Sequence":"1"). */
  const post = (body: Record<string, unknown>) =>
    http().post('/ussd/hubtel').set('Authorization', BASIC).set('X-Forwarded-For', HUBTEL_ADDRESS).send(body);

  /** A session: each `step` posts the next input with the ClientState the last answer set. */
  const dial = (mobile = `23324${String(++caller).padStart(7, '0')}`) => {
    const id = `s${tier}${++session}`;
    let state = '';
    let sequence = 0;
    const send = async (type: string, message: string): Promise<Screen> => {
      sequence += 1;
      const res = await post({
        Type: type,
        Message: message,
        ServiceCode: '713*42',
        Operator: 'mtn',
        ClientState: state,
        Mobile: mobile,
        SessionId: id,
        Sequence: String(sequence),
      }).expect(200);
      const screen = res.body as Screen;
      expect(screen.SessionId).toBe(id);
      expect(screen.Message.length).toBeLessThanOrEqual(182);
      screens.push(screen.Message);
      state = screen.ClientState;
      return screen;
    };
    return {
      start: () => send('initiation', '*713*42#'),
      step: (input: string) => send('response', input),
      send,
    };
  };

  /** The verdict screen of a vehicle check typed as `typed`. */
  const checkVehicle = async (typed: string) => {
    const s = dial();
    await s.start();
    expect((await s.step('1')).Type).toBe('response');
    return s.step(typed);
  };

  const sms = (from: string, message: string) =>
    http()
      .post('/sms/hubtel')
      .set('Authorization', BASIC)
      .set('X-Forwarded-For', HUBTEL_ADDRESS)
      .send({ From: from, To: '1402', Message: message });
  const outboxTo = (to: string) =>
    running.database.prisma.outboxMessage.findMany({ where: { to }, orderBy: { id: 'asc' } });

  describe('USSD', () => {
    it('opens with the numbered menu and waits for input, whatever the letter case of Type', async () => {
      const s = dial();
      const menu = await s.send('INITIATION', '*713*42#');
      expect(menu).toMatchObject({ Type: 'response', DataType: 'input', FieldType: 'text' });
      expect(menu.Message).toMatch(/1 Check a vehicle\n2 Check a driver\n3 Language\n4 Report a vehicle/);
      expect(menu.ClientState).toBe('en|menu|');
    });

    it('takes numbers as numbers too (Sequence 1, not "1")', async () => {
      const res = await post({ Type: 'Initiation', Message: '', SessionId: 'num1', Mobile: 233244000001, Sequence: 1 });
      expect(res.status).toBe(200);
      expect(res.body.Type).toBe('response');
    });

    it.each(['GR 1000-24', 'gr100024', 'Gr-1000 24'])(
      'checks a vehicle by its plate spelled %p: plate, make, colour by name, valid until, documents, union',
      async (typed) => {
        const verdict = await checkVehicle(typed);
        expect(verdict).toMatchObject({ Type: 'release', DataType: 'display', ClientState: '' });
        expect(verdict.Message).toMatch(/^GR 1000-24 Toyota gold: VALID to \d{1,2} \w{3,4} \d{4}\./);
        expect(verdict.Message).toMatch(/Roadworthy to \d{1,2} \w{3,4} \d{4}\. Insurance to \d{1,2} \w{3,4} \d{4}\./);
        expect(verdict.Message).toMatch(/ Union GPRTU Accra\.$/);
      },
    );

    it('checks a vehicle by the code printed on its sticker, typed with or without spaces', async () => {
      const page = await http()
        .post(`/vehicles/${f.ids.linkedVehicle}/certificate`)
        .set('Authorization', f.keys.assembly)
        .expect(200);
      const printed = /class="check-code">(\d{3} \d{3} \d{4})</.exec(page.text)?.[1];
      expect(printed).toBeDefined();
      const row = await running.database.prisma.vehicle.findUnique({ where: { id: f.ids.linkedVehicle } });
      expect(row?.checkCode).toBe(printed?.replace(/ /g, ''));
      // A reprint keeps the code: the sticker already on the vehicle still works.
      const again = await http()
        .post(`/vehicles/${f.ids.linkedVehicle}/certificate`)
        .set('Authorization', f.keys.assembly)
        .expect(200);
      expect(again.text).toContain(printed);
      for (const typed of [printed as string, (printed as string).replace(/ /g, '')])
        expect((await checkVehicle(typed)).Message).toMatch(/^GR 1000-24 Toyota gold: VALID/);
      expect((await checkVehicle('0000000000')).Message).toMatch(/^No vehicle 0000000000 on the registry/);
    });

    it('says NOT VALID and what to do for a vehicle never approved, and for one whose insurance ended', async () => {
      const unapproved = await checkVehicle('GR 1007-24');
      expect(unapproved.Message).toMatch(/^GR 1007-24 Toyota gold: NOT VALID\./);
      expect(unapproved.Message).toMatch(/Not approved: do not board\./);
      await running.database.prisma.vehicle.update({
        where: { registrationNumber: 'GR 1003-24' },
        data: { insuranceExpiryDate: new Date('2026-01-02T00:00:00Z') },
      });
      const expired = await checkVehicle('GR 1003-24');
      expect(expired.Message).toMatch(/NOT VALID\. Roadworthy to .*\. Insurance ENDED 2 Jan 2026\./);
      expect(expired.Message).toMatch(/Do not board: the driver must renew\./);
    });

    it('says when no vehicle has the plate', async () => {
      expect((await checkVehicle('GR 9999-99')).Message).toMatch(/^No vehicle GR 9999-99 on the registry/);
    });

    it('checks a driver by licence: approved or not, and nothing more', async () => {
      const approved = dial();
      await approved.start();
      expect((await approved.step('2')).Message).toMatch(/licence number/);
      const yes = await approved.step('dl-1-2020');
      expect(yes).toMatchObject({ Type: 'release', Message: 'Licence DL-1-2020: APPROVED driver.' });
      const other = dial();
      await other.start();
      await other.step('2');
      expect((await other.step('DL-2-2020')).Message).toBe('Licence DL-2-2020: NOT an approved driver: do not ride.');
      const none = dial();
      await none.start();
      await none.step('2');
      expect((await none.step('DL-404')).Message).toBe('No driver with licence DL-404 on the registry.');
    });

    it('lists the languages by their own names and keeps the choice in ClientState', async () => {
      const s = dial();
      await s.start();
      const list = await s.step('3');
      expect(list).toMatchObject({
        Type: 'response',
        Message: 'Choose a language\n1 English\n2 Twi\n3 Ga\n4 Eʋegbe\n5 Hausa\n6 Dagbanli',
        ClientState: 'en|language|',
      });
      const wrong = await s.step('9');
      expect(wrong.Message).toMatch(/^Not a choice here\.\nChoose a language/);
      const menu = await s.step('1');
      expect(menu).toMatchObject({ Type: 'response', ClientState: 'en|menu|' });
      expect(menu.Message).toMatch(/1 Check a vehicle/);
    });

    it('switches the session to Twi: the menu, the verdict and its dates in Twi', async () => {
      const s = dial();
      await s.start();
      await s.step('3');
      const menu = await s.step('2');
      expect(menu).toMatchObject({ Type: 'response', ClientState: 'tw|menu|' });
      expect(menu.Message).toBe('Akwantuo nkrataa\n1 Hwɛ kar bi\n2 Hwɛ dreva bi\n3 Kasa\n4 Bɔ kar bi ho amanneɛ');
      expect((await s.step('1')).Message).toMatch(/^Hwɛ kar: kyerɛw ne nɔma/);
      const verdict = await s.step('GR 1000-24');
      expect(verdict.Type).toBe('release');
      // Twi's colour and verdict words, and a Twi month name (ICU's ak locale).
      expect(verdict.Message).toMatch(/^GR 1000-24 Toyota sikakɔkɔɔ: ƐYƐ kosi \S+ \d+, \d{4}\./);
    });

    it('switches the session to Hausa: a choice not on a Hausa screen is said in Hausa, and a driver checked', async () => {
      const s = dial();
      await s.start();
      await s.step('3');
      const menu = await s.step('5');
      expect(menu.ClientState).toBe('ha|menu|');
      expect(menu.Message).toMatch(/^Rajistar sufuri\n1 Duba mota\n2 Duba direba\n3 Harshe/);
      expect((await s.step('8')).Message).toMatch(/^Wannan ba zaɓi ba ne\.\nRajistar sufuri/);
      await s.step('2');
      const verdict = await s.step('dl-1-2020');
      expect(verdict).toMatchObject({ Type: 'release', Message: 'Lasisi DL-1-2020: direba ne da aka AMINCE da shi.' });
    });

    it("opens a session in the language stored with the caller's record, and says a release in it", async () => {
      const driver = await running.database.prisma.driver.findUniqueOrThrow({ where: { id: f.ids.workingDriver } });
      await running.database.prisma.driver.update({ where: { id: driver.id }, data: { language: 'ee' } });
      try {
        const s = dial(driver.phone.replace('+', ''));
        const menu = await s.start();
        expect(menu).toMatchObject({ ClientState: 'ee|menu|' });
        expect(menu.Message).toMatch(/^Ʋuwo ƒe agbalẽ\n1 Dzro ʋu aɖe/);
        expect(await s.send('release', '')).toMatchObject({ Type: 'release', Message: 'Akpe be nèdzro.' });
      } finally {
        await running.database.prisma.driver.update({ where: { id: driver.id }, data: { language: 'en' } });
      }
    });

    it('answers a choice not on the menu with the menu again', async () => {
      const s = dial();
      await s.start();
      const again = await s.step('7');
      expect(again.Message).toMatch(/^Not a choice here\.\nTransport registry/);
    });

    it('keeps a report of a vehicle for its assembly, audited, without the phone number', async () => {
      const mobile = '233244777001';
      const s = dial(mobile);
      await s.start();
      expect((await s.step('4')).Message).toMatch(/Report a vehicle: enter its plate/);
      const reasons = await s.step('gr 1001 24');
      expect(reasons.Message).toMatch(/^Why report GR 1001-24\?\n1 No sticker/);
      const done = await s.step('2');
      expect(done).toMatchObject({
        Type: 'release',
        Message: 'Thank you. Your report on GR 1001-24 goes to the assembly.',
      });
      const reports = await running.database.prisma.vehicleReport.findMany({ where: { plate: 'GR 1001-24' } });
      expect(reports).toEqual([
        expect.objectContaining({ reason: 'overloading', channel: 'ussd', assemblyId: f.ids.assembly }),
      ]);
      const audit = await running.database.prisma.auditEntry.findMany({ where: { entityId: reports[0].id } });
      expect(audit).toEqual([expect.objectContaining({ entity: 'vehicleReport', action: 'VehicleReported' })]);
      const kept = JSON.stringify([reports, audit.map(({ id: _, ...entry }) => entry)]);
      expect(kept).not.toContain('244777001');
      // Admins browse them in the audit log.
      const browsed = await http()
        .get('/audit/entries')
        .query({ entity: 'vehicleReport' })
        .set('Authorization', f.keys.admin)
        .expect(200);
      expect(browsed.body).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            entityId: reports[0].id,
            action: 'VehicleReported',
            after: expect.objectContaining({ plate: 'GR 1001-24', reason: 'overloading' }),
          }),
        ]),
      );
    });

    it('limits reports per calling number (VEHICLE_REPORTS_PER_PHONE_PER_DAY)', async () => {
      const mobile = '233244777002';
      const report = async () => {
        const s = dial(mobile);
        await s.start();
        await s.step('4');
        await s.step('GR 1002-24');
        return s.step('5');
      };
      expect((await report()).Message).toMatch(/^Thank you/);
      expect((await report()).Message).toMatch(/^Thank you/);
      expect((await report()).Message).toBe('Too many requests from this number. Try again in an hour.');
      expect(await running.database.prisma.vehicleReport.count({ where: { plate: 'GR 1002-24' } })).toBe(2);
    });

    it('ends the session on release and on timeout', async () => {
      const s = dial();
      await s.start();
      expect(await s.send('release', '')).toMatchObject({ Type: 'release', Message: 'Thank you for checking.' });
      const t = dial();
      await t.start();
      await t.step('1');
      expect(await t.send('Timeout', '')).toMatchObject({ Type: 'release', Message: '', ClientState: '' });
    });

    it('starts over from a ClientState it did not write', async () => {
      const res = await post({
        Type: 'response',
        Message: '1',
        ClientState: 'xx|vehicle|',
        SessionId: 'forged',
        Mobile: '233244000002',
      });
      expect(res.body).toMatchObject({ Type: 'response', ClientState: 'en|menu|' });
    });

    it('limits the steps of one calling number (USSD_STEPS_PER_PHONE_PER_HOUR) with a closing screen', async () => {
      const mobile = '233244888001';
      let last: Screen | undefined;
      for (let i = 0; i < 41; i++) last = await dial(mobile).start();
      expect(last).toMatchObject({
        Type: 'release',
        Message: 'Too many requests from this number. Try again in an hour.',
      });
      // Another number is served.
      expect((await dial('233244888002').start()).Type).toBe('response');
    });

    it('refuses a request without the Basic credentials, with wrong ones, or from another address', async () => {
      const body = { Type: 'initiation', Message: '', SessionId: 'x1', Mobile: '233244000003', Sequence: '1' };
      const none = await http().post('/ussd/hubtel').set('X-Forwarded-For', HUBTEL_ADDRESS).send(body).expect(401);
      expect(none.body).toMatchObject({ code: 'UNAUTHORIZED' });
      const wrong = `Basic ${Buffer.from(`${USER}:not-the-password-at-all`).toString('base64')}`;
      await http()
        .post('/ussd/hubtel')
        .set('Authorization', wrong)
        .set('X-Forwarded-For', HUBTEL_ADDRESS)
        .send(body)
        .expect(401);
      const elsewhere = await http()
        .post('/ussd/hubtel')
        .set('Authorization', BASIC)
        .set('X-Forwarded-For', '198.51.100.7')
        .send(body)
        .expect(403);
      expect(elsewhere.body).toMatchObject({ code: 'FORBIDDEN' });
      await http()
        .post('/sms/hubtel')
        .set('X-Forwarded-For', HUBTEL_ADDRESS)
        .send({ From: '233244000003', Message: 'HELP' })
        .expect(401);
    });

    it("refuses a request not in Hubtel's format with a 400 problem", async () => {
      const res = await post({ Type: 'AddToCart', SessionId: 'x2', Mobile: '233244000004' }).expect(400);
      expect(res.body).toMatchObject({ code: 'VALIDATION_FAILED', errors: [{ field: 'Type' }] });
      await post({ Type: 'initiation', SessionId: 'x3', Mobile: 'nobody' }).expect(400);
      await post({ Type: 'initiation', SessionId: 'x4', Mobile: '233244000004', Sequence: { n: 1 } }).expect(400);
    });
  });

  describe('SMS', () => {
    it('answers CHECK and a plate with the verdict, by SMS', async () => {
      const from = '233244555001';
      const res = await sms(from, 'check GR 1000-24').expect(200);
      expect(res.body).toEqual({ command: 'check', replied: true });
      const [reply] = await outboxTo('+233244555001');
      expect(reply.text).toMatch(/^GR 1000-24 Toyota gold: VALID to/);
    });

    it("answers in the language of the number's person (an owner's stored Ga), in English for a stranger", async () => {
      // An owner whose number no other test here texts from (the linked vehicle's owner's is STOP's).
      const owner = await running.database.prisma.vehicleOwner.findFirstOrThrow({
        where: { id: { in: f.ids.owners }, phone: { not: '+233244123450' } },
      });
      await running.database.prisma.vehicleOwner.update({ where: { id: owner.id }, data: { language: 'gaa' } });
      try {
        await sms(owner.phone.replace('+', ''), 'HELP').expect(200);
        const replies = await outboxTo(owner.phone);
        expect(replies.at(-1)?.text).toMatch(/^Ŋma CHECK kɛ lɔle nɔmba/);
      } finally {
        await running.database.prisma.vehicleOwner.update({ where: { id: owner.id }, data: { language: 'en' } });
      }
    });

    it('answers CHECK and the sticker code', async () => {
      const row = await running.database.prisma.vehicle.findUnique({ where: { id: f.ids.linkedVehicle } });
      expect(row?.checkCode).toMatch(/^\d{10}$/);
      await sms('233244555002', `CHECK ${row?.checkCode}`).expect(200);
      const [reply] = await outboxTo('+233244555002');
      expect(reply.text).toMatch(/^GR 1000-24 Toyota gold: VALID/);
    });

    it('answers HELP, and anything it does not read, with what to send', async () => {
      await sms('233244555003', 'HELP').expect(200);
      await sms('233244555003', 'hello?').expect(200);
      const replies = await outboxTo('+233244555003');
      expect(replies.map((r) => r.text)).toEqual([
        expect.stringMatching(/^Send CHECK and the plate/),
        expect.stringMatching(/^Send CHECK/),
      ]);
    });

    it('stops reminders to the number on STOP and resumes them on START (the reminders job reads it)', async () => {
      // The linked vehicle's owner: their number gets its insurance reminders.
      const owner = '233244123450';
      const reminders = running.app.get<ReminderStore>(REMINDERS);
      const document = {
        entity: 'vehicle' as const,
        entityId: f.ids.linkedVehicle,
        document: 'insurance' as const,
        expiry: new Date(),
      };
      expect((await reminders.target(document))?.stopped).toBe(false);
      expect((await sms(owner, 'STOP').expect(200)).body).toEqual({ command: 'stop', replied: true });
      expect((await reminders.target(document))?.stopped).toBe(true);
      expect((await sms(owner, 'start').expect(200)).body).toEqual({ command: 'start', replied: true });
      expect((await reminders.target(document))?.stopped).toBe(false);
      const replies = await outboxTo('+233244123450');
      expect(replies.map((r) => r.text)).toEqual([
        expect.stringMatching(/no more reminders/),
        expect.stringMatching(/on again/),
      ]);
    });

    it('texts one number at most SMS_REPLIES_PER_PHONE_PER_HOUR answers, and never a number abroad', async () => {
      const from = '233244555004';
      for (let i = 0; i < 3; i++) expect((await sms(from, 'HELP').expect(200)).body.replied).toBe(true);
      expect((await sms(from, 'HELP').expect(200)).body).toEqual({ command: 'help', replied: false });
      expect(await outboxTo('+233244555004')).toHaveLength(3);
      expect((await sms('447700900123', 'HELP').expect(200)).body.replied).toBe(false);
      expect((await sms('+447700900123', 'STOP').expect(200)).body).toEqual({ command: 'stop', replied: false });
      expect(await outboxTo('+447700900123')).toHaveLength(0);
    });

    it('reads the fields in any letter case, from a GET push too', async () => {
      await http()
        .get('/sms/hubtel')
        .query({ from: '233244555005', to: '1402', message: 'HELP' })
        .set('Authorization', BASIC)
        .set('X-Forwarded-For', HUBTEL_ADDRESS)
        .expect(200, { command: 'help', replied: true });
      await sms('', 'HELP').expect(400);
    });

    it('counts the parts of every SMS sent in the metrics', async () => {
      const metrics = await running.app.get(Metrics).registry.getSingleMetricAsString('transport_sms_parts_total');
      const line = metrics.split('\n').find((l) => l.startsWith('transport_sms_parts_total{encoding="gsm7"}'));
      expect(Number(line?.split(' ').pop())).toBeGreaterThan(0);
    });
  });

  it('kept every USSD screen of this file within 182 characters', () => {
    expect(screens.length).toBeGreaterThan(40);
    expect(screens.filter((s) => s.length > 182)).toEqual([]);
  });
});
