import { FixedClock } from '@transport/domain/testing';
import request from 'supertest';
import type { RunningApp } from '../src/app';
import type { AppConfig } from '../src/config';
import { Metrics } from '../src/core/observability/metrics';
import type { MessageSender } from '../src/core/ports';
import { REMINDER_QUEUES, RemindersService } from '../src/reminders/reminders.service';
import { loadApiFixture, type ApiFixture } from './support/api-fixtures';
import { describeOnPostgres } from './support/postgres-only';
import { createApp } from '../src/app';
import { describeOnEachTier, openTierStore, type TierStore } from './support/test-app';

/** 08:00 in Accra on a Wednesday: a week before the roadworthy certificate set below lapses. */
const MORNING = '2027-03-03T08:00:00Z';
const ROADWORTHY = new Date('2027-03-10T12:00:00Z'); // 7 days ahead
const INSURANCE = new Date('2027-04-02T12:00:00Z'); // 30 days ahead
const LICENCE = new Date('2027-03-04T12:00:00Z'); // tomorrow

/** Records every message; fails like a gateway that is down while `down` is set. */
class RecordingSender implements MessageSender {
  readonly sent: Array<{ to: string; text: string }> = [];
  down = false;

  async send(message: { to: string; text: string }): Promise<void> {
    if (this.down) throw new Error('The SMS gateway could not be reached (test)');
    this.sent.push(message);
  }
}

interface Subjects {
  vehicle: string;
  ownerId: string;
  ownerPhone: string;
  driver: string;
  driverPhone: string;
}

/** Gives one vehicle and one driver of the fixture documents that lapse soon; every other document is far off. */
async function documentsLapsingSoon(running: RunningApp, f: ApiFixture): Promise<Subjects> {
  const prisma = running.database.prisma;
  const far = new Date('2028-06-01T00:00:00Z');
  await prisma.vehicle.updateMany({ data: { roadWorthyExpiryDate: far, insuranceExpiryDate: far } });
  await prisma.driver.updateMany({ data: { licenseExpiry: far } });
  const vehicle = await prisma.vehicle.update({
    where: { id: f.ids.linkedVehicle },
    data: { roadWorthyExpiryDate: ROADWORTHY, insuranceExpiryDate: INSURANCE },
    include: { owner: true },
  });
  const driver = await prisma.driver.update({ where: { id: f.ids.workingDriver }, data: { licenseExpiry: LICENCE } });
  // Reminders go to people who proved the number is theirs: the working driver activated; the owner is verified here.
  await prisma.vehicleOwner.update({ where: { id: vehicle.ownerId }, data: { verified: true } });
  return {
    vehicle: vehicle.id,
    ownerId: vehicle.ownerId,
    ownerPhone: vehicle.owner.phone,
    driver: driver.id,
    driverPhone: driver.phone,
  };
}

const reminderRows = (running: RunningApp) =>
  running.database.prisma.documentReminder.findMany({ orderBy: { id: 'asc' } });

/** Runs what the queue would: every pending reminder's send job, once. */
async function deliverPending(running: RunningApp, attempt = { retryCount: 0, retryLimit: 3 }): Promise<void> {
  const service = running.app.get(RemindersService);
  for (const row of await reminderRows(running))
    if (row.status === 'pending') await service.deliver(String(row.id), attempt).catch(() => undefined);
}

function eventCount(text: string, outcome: string): number {
  const line = text
    .split('\n')
    .find((l) => l.startsWith(`transport_events_total{event="reminder",outcome="${outcome}"}`));
  return line ? Number(line.split(' ').pop()) : 0;
}

