import { FixedClock } from '@transport/domain/testing';
import request from 'supertest';
import { createApp, type RunningApp } from '../src/app';
import type { AppConfig } from '../src/config';
import { Metrics } from '../src/core/observability/metrics';
import { DriverWorkers } from '../src/drivers/driver-workers';
import { driverRegistration, loadApiFixture, type ApiFixture } from './support/api-fixtures';
import { describeOnPostgres } from './support/postgres-only';
import { describeOnEachTier, openTierStore, type TierStore } from './support/test-app';

/** 10:00 in Accra (UTC+0) on a Wednesday: outside the quiet hours. */
const MORNING = '2027-03-03T10:00:00Z';
const STRANGER = '+44 7700 900123';

/** Few SMS an hour, Ghana only, quiet from 20:00 to 07:00, no workers (the tests run the jobs at the times they set). */
const smsConfig = (config: AppConfig): AppConfig => ({
  ...config,
  trustProxy: 1,
  jobs: { ...config.jobs, workers: false },
  reminders: { ...config.reminders, quietHours: { fromHour: 20, untilHour: 7 } },
  messaging: { ...config.messaging, countryCodes: ['233'], perHour: 4, activationWindowMinutes: 60 },
});

function eventCount(text: string, outcome: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`transport_events_total{event="sms",outcome="${outcome}"}`));
  return line ? Number(line.split(' ').pop()) : 0;
}

/**
 * Issue 42, item 1 (SMS pumping): an anonymous registration naming a stranger's foreign number was texted at once, and
 * again and again. Over HTTP: who may be texted, how many texts may go out, and when.
 */