describeOnEachTier('reminders before documents lapse', (tier) => {
  let store: TierStore;
  let running: RunningApp;
  let f: ApiFixture;
  let s: Subjects;
  const clock = new FixedClock(MORNING);
  const sender = new RecordingSender();
  const http = () => request(running.app.getHttpServer());
  const service = () => running.app.get(RemindersService);

  beforeAll(async () => {
    store = await openTierStore(tier);
    const config = store.config();
    // No workers: the test runs the scan and the send jobs itself, at the times it sets.
    running = await createApp(
      {
        ...config,
        jobs: { ...config.jobs, workers: false },
        reminders: { ...config.reminders, quietHours: { fromHour: 20, untilHour: 7 } },
        // Under 200 an hour the budget is counted one by one in the database (no points held by the instance).
        messaging: { ...config.messaging, perHour: 100 },
      },
      { ports: { clock, messages: sender } },
    );
    f = await loadApiFixture(running.database);
    s = await documentsLapsingSoon(running, f);
  });
  afterAll(async () => {
    await running?.close();
    await store?.dispose();
  });
  beforeEach(async () => {
    await running.database.prisma.documentReminder.deleteMany({});
    await running.database.prisma.vehicleOwner.updateMany({ data: { remindersStoppedAt: null } });
    await running.database.prisma.driver.updateMany({ data: { remindersStoppedAt: null } });
    await running.database.prisma.vehicleOwner.update({ where: { id: s.ownerId }, data: { verified: true } });
    await running.database.prisma.driver.update({ where: { id: s.driver }, data: { verified: true } });
    await running.database.prisma.vehicle.update({
      where: { id: s.vehicle },
      data: { roadWorthyExpiryDate: ROADWORTHY, insuranceExpiryDate: INSURANCE },
    });
    sender.sent.length = 0;
    sender.down = false;
    clock.set(MORNING);
  });

  it('sends each due reminder once: the owner for the roadworthy and insurance, the driver for the licence', async () => {
    expect(await service().scan()).toEqual({ claimed: 3, released: 0 });
    // A second scan (another instance, the next quarter hour) claims nothing more.
    expect(await service().scan()).toEqual({ claimed: 0, released: 0 });
    await deliverPending(running);
    await deliverPending(running);
    expect(sender.sent).toHaveLength(3);
    const to = (phone: string) => sender.sent.filter((m) => m.to === phone).map((m) => m.text);
    const plate = (await running.database.prisma.vehicle.findUniqueOrThrow({ where: { id: s.vehicle } }))
      .registrationNumber;
    expect(to(s.ownerPhone).sort()).toEqual([
      expect.stringMatching(new RegExp(`^The insurance of ${plate} expires in 30 days, on 2 Apr 2027\\.`)),
      expect.stringMatching(new RegExp(`^The roadworthy certificate of ${plate} expires in 7 days, on 10 Mar 2027\\.`)),
    ]);
    expect(to(s.driverPhone)).toEqual([expect.stringMatching(/^Your driving licence expires tomorrow\./)]);
    expect((await reminderRows(running)).map((r) => [r.document, r.threshold, r.status, r.attempts])).toEqual([
      ['roadworthy', 7, 'sent', 1],
      ['insurance', 30, 'sent', 1],
      ['licence', 1, 'sent', 1],
    ]);
    // The next threshold fires in its time: the day before the roadworthy lapses, once more (and only that one).
    clock.set('2027-03-09T09:00:00Z');
    expect(await service().scan()).toEqual({ claimed: 1, released: 0 });
    await deliverPending(running);
    expect(sender.sent.at(-1)?.text).toMatch(/^The roadworthy certificate of .* expires tomorrow\./);
  });

  it('reminds only people who proved the number is theirs: never a driver who did not activate, nor an unverified owner', async () => {
    // Issue 42: an anonymous registration with a stranger's number got licence reminders without ever activating.
    await running.database.prisma.driver.update({ where: { id: s.driver }, data: { verified: false } });
    await running.database.prisma.vehicleOwner.update({ where: { id: s.ownerId }, data: { verified: false } });
    expect(await service().scan()).toEqual({ claimed: 0, released: 0 });
    await deliverPending(running);
    expect(sender.sent).toEqual([]);

    // Claimed while proven, then no longer so (a corrected number voids the proof): cancelled when its job runs.
    await running.database.prisma.driver.update({ where: { id: s.driver }, data: { verified: true } });
    expect((await service().scan()).claimed).toBe(1);
    await running.database.prisma.driver.update({ where: { id: s.driver }, data: { verified: false } });
    await deliverPending(running);
    expect(sender.sent).toEqual([]);
    expect((await reminderRows(running)).map((r) => [r.document, r.status, r.reason])).toEqual([
      ['licence', 'cancelled', 'number not proven'],
    ]);
  });

  it('holds a reminder over the hourly SMS budget until a later scan, and never texts a number outside the country codes', async () => {
    await running.database.prisma.vehicleOwner.update({ where: { id: s.ownerId }, data: { verified: false } });
    expect((await service().scan()).claimed).toBe(1);
    const limits = running.database.prisma.rateLimit;
    // The hour's budget used up (by other instances): the reminder waits, it is not lost nor retried at once.
    await limits.deleteMany({});
    await running.database.prisma
      .$executeRaw`INSERT INTO rate_limits (key, points, expire) VALUES ('sms-budget:all', 1000000, ${Date.now() + 3_600_000})`;
    await deliverPending(running);
    expect(sender.sent).toEqual([]);
    expect((await reminderRows(running)).map((r) => [r.status, r.reason])).toEqual([['held', 'over budget']]);
    await limits.deleteMany({});
    expect(await service().scan()).toEqual({ claimed: 0, released: 1 });
    await deliverPending(running);
    expect(sender.sent.map((m) => m.to)).toEqual([s.driverPhone]);

    // A number stored before the country codes were enforced is not texted: cancelled, never retried.
    await running.database.prisma.documentReminder.deleteMany({});
    await running.database.prisma.driver.update({ where: { id: s.driver }, data: { phone: '+447700900123' } });
    try {
      await service().scan();
      await deliverPending(running);
      expect(sender.sent).toHaveLength(1);
      expect((await reminderRows(running)).map((r) => [r.status, r.reason])).toEqual([
        ['cancelled', 'number not allowed'],
      ]);
    } finally {
      await running.database.prisma.driver.update({ where: { id: s.driver }, data: { phone: s.driverPhone } });
    }
  });

  it('lists sent and failed reminders in the history of the vehicle and of the driver, and counts them', async () => {
    const metrics = running.app.get(Metrics).registry;
    const before = await metrics.getSingleMetricAsString('transport_events_total');
    await service().scan();
    // The gateway is down for the licence reminder's last attempt: it fails for good.
    const licence = (await reminderRows(running)).find((r) => r.document === 'licence')!;
    sender.down = true;
    await expect(service().deliver(String(licence.id), { retryCount: 3, retryLimit: 3 })).rejects.toThrow(/gateway/);
    sender.down = false;
    await deliverPending(running);

    const vehicleHistory = await http()
      .get('/audit')
      .query({ entity: 'vehicle', id: s.vehicle })
      .set('Authorization', f.keys.assembly)
      .expect(200);
    const sent = (vehicleHistory.body as Array<{ action: string; after: Record<string, unknown>; actor: unknown }>)
      .filter((e) => e.action === 'ReminderSent')
      .map((e) => [e.after.document, e.after.daysBefore, e.actor]);
    expect(sent).toEqual(
      expect.arrayContaining([
        ['roadworthy', 7, { role: 'system', id: 'system' }],
        ['insurance', 30, { role: 'system', id: 'system' }],
      ]),
    );
    const driverHistory = await http()
      .get('/audit')
      .query({ entity: 'driver', id: s.driver })
      .set('Authorization', f.keys.assembly)
      .expect(200);
    expect(
      (driverHistory.body as Array<{ action: string; after: Record<string, unknown> }>)
        .filter((e) => e.action === 'ReminderFailed')
        .map((e) => [e.action, e.after.document, e.after.reason]),
    ).toEqual([['ReminderFailed', 'licence', 'The SMS gateway could not be reached (test)']]);

    const after = await metrics.getSingleMetricAsString('transport_events_total');
    expect(eventCount(after, 'sent') - eventCount(before, 'sent')).toBe(2);
    expect(eventCount(after, 'failed') - eventCount(before, 'failed')).toBe(1);
  });

  it('keeps quiet from 20:00 to 07:00 Africa/Accra: nothing is claimed, and a reminder queued before 20:00 is held until morning', async () => {
    clock.set('2027-03-03T20:30:00Z');
    expect(await service().scan()).toEqual({ claimed: 0, released: 0 });
    clock.set('2027-03-04T06:59:00Z');
    expect(await service().scan()).toEqual({ claimed: 0, released: 0 });

    // Claimed at 19:59; its job runs at 20:01 (a busy queue): held, not sent.
    clock.set('2027-03-03T19:59:00Z');
    expect((await service().scan()).claimed).toBe(3);
    clock.set('2027-03-03T20:01:00Z');
    await deliverPending(running);
    expect(sender.sent).toEqual([]);
    expect(new Set((await reminderRows(running)).map((r) => r.status))).toEqual(new Set(['held']));
    // The night's scans leave them held.
    clock.set('2027-03-04T03:00:00Z');
    expect(await service().scan()).toEqual({ claimed: 0, released: 0 });
    // The first scan from 07:00 queues them again; they go out in the morning.
    clock.set('2027-03-04T07:00:00Z');
    expect(await service().scan()).toEqual({ claimed: 1, released: 3 });
    await deliverPending(running);
    const statuses = (await reminderRows(running)).map((r) => [r.document, r.threshold, r.status, r.reason]);
    // The licence lapses today now: its "tomorrow" reminder is no longer due (cancelled), the day's one is sent.
    expect(statuses).toEqual([
      ['roadworthy', 7, 'sent', null],
      ['insurance', 30, 'sent', null],
      ['licence', 1, 'cancelled', 'no longer due'],
      ['licence', 0, 'sent', null],
    ]);
    expect(sender.sent.map((m) => m.text)).toContainEqual(
      expect.stringMatching(/^Your driving licence expires today\./),
    );
  });

  it('sends nothing more to an owner who asked to stop, queued reminders included, and again once resumed', async () => {
    expect((await service().scan()).claimed).toBe(3);
    const stopped = await http()
      .post(`/vehicles/owner/${s.ownerId}/reminders`)
      .set('Authorization', f.keys.assembly)
      .send({ stop: true })
      .expect(200);
    expect(stopped.body).toEqual({
      _id: s.ownerId,
      remindersStopped: true,
      remindersStoppedAt: clock.now().toISOString(),
    });
    await deliverPending(running);
    expect(sender.sent.map((m) => m.to)).toEqual([s.driverPhone]);
    expect(
      (await reminderRows(running)).filter((r) => r.entity === 'vehicle').map((r) => [r.status, r.reason]),
    ).toEqual([
      ['cancelled', 'asked to stop'],
      ['cancelled', 'asked to stop'],
    ]);
    // Days later, the next threshold is not claimed for them either.
    clock.set('2027-03-09T09:00:00Z');
    await service().scan();
    await deliverPending(running);
    expect(sender.sent.filter((m) => m.to === s.ownerPhone)).toEqual([]);

    // The history says who stopped them; asking twice adds nothing.
    await http()
      .post(`/vehicles/owner/${s.ownerId}/reminders`)
      .set('Authorization', f.keys.assembly)
      .send({ stop: true })
      .expect(200);
    const history = await http()
      .get('/audit')
      .query({ entity: 'owner', id: s.ownerId })
      .set('Authorization', f.keys.assembly)
      .expect(200);
    expect((history.body as Array<{ action: string }>).filter((e) => e.action.startsWith('Reminders'))).toHaveLength(1);

    await http()
      .post(`/vehicles/owner/${s.ownerId}/reminders`)
      .set('Authorization', f.keys.assembly)
      .send({ stop: false })
      .expect(200, { _id: s.ownerId, remindersStopped: false, remindersStoppedAt: null });
    await service().scan();
    await deliverPending(running);
    expect(sender.sent.filter((m) => m.to === s.ownerPhone)).toHaveLength(1);
  });

  it("stops a driver's licence reminders the same way", async () => {
    await http()
      .post(`/drivers/${s.driver}/reminders`)
      .set('Authorization', f.keys.admin)
      .send({ stop: true })
      .expect(200);
    await service().scan();
    await deliverPending(running);
    expect(sender.sent.map((m) => m.to)).not.toContain(s.driverPhone);
    expect(sender.sent).toHaveLength(2);
  });

  it('answers 400 to a body without a boolean, and 404 for a record of another assembly or none', async () => {
    const res = await http()
      .post(`/drivers/${s.driver}/reminders`)
      .set('Authorization', f.keys.assembly)
      .send({ stop: 'yes' })
      .expect(400);
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
    await http()
      .post(`/drivers/${s.driver}/reminders`)
      .set('Authorization', f.keys.otherAssembly)
      .send({ stop: true })
      .expect(404);
    await http()
      .post(`/vehicles/owner/${'0'.repeat(24)}/reminders`)
      .set('Authorization', f.keys.admin)
      .send({ stop: true })
      .expect(404);
    await http()
      .post(`/drivers/${s.driver}/reminders`)
      .set('Authorization', f.keys.merchantA)
      .send({ stop: true })
      .expect(403);
  });

  it('cancels the reminders a renewal made pointless; the thresholds of the new expiry fire in their time', async () => {
    expect((await service().scan()).claimed).toBe(3);
    await http()
      .post(`/vehicles/${s.vehicle}/renew`)
      .set('Authorization', f.keys.assembly)
      .send({ roadWorthyExpiryDate: '2028-03-10T12:00:00Z' })
      .expect(200);
    await deliverPending(running);
    expect(
      (await reminderRows(running))
        .filter((r) => r.document === 'roadworthy')
        .map((r) => [r.threshold, r.status, r.reason]),
    ).toEqual([[7, 'cancelled', 'renewed']]);
    expect(sender.sent.filter((m) => m.text.includes('roadworthy'))).toEqual([]);
    // The old date's next threshold never fires.
    clock.set('2027-03-09T09:00:00Z');
    await service().scan();
    await deliverPending(running);
    expect(sender.sent.filter((m) => m.text.includes('roadworthy'))).toEqual([]);
    // The new date's first threshold fires 30 days before it.
    clock.set('2028-02-09T09:00:00Z');
    await service().scan();
    await deliverPending(running);
    expect(sender.sent.filter((m) => m.text.includes('roadworthy')).map((m) => m.text)).toEqual([
      expect.stringMatching(/expires in 30 days, on 10 Mar 2028/),
    ]);
  });
});

describeOnPostgres('reminders across two instances', () => {
  let store: TierStore;
  let apps: RunningApp[] = [];
  const sender = new RecordingSender();
  const clocks = [new FixedClock(MORNING), new FixedClock(MORNING)];
  let documents = 0;

  beforeAll(async () => {
    store = await openTierStore('postgresql');
    const config: AppConfig = store.config();
    // Both run workers over one database, as two replicas do.
    apps = [
      await createApp(config, { ports: { clock: clocks[0], messages: sender } }),
      await createApp(config, { ports: { clock: clocks[1], messages: sender } }),
    ];
    await loadApiFixture(apps[0].database);
    const prisma = apps[0].database.prisma;
    // Ten vehicles' roadworthy certificates lapse in a week and the drivers' licences (up to six) tomorrow; the rest are far off.
    const far = new Date('2028-06-01T00:00:00Z');
    await prisma.vehicle.updateMany({ data: { roadWorthyExpiryDate: far, insuranceExpiryDate: far } });
    await prisma.driver.updateMany({ data: { licenseExpiry: far } });
    const vehicles = await prisma.vehicle.findMany({ select: { id: true }, orderBy: { id: 'asc' }, take: 10 });
    const drivers = await prisma.driver.findMany({ select: { id: true }, orderBy: { id: 'asc' }, take: 6 });
    await prisma.vehicle.updateMany({
      where: { id: { in: vehicles.map((v) => v.id) } },
      data: { roadWorthyExpiryDate: ROADWORTHY },
    });
    await prisma.driver.updateMany({
      where: { id: { in: drivers.map((d) => d.id) } },
      data: { licenseExpiry: LICENCE },
    });
    documents = vehicles.length + drivers.length;
    // Reminders go to people who proved the number is theirs: here every owner and driver has.
    await prisma.vehicleOwner.updateMany({ data: { verified: true } });
    await prisma.driver.updateMany({ data: { verified: true } });
  });
  afterAll(async () => {
    for (const running of apps) await running.close();
    await store?.dispose();
  });

  it('sends each message once, however many scans run at once on both', async () => {
    const prisma = apps[0].database.prisma;
    expect(documents).toBeGreaterThan(10);
    const scans = await Promise.all([0, 1, 0, 1].map((i) => apps[i].app.get(RemindersService).scan()));
    expect(scans.reduce((n, r) => n + r.claimed, 0)).toBe(documents);
    // Both instances' workers take the send jobs; wait until every reminder is settled.
    const deadline = Date.now() + 60_000;
    while ((await prisma.documentReminder.count({ where: { status: 'sent' } })) < documents) {
      if (Date.now() > deadline) throw new Error('the send jobs did not finish');
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    // Settle a little longer: a duplicate would show up now.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(sender.sent).toHaveLength(documents);
    expect(await prisma.documentReminder.count()).toBe(documents);
    // One send job per reminder, whichever instance queued or ran it.
    const jobs = await prisma.$queryRawUnsafe<Array<{ n: bigint }>>(
      `SELECT count(*) AS n FROM pgboss.job WHERE name = $1`,
      REMINDER_QUEUES.send,
    );
    expect(Number(jobs[0].n)).toBe(documents);
  });

  it('declares the scan as a pg-boss schedule', async () => {
    const rows = await apps[0].database.prisma.$queryRawUnsafe<Array<{ name: string; cron: string }>>(
      'SELECT name, cron FROM pgboss.schedule WHERE name = $1',
      REMINDER_QUEUES.scan,
    );
    expect(rows).toEqual([{ name: REMINDER_QUEUES.scan, cron: '*/15 * * * *' }]);
  });
});