describeOnEachTier('no free SMS for strangers', (tier) => {
  let store: TierStore;
  let running: RunningApp;
  let f: ApiFixture;
  const clock = new FixedClock(MORNING);
  const http = () => request(running.app.getHttpServer());
  let n = 0;
  /** A registration with its own e-mail, licence and (unless given) phone number. */
  const fresh = (over: Record<string, unknown> = {}) => {
    n += 1;
    const k = String(n).padStart(3, '0');
    return driverRegistration({
      email: `sms${k}.${tier}@example.com`,
      phone: `0208000${k}`,
      license: `DL-SMS-${k}`,
      idNumber: `GHA-SMS-${k}`,
      ...over,
    });
  };
  const anonymous = (body: object, from = '198.51.100.40') =>
    http().post('/drivers/add').set('X-Forwarded-For', from).send(body);
  const outbox = () => running.database.prisma.outboxMessage.findMany({ orderBy: { id: 'asc' } });
  const metrics = () => running.app.get(Metrics).registry.getSingleMetricAsString('transport_events_total');

  beforeAll(async () => {
    store = await openTierStore(tier);
    running = await createApp(smsConfig(store.config()), { ports: { clock } });
    f = await loadApiFixture(running.database);
  });
  afterAll(async () => {
    await running?.close();
    await store?.dispose();
  });
  beforeEach(async () => {
    clock.set(MORNING);
    await running.database.prisma.outboxMessage.deleteMany({});
    // Every test starts with the hour's budget and every number's window unused.
    await running.database.prisma.rateLimit.deleteMany({});
  });

  describe('phone numbers are Ghanaian unless configured otherwise', () => {
    it('refuses a foreign number at an anonymous registration with a 400 naming the field, and texts nobody', async () => {
      const res = await anonymous(fresh({ phone: STRANGER })).expect(400);
      expect(res.body).toMatchObject({
        code: 'PHONE_NOT_ALLOWED',
        errors: [{ field: 'phone', message: expect.stringMatching(/\+233/) }],
      });
      expect(await running.database.prisma.driver.count({ where: { phone: '+447700900123' } })).toBe(0);
      expect(await outbox()).toEqual([]);
    });

    it('takes the number as Ghanaians type it (024…, +233 24…, 233-24-…) as the same number', async () => {
      const phones = [];
      for (const phone of ['0248000555', '+233 24 800 0555', '233-24-800-0555']) {
        const res = await http()
          .post('/drivers/add')
          .set('Authorization', f.keys.assembly)
          .send(fresh({ phone }))
          .expect(201);
        phones.push(res.body.payload.phone);
      }
      expect(phones).toEqual(['+233248000555', '+233248000555', '+233248000555']);
    });

    it('refuses a foreign number wherever a phone we would text enters: drivers corrected, owners, staff', async () => {
      const driver = await http().post('/drivers/add').set('Authorization', f.keys.assembly).send(fresh()).expect(201);
      const corrected = await http()
        .post(`/drivers/${driver.body.payload._id}/correct`)
        .set('Authorization', f.keys.assembly)
        .set('If-Match', String(driver.body.payload.__v))
        .send({ phone: STRANGER });
      expect([corrected.status, corrected.body.code, corrected.body.errors?.[0]?.field]).toEqual([
        400,
        'PHONE_NOT_ALLOWED',
        'phone',
      ]);

      const owner = await http()
        .post('/vehicles/owner/add')
        .set('Authorization', f.keys.assembly)
        .send({
          name: 'Esi Abroad',
          phone: STRANGER,
          email: `esi.abroad.${tier}@example.com`,
          idType: 'ghana_card',
          idNumber: 'GHA-ABROAD-1',
        });
      expect([owner.status, owner.body.code, owner.body.errors?.[0]?.field]).toEqual([
        400,
        'PHONE_NOT_ALLOWED',
        'phone',
      ]);
      const ownerRow = await running.database.prisma.vehicleOwner.findFirstOrThrow({
        where: { assemblyId: f.ids.assembly },
      });
      const ownerCorrected = await http()
        .post(`/vehicles/owner/${ownerRow.id}/correct`)
        .set('Authorization', f.keys.assembly)
        .set('If-Match', String(ownerRow.version))
        .send({ phone: STRANGER });
      expect([ownerCorrected.status, ownerCorrected.body.code]).toEqual([400, 'PHONE_NOT_ALLOWED']);

      const staff = await http()
        .post('/assembly/users/add')
        .set('Authorization', f.keys.admin)
        .send({
          assembly: f.ids.assembly,
          name: 'Kofi Abroad',
          email: `kofi.abroad.${tier}@ama.gov.gh`,
          phone: STRANGER,
          role: 'inspector',
        });
      expect([staff.status, staff.body.code, staff.body.errors?.[0]?.field]).toEqual([
        400,
        'PHONE_NOT_ALLOWED',
        'phone',
      ]);
      expect(await running.database.prisma.assemblyUser.count({ where: { phone: '+447700900123' } })).toBe(0);
    });

    it('never texts a foreign number already stored (older data): the sender itself refuses', async () => {
      const driver = await http().post('/drivers/add').set('Authorization', f.keys.assembly).send(fresh()).expect(201);
      await running.database.prisma.outboxMessage.deleteMany({});
      await running.database.prisma.driver.update({
        where: { id: driver.body.payload._id },
        data: { phone: '+447700900123' },
      });
      const res = await http()
        .post(`/drivers/${driver.body.payload._id}/activation-key`)
        .set('Authorization', f.keys.assembly);
      expect([res.status, res.body.code]).toEqual([400, 'PHONE_NOT_ALLOWED']);
      expect(await outbox()).toEqual([]);
    });
  });

  describe('how many SMS may go out', () => {
    it('sends one activation key to a number per window, however many registrations name it or keys are reissued', async () => {
      const phone = '0208111222';
      const first = await anonymous(fresh({ phone }), '198.51.100.41').expect(201);
      const second = await anonymous(fresh({ phone }), '198.51.100.42').expect(201);
      const byStaff = await http()
        .post('/drivers/add')
        .set('Authorization', f.keys.assembly)
        .send(fresh({ phone }))
        .expect(201);
      expect([first.body.activationKeySent, second.body.activationKeySent, byStaff.body.activationKeySent]).toEqual([
        true,
        false,
        false,
      ]);
      const reissued = await http()
        .post(`/drivers/${second.body.payload._id}/activation-key`)
        .set('Authorization', f.keys.admin);
      expect([reissued.status, reissued.body.code]).toEqual([429, 'RATE_LIMITED']);
      expect(reissued.headers['retry-after']).toMatch(/^\d+$/);
      expect((await outbox()).map((m) => m.to)).toEqual(['+233208111222']);
    });

    it('stops at the hourly budget: the message is not sent, the answer says so, and the alert metric counts it', async () => {
      const before = eventCount(await metrics(), 'over_budget');
      const answers = [];
      for (let i = 0; i < 5; i++) answers.push((await anonymous(fresh(), `198.51.100.${50 + i}`).expect(201)).body);
      expect(answers.map((a) => a.activationKeySent)).toEqual([true, true, true, true, false]);
      expect(await outbox()).toHaveLength(4);
      expect(eventCount(await metrics(), 'over_budget') - before).toBe(1);
      // Staff asking for a key past the budget are told to come back (503 with Retry-After), and nothing is sent.
      const late = await http()
        .post(`/drivers/${answers[4].payload._id}/activation-key`)
        .set('Authorization', f.keys.admin);
      expect([late.status, late.body.code]).toEqual([503, 'SMS_BUDGET_EXHAUSTED']);
      expect(await outbox()).toHaveLength(4);
    });
  });

  describe('registrations nobody activates', () => {
    it('are deleted after UNACTIVATED_DRIVER_DAYS with their personal data, audited, and their e-mail and number are free again', async () => {
      const body = fresh({ phone: '0208333444' });
      const stranger = (await anonymous(body, '198.51.100.60').expect(201)).body.payload;
      // A driver who activated, registered at the same time, stays.
      const own = (await anonymous(fresh(), '198.51.100.61').expect(201)).body.payload;
      const [message] = await running.database.prisma.outboxMessage.findMany({ where: { to: own.phone } });
      await http()
        .post(`/drivers/${own._id}/activate`)
        .set('X-Forwarded-For', '198.51.100.61')
        .send({ activationKey: /(\d{6})/.exec(message.text)?.[1] })
        .expect(200);
      const workers = running.app.get(DriverWorkers);
      const exists = async (id: string) => (await running.database.prisma.driver.count({ where: { id } })) === 1;
      // The fixture's drivers who never activated were registered long before: deleted by the first run.
      await workers.deleteStaleRegistrations();
      expect(await exists(stranger._id)).toBe(true);

      clock.set('2027-03-09T10:00:00Z'); // six days on: kept
      expect(await workers.deleteStaleRegistrations()).toBe(0);
      clock.set('2027-03-10T10:00:01Z'); // seven days and a second
      expect(await workers.deleteStaleRegistrations()).toBeGreaterThanOrEqual(1);
      expect([await exists(stranger._id), await exists(own._id)]).toEqual([false, true]);

      await http().get(`/drivers/${stranger._id}`).set('Authorization', f.keys.admin).expect(404);
      await http().get(`/drivers/${own._id}`).set('Authorization', f.keys.admin).expect(200);
      const history = (
        await http()
          .get('/audit')
          .query({ entity: 'driver', id: stranger._id })
          .set('Authorization', f.keys.admin)
          .expect(200)
      ).body as Array<{ action: string; actor: unknown; before: unknown; after: unknown }>;
      const deletion = history.find((e) => e.action === 'DriverRegistrationDeleted');
      expect(deletion).toMatchObject({ actor: { role: 'system', id: 'system' }, after: null });
      expect(JSON.stringify(deletion)).not.toMatch(/0208333444|\+233208333444|@example\.com/);

      // The same e-mail and number register again (the person who really holds them).
      await running.database.prisma.rateLimit.deleteMany({});
      await anonymous(body, '198.51.100.62').expect(201);
    });
  });

  describe('quiet hours', () => {
    const heldJobs = () =>
      running.database.pool.query<{ data: { driverId: string }; delay: number }>(
        `SELECT data, extract(epoch FROM start_after - created_on)::int AS delay
         FROM pgboss.job WHERE name = 'activation-key-send' AND state = 'created'`,
      );

    it("send the driver's own key at once, and hold a key staff asked for (registration, reissue) until 07:00", async () => {
      clock.set('2027-03-03T21:30:00Z');
      const own = await anonymous(fresh(), '198.51.100.70').expect(201);
      expect(own.body.activationKeySent).toBe(true);
      const byStaff = await http().post('/drivers/add').set('Authorization', f.keys.assembly).send(fresh()).expect(201);
      expect(byStaff.body.activationKeySent).toBe(false);
      await http()
        .post(`/drivers/${own.body.payload._id}/activation-key`)
        .set('Authorization', f.keys.admin)
        .expect(200);
      // At night only the driver's own key went out.
      expect((await outbox()).map((m) => m.to)).toEqual([own.body.payload.phone]);
      const held = (await heldJobs()).rows;
      expect(held.map((j) => j.data.driverId).sort()).toEqual([own.body.payload._id, byStaff.body.payload._id].sort());
      // Until the morning in Accra, 07:00 UTC: nine and a half hours (the queue counts from its own clock).
      for (const job of held) expect(Math.abs(job.delay - 9.5 * 3600)).toBeLessThan(60);

      clock.set('2027-03-04T07:00:00Z');
      const workers = running.app.get(DriverWorkers);
      for (const job of held) await workers.sendHeldKey(job.data.driverId);
      const key = /(\d{6})/.exec((await outbox()).find((m) => m.to === byStaff.body.payload.phone)?.text ?? '')?.[1];
      expect(key).toMatch(/^\d{6}$/);
      await http()
        .post(`/drivers/${byStaff.body.payload._id}/activate`)
        .set('X-Forwarded-For', '198.51.100.71')
        .send({ activationKey: key })
        .expect(200);
      // The driver's own number had its one key of the window at night: the reissued one waits for the window.
      expect((await outbox()).filter((m) => m.to === own.body.payload.phone)).toHaveLength(1);
    });
  });
});

// Two instances count against one budget and one window per number: the counters are in the database.
describeOnPostgres('the SMS budget across instances', () => {
  let store: TierStore;
  let a: RunningApp;
  let b: RunningApp;

  beforeAll(async () => {
    store = await openTierStore('postgresql');
    const config = smsConfig(store.config());
    a = await createApp(config, { ports: { clock: new FixedClock(MORNING) } });
    b = await createApp(config, { ports: { clock: new FixedClock(MORNING) } });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await store?.dispose();
  });

  it('sends at most the hourly budget between two instances, and one key per number', async () => {
    const sent = [];
    for (let i = 0; i < 6; i++) {
      const res = await request((i % 2 ? a : b).app.getHttpServer())
        .post('/drivers/add')
        .set('X-Forwarded-For', `203.0.113.${i + 1}`)
        .send(
          driverRegistration({
            email: `two${i}@example.com`,
            // The first two name one number: one key between both instances.
            phone: i < 2 ? '0208999000' : `020899900${i}`,
            license: `DL-TWO-${i}`,
            idNumber: `GHA-TWO-${i}`,
          }),
        )
        .expect(201);
      sent.push(res.body.activationKeySent);
    }
    expect(sent).toEqual([true, false, true, true, true, false]);
    expect(await a.database.prisma.outboxMessage.count()).toBe(4);
  });
});
