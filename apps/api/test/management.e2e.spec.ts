import request from 'supertest';
import { ObjectIdGenerator } from '@transport/domain';
import { allPassed, FixedClock, passedDriverChecklist, SeededRandomSource } from '@transport/domain/testing';
import type { RunningApp } from '../src/app';
import { endOfDayAfter } from '../src/core/http/date-range';
import { ensureAdminKey } from '../src/persistence/admin-key';
import { eventually } from './support/http-peers';
import { describeOnPostgres } from './support/postgres-only';
import { appOnTier } from './support/app-on-tier';
import { describeOnEachTier } from './support/test-app';

const ADMIN_KEY = 'admin-key-for-the-management-tests-0123456789';
const PASSED = allPassed();
const CHECKS = passedDriverChecklist;
const point = (lng: number, lat: number) => ({ type: 'Point', coordinates: [lng, lat] });
const future = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

async function bootstrap(running: RunningApp) {
  const clock = new FixedClock(new Date());
  await ensureAdminKey(
    running.database.prisma,
    new ObjectIdGenerator(clock, new SeededRandomSource(1)),
    ADMIN_KEY,
    clock.now(),
  );
  const http = () => request(running.app.getHttpServer());
  const admin = (req: request.Test) => req.set('Authorization', ADMIN_KEY);
  const region = (
    await admin(http().post('/assembly/regions/add'))
      .send({ name: 'Ashanti', country: '65a000000000000000000c01' })
      .expect(201)
  ).body;
  const assembly = (
    await admin(http().post('/assembly/add'))
      .send({
        name: 'Kumasi Metropolitan Assembly',
        region: region._id,
        digitalAddress: 'AK-039-5028',
        type: 'metropolitan',
      })
      .expect(201)
  ).body;
  expect(assembly.region).toMatchObject({ _id: region._id, name: 'Ashanti' });
  // The assembly's staff, one per duty: an inspector, an approver (the assembly key most tests use) and an admin.
  // A person has one account, so each has a phone of their own.
  const staff = async (name: string, email: string, phone: string, role: string) => {
    const user = (
      await admin(http().post('/assembly/users/add'))
        .send({ assembly: assembly._id, name, email, phone, role })
        .expect(201)
    ).body;
    const key = (await admin(http().post('/admin/keys')).send({ role: 'assembly', principal: user._id }).expect(201))
      .body;
    return { user, key };
  };
  const inspector = await staff('Kwame Boadu', 'kwame@kma.gov.gh', '0244000111', 'inspector');
  const approver = await staff('Abena Mensah', 'abena@kma.gov.gh', '0244000112', 'approver');
  const assemblyAdmin = await staff('Efua Sarpong', 'efua@kma.gov.gh', '0244000113', 'admin');
  const assemblyKey = approver.key;
  const platformKey = (
    await admin(http().post('/admin/keys'))
      .send({ role: 'platform', principal: '65a000000000000000000p01'.replace('p', 'f') })
      .expect(201)
  ).body;
  const union = (
    await admin(http().post('/unions/add'))
      .send({
        name: 'GPRTU Kumasi',
        digitalAddress: 'AK-100-2000',
        contactNumber: '0302000333',
        email: 'kumasi@gprtu.org.gh',
        zones: [],
      })
      .expect(201)
  ).body;
  const station = (
    await admin(http().post('/stations/add'))
      .send({
        name: 'Kejetia',
        transportUnions: [union._id],
        zones: [],
        contactNumber: 302000444,
        digitalAddress: 'AK-200-3000',
      })
      .expect(201)
  ).body;
  return {
    http,
    assemblyKey: assemblyKey.key as string,
    inspectorKey: inspector.key.key as string,
    assemblyAdminKey: assemblyAdmin.key.key as string,
    platformKey: platformKey.key as string,
    inspector: inspector.user,
    approver: approver.user,
    assembly,
    union,
    station,
    keyIds: { assembly: assemblyKey._id as string },
  };
}

describeOnEachTier('management life cycles through HTTP only', (tier) => {
  const { running } = appOnTier(tier);
  /** The activation key a driver's phone got (the local outbox stands in for the SMS gateway): nobody else sees it. */
  const smsKeyOf = async (phone: string) =>
    /(\d{6})/.exec(
      (await running.database.prisma.outboxMessage.findFirst({ where: { to: phone }, orderBy: { id: 'desc' } }))
        ?.text ?? '',
    )?.[1];
  let b: Awaited<ReturnType<typeof bootstrap>>;

  beforeAll(async () => {
    b = await bootstrap(running);
  });

  const as = (key: string) => ({
    get: (path: string) => b.http().get(path).set('Authorization', key),
    post: (path: string, body?: object) =>
      b
        .http()
        .post(path)
        .set('Authorization', key)
        .send(body ?? {}),
  });

  async function unchanged(path: string, key: string, before: { __v: number; updatedAt: string }) {
    const now = (await as(key).get(path).expect(200)).body;
    expect({ __v: now.__v, updatedAt: now.updatedAt }).toEqual({ __v: before.__v, updatedAt: before.updatedAt });
  }

  it('owner -> vehicle -> inspection (a failed item, then all passed) -> approval -> link to an approved driver', async () => {
    const asm = as(b.assemblyKey);
    const owner = (
      await asm
        .post('/vehicles/owner/add', {
          name: 'Kofi Asante',
          phone: '0244123456',
          email: 'kofi@example.com',
          idType: 'ghana_card',
          idNumber: 'GHA-712345678-9',
        })
        .expect(201)
    ).body;
    expect(owner).toMatchObject({ verified: false, phone: '+233244123456', __v: 0 });
    expect((await asm.post(`/vehicles/owner/${owner._id}/verify`).expect(200)).body).toMatchObject({
      verified: true,
      __v: 1,
    });
    expect((await asm.post(`/vehicles/owner/${owner._id}/verify`).expect(409)).body.code).toBe(
      'OWNER_ALREADY_VERIFIED',
    );

    let vehicle = (
      await asm
        .post('/vehicles/add', {
          ownerID: owner._id,
          registrationNumber: 'AS 1111-26',
          roadWorthyExpiryDate: future(200),
          insuranceExpiryDate: future(300),
        })
        .expect(201)
    ).body;
    const refused = await asm.post(`/vehicles/${vehicle._id}/approve`).expect(422);
    expect(refused.body).toMatchObject({ code: 'VEHICLE_NOT_INSPECTED', status: 422 });
    await unchanged(`/vehicles/${vehicle._id}`, b.assemblyKey, vehicle);

    // A note on a failed item is kept with the inspection; a note on an item that passed is refused, nothing written.
    const noted = await as(b.inspectorKey)
      .post(`/vehicles/${vehicle._id}/inspect`, {
        inspectionChecklist: { ...PASSED, brakes: false },
        defects: { brakes: 'Front pads worn', headlights: 'Cracked' },
      })
      .expect(400);
    expect([noted.body.code, noted.body.detail]).toEqual([
      'INVALID_VALUE',
      'defects.headlights: a defect note is for a failed item, and headlights passed',
    ]);
    await unchanged(`/vehicles/${vehicle._id}`, b.assemblyKey, vehicle);
    vehicle = (
      await as(b.inspectorKey)
        .post(`/vehicles/${vehicle._id}/inspect`, {
          inspectionChecklist: { ...PASSED, brakes: false },
          defects: { brakes: 'Front pads worn through' },
        })
        .expect(200)
    ).body;
    expect(vehicle).toMatchObject({
      inspected: true,
      approved: false,
      inspectedBy: b.inspector._id,
      inspectionChecklist: { brakes: false },
      inspectionDefects: { brakes: 'Front pads worn through' },
      __v: 1,
    });
    expect((await asm.get(`/vehicles/${vehicle._id}`).expect(200)).body.inspectionDefects).toEqual({
      brakes: 'Front pads worn through',
    });
    const history = (await asm.get(`/audit?entity=vehicle&id=${vehicle._id}`).expect(200)).body as Array<{
      action: string;
      after: { inspectionDefects?: unknown };
    }>;
    expect(history.find((e) => e.action === 'VehicleInspected')?.after.inspectionDefects).toEqual({
      brakes: 'Front pads worn through',
    });
    expect((await asm.post(`/vehicles/${vehicle._id}/approve`).expect(422)).body.code).toBe(
      'VEHICLE_INSPECTION_FAILED',
    );
    // Duties: an inspector never approves, an approver never inspects (403, nothing written).
    expect((await as(b.inspectorKey).post(`/vehicles/${vehicle._id}/approve`).expect(403)).body.code).toBe(
      'DUTY_NOT_ALLOWED',
    );
    expect(
      (await asm.post(`/vehicles/${vehicle._id}/inspect`, { inspectionChecklist: PASSED }).expect(403)).body.code,
    ).toBe('DUTY_NOT_ALLOWED');
    await unchanged(`/vehicles/${vehicle._id}`, b.assemblyKey, vehicle);
    expect(
      (
        await as(b.inspectorKey)
          .post(`/vehicles/${vehicle._id}/inspect`, { inspectionChecklist: { ...PASSED, wipers: true } })
          .expect(400)
      ).body.code,
    ).toBe('INVALID_CHECKLIST');

    vehicle = (
      await as(b.inspectorKey).post(`/vehicles/${vehicle._id}/inspect`, { inspectionChecklist: PASSED }).expect(200)
    ).body;
    // The notes went with the failed inspection.
    expect(vehicle.inspectionDefects).toBeUndefined();
    expect((await asm.post(`/vehicles/${vehicle._id}/approve`).set('If-Match', '0').expect(409)).body.code).toBe(
      'CONCURRENT_UPDATE',
    );
    vehicle = (await asm.post(`/vehicles/${vehicle._id}/approve`).set('If-Match', String(vehicle.__v)).expect(200))
      .body;
    expect(vehicle).toMatchObject({ approved: true, approvedBy: b.approver._id, inspectedBy: b.inspector._id, __v: 3 });
    expect((await asm.post(`/vehicles/${vehicle._id}/approve`).expect(409)).body.code).toBe('VEHICLE_ALREADY_APPROVED');

    const driver = (
      await b
        .http()
        .post('/drivers/add')
        .send({
          name: 'Esi Quaye',
          phone: '0209876543',
          email: 'esi@example.com',
          license: 'DL-0002-2021',
          licenseClass: 'B',
          licenseExpiry: future(400),
          licenseIssueDate: '2021-01-10',
          idType: 'ghana_card',
          idNumber: 'GHA-700000002-2',
          gender: 'female',
          assembly: b.assembly._id,
        })
        .expect(201)
    ).body.payload;
    const refusedLink = await asm.post(`/vehicles/${vehicle._id}/link`, { driver: driver._id }).expect(422);
    expect(refusedLink.body.code).toBe('DRIVER_NOT_ELIGIBLE');
    await unchanged(`/vehicles/${vehicle._id}`, b.assemblyKey, vehicle);
    await b
      .http()
      .post(`/drivers/${driver._id}/activate`)
      .send({ activationKey: await smsKeyOf(driver.phone) })
      .expect(200);
    await asm.post(`/drivers/${driver._id}/approve`, { approvalChecklist: CHECKS }).expect(200);
    vehicle = (
      await asm
        .post(`/vehicles/${vehicle._id}/link`, {
          driver: driver._id,
          station: b.station._id,
          transportUnion: b.union._id,
        })
        .expect(200)
    ).body;
    expect(vehicle).toMatchObject({
      driver: driver._id,
      station: { _id: b.station._id },
      transportUnion: { _id: b.union._id },
    });
    vehicle = (await asm.post(`/vehicles/${vehicle._id}/link`, { station: null }).expect(200)).body;
    expect(vehicle.station).toBeNull();
    expect(
      (await asm.post(`/vehicles/${vehicle._id}/link`, { station: '65a0000000000000000000ff' }).expect(422)).body.code,
    ).toBe('STATION_NOT_FOUND');

    const audit = (await as(ADMIN_KEY).get(`/audit?entity=vehicle&id=${vehicle._id}`).expect(200)).body;
    expect(audit.map((e: { action: string }) => e.action)).toEqual([
      'VehicleRegistered',
      'VehicleInspected',
      'VehicleInspected',
      'VehicleApproved',
      'VehicleDriverLinked',
      'VehicleStationLinked',
      'VehicleTransportUnionLinked',
      'VehicleStationLinked',
    ]);
    expect(audit[3]).toMatchObject({
      actor: { role: 'assembly', id: b.approver._id },
      before: { approved: false },
      after: { approved: true },
    });
    // Assembly staff read their own records' history (the dashboard shows it); the log as a whole stays an admin's.
    const own = await as(b.assemblyKey).get(`/audit?entity=vehicle&id=${vehicle._id}`).expect(200);
    expect(own.body).toEqual(audit);
    await as(b.assemblyKey).get('/audit/entries').expect(403);
  });

  it('driver registration -> activation (a wrong key and its delay, a new key by SMS) -> approval -> online -> busy', async () => {
    const asm = as(b.assemblyKey);
    const platform = as(b.platformKey);
    const reg = (
      await b
        .http()
        .post('/drivers/add')
        .send({
          name: 'Kojo Antwi',
          phone: '0244555666',
          email: 'kojo@example.com',
          license: 'DL-0001-2020',
          licenseClass: 'B',
          licenseExpiry: future(400),
          licenseIssueDate: '2020-01-10',
          idType: 'ghana_card',
          idNumber: 'GHA-700000001-1',
          gender: 'male',
          assembly: b.assembly._id,
        })
        .expect(201)
    ).body.payload;
    reg.activationKey = await smsKeyOf(reg.phone);
    const wrong = reg.activationKey === '000000' ? '111111' : '000000';
    const refused = await b.http().post(`/drivers/${reg._id}/activate`).send({ activationKey: wrong }).expect(422);
    expect(refused.body).toMatchObject({ code: 'DRIVER_ACTIVATION_KEY_INVALID' });
    expect(refused.body.detail).toMatch(/next try is taken in 1 s/);
    // Right after a wrong key, even the right one waits (429 with Retry-After; the try counts for nothing).
    const early = await b
      .http()
      .post(`/drivers/${reg._id}/activate`)
      .send({ activationKey: reg.activationKey })
      .expect(429);
    expect(Number(early.headers['retry-after'])).toBe(1);
    const before = (await asm.get(`/drivers/${reg._id}`).expect(200)).body;
    expect(before).toMatchObject({ verified: false });
    expect(before).not.toHaveProperty('activationKey');

    // Staff ask for a new key: it goes to the driver's phone (the local outbox here), never into the response. (One
    // activation key per number per ACTIVATION_SMS_WINDOW_MINUTES: the window is opened again here, as time would.)
    await running.database.prisma.rateLimit.deleteMany({ where: { key: { startsWith: 'activation-sms-phone:' } } });
    const reissued = (await asm.post(`/drivers/${reg._id}/activation-key`).expect(200)).body;
    expect(reissued).not.toHaveProperty('activationKey');
    const [message] = await running.database.prisma.outboxMessage.findMany({
      where: { to: '+233244555666' },
      orderBy: { id: 'desc' },
      take: 1,
    });
    const key = /(\d{6})/.exec(message.text)?.[1];
    expect(JSON.stringify(reissued)).not.toContain(key);
    expect(
      (await b.http().post(`/drivers/${reg._id}/activate`).send({ activationKey: key }).expect(200)).body,
    ).toMatchObject({ verified: true });
    expect(
      (await b.http().post(`/drivers/${reg._id}/activate`).send({ activationKey: key }).expect(409)).body.code,
    ).toBe('DRIVER_ALREADY_ACTIVATED');

    expect((await platform.post(`/drivers/${reg._id}/status`, { online: true }).expect(422)).body.code).toBe(
      'DRIVER_NOT_APPROVED',
    );
    const failed = await asm
      .post(`/drivers/${reg._id}/approve`, { approvalChecklist: { ...CHECKS, criminalRecord: false } })
      .expect(422);
    expect(failed.body.code).toBe('DRIVER_CHECKLIST_FAILED');
    const approved = (await asm.post(`/drivers/${reg._id}/approve`, { approvalChecklist: CHECKS }).expect(200)).body;
    expect(approved).toMatchObject({ approved: true, approvalChecklist: CHECKS });
    expect((await platform.post(`/drivers/${reg._id}/status`, { busy: true }).expect(422)).body.code).toBe(
      'DRIVER_OFFLINE',
    );
    expect((await platform.post(`/drivers/${reg._id}/status`, { online: true }).expect(200)).body).toMatchObject({
      online: true,
      busy: false,
    });
    const busy = (await platform.post(`/drivers/${reg._id}/status`, { busy: true }).expect(200)).body;
    expect(busy).toMatchObject({ online: true, busy: true });
    expect((await platform.post(`/drivers/${reg._id}/status`, { online: false }).expect(422)).body.code).toBe(
      'DRIVER_BUSY',
    );
    const same = (await platform.post(`/drivers/${reg._id}/status`, { busy: true }).expect(200)).body;
    expect(same.__v).toBe(busy.__v); // reporting the current state writes nothing
    await asm.post(`/drivers/${reg._id}/status`, { online: false }).expect(403);

    const revoked = (await asm.post(`/drivers/${reg._id}/revoke`, { reason: 'Complaints under review' }).expect(200))
      .body;
    expect(revoked).toMatchObject({ approved: false, online: false, busy: false });
    const audit = (await as(ADMIN_KEY).get(`/audit?entity=driver&id=${reg._id}`).expect(200)).body;
    expect(JSON.stringify(audit)).not.toMatch(/activationKeyHash|scrypt\$/);
  });

  it('trip add -> end -> checkout -> settle -> refund, each refusal with its code and the trip unchanged', async () => {
    const asm = as(b.assemblyKey);
    const platform = as(b.platformKey);
    const owner = (
      await asm
        .post('/vehicles/owner/add', {
          name: 'Ama Owusu',
          phone: '0201234567',
          email: 'ama@example.com',
          idType: 'passport',
          idNumber: 'G1234567',
        })
        .expect(201)
    ).body;
    const vehicle = (
      await asm
        .post('/vehicles/add', {
          ownerID: owner._id,
          registrationNumber: 'AS 2222-26',
          capacity: 4,
          roadWorthyExpiryDate: future(200),
          insuranceExpiryDate: future(300),
        })
        .expect(201)
    ).body;
    await as(b.inspectorKey).post(`/vehicles/${vehicle._id}/inspect`, { inspectionChecklist: PASSED }).expect(200);
    await asm.post(`/vehicles/${vehicle._id}/approve`).expect(200);
    const driver = (
      await b
        .http()
        .post('/drivers/add')
        .send({
          name: 'Yaw Darko',
          phone: '0551112223',
          email: 'yaw@example.com',
          license: 'DL-0003-2022',
          licenseClass: 'B',
          licenseExpiry: future(400),
          licenseIssueDate: '2022-01-10',
          idType: 'ghana_card',
          idNumber: 'GHA-3',
          gender: 'male',
          assembly: b.assembly._id,
        })
        .expect(201)
    ).body.payload;
    const tripBody = {
      ticketNumber: 'TKT-9001',
      serviceID: 'SRV-9001',
      serviceType: 'taxi',
      driver: driver._id,
      vehicle: vehicle._id,
      pricing: { type: 'standard', pricePerKm: 2.5, pricePerMinute: 0.3 },
      passengers: 2,
      user: 'passenger-1',
      pickupLocation: point(-0.2166, 5.556),
      serviceDestination: point(-0.2052, 5.5701),
      estimatedDistance: 8,
      estimatedMinutes: 20,
      paymentMethod: 'momo',
    };
    expect((await platform.post('/trips/intracity/add', tripBody).expect(422)).body.code).toBe(
      'TRIP_DRIVER_NOT_APPROVED',
    );
    await b
      .http()
      .post(`/drivers/${driver._id}/activate`)
      .send({ activationKey: await smsKeyOf(driver.phone) })
      .expect(200);
    await asm.post(`/drivers/${driver._id}/approve`, { approvalChecklist: CHECKS }).expect(200);
    expect((await platform.post('/trips/intracity/add', tripBody).expect(422)).body.code).toBe(
      'TRIP_DRIVER_NOT_LINKED',
    );
    await asm.post(`/vehicles/${vehicle._id}/link`, { driver: driver._id }).expect(200);

    let trip = (await platform.post('/trips/intracity/add', tripBody).expect(201)).body;
    expect(trip).toMatchObject({
      estimatedPrice: 26,
      settled: false,
      service: {
        ended: false,
        passengers: 2,
        driver: { _id: driver._id, name: 'Yaw Darko' },
        vehicle: { _id: vehicle._id, registrationNumber: 'AS 2222-26' },
        pricing: { pricePerKm: 2.5 },
      },
    });
    expect((await platform.post('/trips/intracity/add', tripBody).expect(409)).body.code).toBe('TRIP_TICKET_TAKEN');
    expect(
      (await platform.post(`/trips/${trip._id}/checkout`, { droppedOffLocation: point(-0.2, 5.5) }).expect(422)).body
        .code,
    ).toBe('TRIP_NOT_ENDED');
    expect(
      (await platform.post(`/trips/${trip._id}/settle`, { amount: 1, paymentMethod: 'cash' }).expect(422)).body.code,
    ).toBe('TRIP_NOT_ENDED');
    await unchanged(`/trips/${trip._id}`, b.platformKey, trip);

    trip = (
      await platform.post(`/trips/${trip._id}/end`, { finalDistance: 10, durationMinutes: 25, discount: 1 }).expect(200)
    ).body;
    expect(trip).toMatchObject({
      finalPrice: 32.5,
      discount: 1,
      finalDistance: 10,
      service: { ended: true, amount: 32.5 },
    });
    expect(
      (await platform.post(`/trips/${trip._id}/end`, { finalDistance: 1, durationMinutes: 1 }).expect(409)).body.code,
    ).toBe('TRIP_ALREADY_ENDED');
    trip = (
      await platform.post(`/trips/${trip._id}/checkout`, { droppedOffLocation: point(-0.2052, 5.5701) }).expect(200)
    ).body;
    expect(trip).toMatchObject({ checkedOut: true, droppedOffLocation: point(-0.2052, 5.5701) });
    const mismatch = await platform
      .post(`/trips/${trip._id}/settle`, { amount: 30, paymentMethod: 'momo' })
      .expect(422);
    expect(mismatch.body).toMatchObject({ code: 'TRIP_SETTLEMENT_MISMATCH' });
    expect(mismatch.body.detail).toContain('31.50');
    await unchanged(`/trips/${trip._id}`, b.platformKey, trip);
    expect((await platform.post(`/trips/${trip._id}/refund`, { amount: 1 }).expect(422)).body.code).toBe(
      'TRIP_NOT_SETTLED',
    );
    trip = (await platform.post(`/trips/${trip._id}/settle`, { amount: 31.5, paymentMethod: 'momo' }).expect(200)).body;
    expect(trip).toMatchObject({ settled: true, settledAmount: 31.5, paymentMethod: 'momo' });
    expect((await platform.post(`/trips/${trip._id}/refund`, { amount: 40 }).expect(422)).body.code).toBe(
      'TRIP_REFUND_TOO_LARGE',
    );
    trip = (await platform.post(`/trips/${trip._id}/refund`, { amount: 10.25 }).expect(200)).body;
    expect(trip).toMatchObject({ refunded: true, refundAmount: 10.25 });
    await asm.post(`/trips/${trip._id}/refund`, { amount: 1 }).expect(403);
  });

  it('lists expired and expiring certificates around the boundaries of the window', async () => {
    const asm = as(b.assemblyKey);
    const owner = (
      await asm
        .post('/vehicles/owner/add', {
          name: 'Compliance Owner',
          phone: '0244999000',
          email: 'compliance@example.com',
          idType: 'ghana_card',
          idNumber: 'GHA-C-1',
        })
        .expect(201)
    ).body;
    const now = new Date();
    const tz = 'Africa/Accra';
    const endToday = new Date(endOfDayAfter(now, 0, tz).getTime() - 1000);
    const endOfDay10 = new Date(endOfDayAfter(now, 10, tz).getTime() - 1000);
    const dayAfter = new Date(endOfDayAfter(now, 10, tz).getTime() + 3_600_000);
    const expired = new Date(now.getTime() - 86_400_000);
    const add = (reg: string, roadWorthy: Date) =>
      asm
        .post('/vehicles/add', {
          ownerID: owner._id,
          registrationNumber: reg,
          roadWorthyExpiryDate: roadWorthy.toISOString(),
          insuranceExpiryDate: future(300),
        })
        .expect(201);
    await add('CP 1-26', endToday);
    await add('CP 2-26', endOfDay10);
    await add('CP 3-26', dayAfter);
    await add('CP 4-26', expired);
    const list = async (within: number) => {
      const body = (await asm.get(`/vehicles/compliance?within=${within}&limit=500`).expect(200)).body as Array<{
        vehicle: { registrationNumber: string };
        reasons: Array<{ code: string }>;
      }>;
      return Object.fromEntries(
        body
          .filter((e) => e.vehicle.registrationNumber.startsWith('CP'))
          .map((e) => [e.vehicle.registrationNumber, e.reasons.map((r) => r.code)]),
      );
    };
    const ten = await list(10);
    expect(Object.keys(ten).sort()).toEqual(['CP 1-26', 'CP 2-26', 'CP 4-26']);
    expect(ten['CP 1-26']).toEqual(['NOT_APPROVED', 'ROADWORTHY_EXPIRING']);
    expect(ten['CP 4-26']).toEqual(['NOT_APPROVED', 'ROADWORTHY_EXPIRED']);
    expect(Object.keys(await list(0)).sort()).toEqual(['CP 1-26', 'CP 4-26']);
    expect(Object.keys(await list(11)).sort()).toEqual(['CP 1-26', 'CP 2-26', 'CP 3-26', 'CP 4-26']);
    await asm.get('/vehicles/compliance?within=-1').expect(400);
    await as(b.platformKey).get('/vehicles/compliance').expect(403);
  });

  it('lets assembly admins add users to their own assembly only, and revoked keys stop at once', async () => {
    // Managing users is an assembly admin's duty: the approver may not (403 DUTY_NOT_ALLOWED).
    const refused = await as(b.assemblyKey)
      .post('/assembly/users/add', {
        assembly: b.assembly._id,
        name: 'Kweku Inspector',
        email: 'kweku@kma.gov.gh',
        phone: '0244000222',
        role: 'inspector',
      })
      .expect(403);
    expect(refused.body.code).toBe('DUTY_NOT_ALLOWED');
    const asm = as(b.assemblyAdminKey);
    const other = (
      await as(ADMIN_KEY)
        .post('/assembly/add', {
          name: 'Ejisu Municipal Assembly',
          region: b.assembly.region._id,
          digitalAddress: 'AE-001-0001',
          type: 'municipal',
        })
        .expect(201)
    ).body;
    await asm
      .post('/assembly/users/add', {
        assembly: b.assembly._id,
        name: 'Kweku Inspector',
        email: 'kweku@kma.gov.gh',
        phone: '0244000222',
        role: 'inspector',
      })
      .expect(201);
    expect(
      (
        await asm
          .post('/assembly/users/add', {
            assembly: other._id,
            name: 'Nope',
            email: 'nope@ejisu.gov.gh',
            phone: '0244000999',
            role: 'inspector',
          })
          .expect(422)
      ).body.code,
    ).toBe('OTHER_ASSEMBLY');
    // Another assembly's staff are not an assembly key's business: 404, like an unknown user.
    const stranger = (
      await as(ADMIN_KEY)
        .post('/assembly/users/add', {
          assembly: other._id,
          name: 'Ejisu Inspector',
          email: 'inspector@ejisu.gov.gh',
          phone: '0244000998',
          role: 'inspector',
        })
        .expect(201)
    ).body;
    await asm.get(`/assembly/users/${stranger._id}`).expect(404);
    await asm.get(`/assembly/users/${b.inspector._id}`).expect(200);
    await as(ADMIN_KEY).get(`/assembly/users/${stranger._id}`).expect(200);
    await as(b.assemblyKey).post('/stations/add', {}).expect(403);
    const keys = (await as(ADMIN_KEY).get('/admin/keys').expect(200)).body;
    expect(JSON.stringify(keys)).not.toContain(b.assemblyKey);
    const merchant = (await as(ADMIN_KEY).post('/admin/merchants/add', { name: 'Kumasi Rides Ltd' }).expect(201)).body;
    expect(merchant.signingSecret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const temp = (await as(ADMIN_KEY).post('/admin/keys', { role: 'merchant', principal: merchant._id }).expect(201))
      .body;
    await as(temp.key).get('/assembly/all').expect(200);
    await as(ADMIN_KEY).post(`/admin/keys/${temp._id}/revoke`).expect(200);
    await as(temp.key).get('/assembly/all').expect(401);
    // Issue and revocation are audited with the admin who did them, never with the key.
    const trail = (await as(ADMIN_KEY).get(`/audit?entity=apiKey&id=${temp._id}`).expect(200)).body;
    expect(trail.map((e: { action: string; actor: { role: string } }) => [e.action, e.actor.role])).toEqual([
      ['ApiKeyIssued', 'admin'],
      ['ApiKeyRevoked', 'admin'],
    ]);
    expect(JSON.stringify(trail)).not.toContain(temp.key);

    // A key may expire; its last use is recorded (at most once an hour, not once per request).
    const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
    const expiring = (
      await as(ADMIN_KEY).post('/admin/keys', { role: 'merchant', principal: merchant._id, expiresAt }).expect(201)
    ).body;
    expect(expiring.expiresAt).toBe(expiresAt);
    await as(expiring.key).get('/assembly/all').expect(200);
    const firstUse = (await as(ADMIN_KEY).get('/admin/keys').expect(200)).body.find(
      (k: { _id: string }) => k._id === expiring._id,
    );
    expect(firstUse).toMatchObject({ expiresAt, lastUsedAt: expect.any(String) });
    await as(expiring.key).get('/assembly/all').expect(200);
    const row = await running.database.prisma.apiKey.findUniqueOrThrow({ where: { id: expiring._id } });
    expect(row.lastUsedAt?.toISOString()).toBe(firstUse.lastUsedAt);
    await running.database.prisma.apiKey.update({
      where: { id: expiring._id },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    // Changed outside the API (as an operator's SQL would): an instance that kept the key hears of it within a second.
    await eventually(() => as(expiring.key).get('/assembly/all').expect(401), 1000, 10);
    await as(ADMIN_KEY)
      .post('/admin/keys', { role: 'merchant', principal: merchant._id, expiresAt: '2020-01-01T00:00:00.000Z' })
      .expect(400);
  });

  it('records documents a vehicle was registered without, then approves it; refuses an earlier or past renewal', async () => {
    const owner = (
      await as(b.assemblyKey)
        .post('/vehicles/owner/add', {
          name: 'Akosua Renewal',
          phone: '0244777000',
          email: 'akosua.renewal@example.com',
          idType: 'ghana_card',
          idNumber: 'GHA-700000077-7',
        })
        .expect(201)
    ).body;
    let vehicle = (
      await as(b.assemblyKey)
        .post('/vehicles/add', { ownerID: owner._id, registrationNumber: 'AS 4040-26' })
        .expect(201)
    ).body;
    vehicle = (
      await as(b.inspectorKey).post(`/vehicles/${vehicle._id}/inspect`, { inspectionChecklist: PASSED }).expect(200)
    ).body;
    expect((await as(b.assemblyKey).post(`/vehicles/${vehicle._id}/approve`).expect(422)).body.code).toBe(
      'VEHICLE_ROADWORTHY_MISSING',
    );
    // Nothing to renew: 400; neither a merchant nor the platform may record documents.
    await as(b.inspectorKey).post(`/vehicles/${vehicle._id}/renew`, {}).expect(400);
    await as(b.platformKey)
      .post(`/vehicles/${vehicle._id}/renew`, { insuranceExpiryDate: future(300) })
      .expect(403);
    vehicle = (
      await as(b.inspectorKey)
        .post(`/vehicles/${vehicle._id}/renew`, { roadWorthyExpiryDate: future(200), insuranceExpiryDate: future(300) })
        .set('If-Match', String(vehicle.__v))
        .expect(200)
    ).body;
    const days = (iso: string) => (new Date(iso).getTime() - Date.now()) / 86_400_000;
    expect(days(vehicle.roadWorthyExpiryDate)).toBeCloseTo(200, 1);
    expect(days(vehicle.insuranceExpiryDate)).toBeCloseTo(300, 1);
    expect(vehicle.__v).toBe(2);
    vehicle = (await as(b.assemblyKey).post(`/vehicles/${vehicle._id}/approve`).expect(200)).body;
    expect(vehicle).toMatchObject({ approved: true });

    // An earlier expiry, or one already past, is refused with its code and changes nothing.
    const earlier = await as(b.assemblyKey)
      .post(`/vehicles/${vehicle._id}/renew`, { insuranceExpiryDate: future(100) })
      .expect(422);
    expect(earlier.body).toMatchObject({ code: 'RENEWAL_NOT_LATER', errors: [{ field: 'insuranceExpiryDate' }] });
    const past = await as(b.assemblyKey)
      .post(`/vehicles/${vehicle._id}/renew`, { roadWorthyExpiryDate: '2020-01-01' })
      .expect(422);
    expect(past.body.code).toBe('RENEWAL_EXPIRED');
    // Both or nothing: a valid roadworthy date does not land when the insurance date beside it is refused.
    await as(b.assemblyKey)
      .post(`/vehicles/${vehicle._id}/renew`, { roadWorthyExpiryDate: future(500), insuranceExpiryDate: future(10) })
      .expect(422);
    await unchanged(`/vehicles/${vehicle._id}`, b.assemblyKey, vehicle);
    // A later one lands, and the audit log keeps what it replaced.
    const renewed = (
      await as(b.assemblyKey)
        .post(`/vehicles/${vehicle._id}/renew`, { insuranceExpiryDate: future(700) })
        .expect(200)
    ).body;
    expect(new Date(renewed.insuranceExpiryDate).getTime()).toBeGreaterThan(
      new Date(vehicle.insuranceExpiryDate).getTime(),
    );
    const audit = (await as(ADMIN_KEY).get(`/audit?entity=vehicle&id=${vehicle._id}`).expect(200)).body;
    const renewals = audit.filter((e: { action: string }) => e.action === 'VehicleInsuranceRenewed');
    expect(renewals).toHaveLength(2);
    expect(renewals.at(-1)).toMatchObject({
      actor: { role: 'assembly', id: b.approver._id },
      before: { insuranceExpiryDate: vehicle.insuranceExpiryDate },
      after: { insuranceExpiryDate: renewed.insuranceExpiryDate },
    });
  });

  it('corrects records with If-Match required, audits only the changed fields, and applies the rule per field', async () => {
    const asm = as(b.assemblyKey);
    const owner = (
      await asm
        .post('/vehicles/owner/add', {
          name: 'Kwesi Corection',
          phone: '0244777222',
          email: 'kwesi.correction@example.com',
          idType: 'ghana_card',
          idNumber: 'GHA-700000088-8',
        })
        .expect(201)
    ).body;
    const taken = (
      await asm.post('/vehicles/add', { ownerID: owner._id, registrationNumber: 'AS 6060-26' }).expect(201)
    ).body;
    let vehicle = (
      await asm
        .post('/vehicles/add', {
          ownerID: owner._id,
          registrationNumber: 'AS 5050-26',
          make: 'Toyata',
          color: '#ff0000',
          vin: '1HGCM82633A004352',
          roadWorthyExpiryDate: future(200),
          insuranceExpiryDate: future(300),
        })
        .expect(201)
    ).body;
    const path = `/vehicles/${vehicle._id}/correct`;

    // Blind, stale, empty or by the wrong role: refused, nothing written.
    expect((await asm.post(path, { make: 'Toyota' }).expect(428)).body.code).toBe('IF_MATCH_REQUIRED');
    expect((await asm.post(path, { make: 'Toyota' }).set('If-Match', '5').expect(409)).body.code).toBe(
      'CONCURRENT_UPDATE',
    );
    await asm.post(path, {}).set('If-Match', '0').expect(400);
    await asm.post(path, { ownerID: owner._id }).set('If-Match', '0').expect(400);
    await as(b.platformKey).post(path, { make: 'Toyota' }).set('If-Match', '0').expect(403);
    await unchanged(`/vehicles/${vehicle._id}`, b.assemblyKey, vehicle);

    vehicle = (
      await asm.post(path, { make: 'Toyota', color: '#FF0000', model: undefined }).set('If-Match', '0').expect(200)
    ).body;
    expect(vehicle).toMatchObject({ make: 'Toyota', color: '#FF0000', __v: 1 });
    const audit = (await as(ADMIN_KEY).get(`/audit?entity=vehicle&id=${vehicle._id}`).expect(200)).body;
    const corrected = audit.find((e: { action: string }) => e.action === 'VehicleCorrected');
    expect(corrected).toMatchObject({ actor: { role: 'assembly', id: b.approver._id } });
    expect([corrected.before, corrected.after]).toEqual([{ make: 'Toyata' }, { make: 'Toyota' }]);
    // A plate another vehicle has: 409, nothing written.
    expect(
      (await asm.post(path, { registrationNumber: taken.registrationNumber }).set('If-Match', '1').expect(409)).body
        .code,
    ).toBe('VEHICLE_REGISTRATION_TAKEN');

    // Once approved: the VIN is refused; a new plate sends the vehicle back for approval.
    vehicle = (
      await as(b.inspectorKey).post(`/vehicles/${vehicle._id}/inspect`, { inspectionChecklist: PASSED }).expect(200)
    ).body;
    vehicle = (await asm.post(`/vehicles/${vehicle._id}/approve`).expect(200)).body;
    const vin = await asm.post(path, { vin: '2HGCM82633A004352' }).set('If-Match', String(vehicle.__v)).expect(422);
    expect(vin.body).toMatchObject({ code: 'CORRECTION_NOT_ALLOWED', errors: [{ field: 'vin' }] });
    vehicle = (
      await as(b.inspectorKey)
        .post(path, { registrationNumber: 'as 5051-26' })
        .set('If-Match', String(vehicle.__v))
        .expect(200)
    ).body;
    expect(vehicle).toMatchObject({ registrationNumber: 'AS 5051-26', approved: false, inspected: true });

    // Owners: contact details always, the identity document only until verification.
    const ownerPath = `/vehicles/owner/${owner._id}/correct`;
    let corrected_owner = (await asm.post(ownerPath, { name: 'Kwesi Correction' }).set('If-Match', '0').expect(200))
      .body;
    expect(corrected_owner).toMatchObject({ name: 'Kwesi Correction', __v: 1 });
    await asm.post(`/vehicles/owner/${owner._id}/verify`).expect(200);
    const idRefused = await asm.post(ownerPath, { idNumber: 'GHA-700000088-9' }).set('If-Match', '2').expect(422);
    expect(idRefused.body.code).toBe('CORRECTION_NOT_ALLOWED');
    corrected_owner = (await asm.post(ownerPath, { phone: '0501112222' }).set('If-Match', '2').expect(200)).body;
    expect(corrected_owner).toMatchObject({ phone: '+233501112222', verified: true });
    const ownerAudit = (await as(ADMIN_KEY).get(`/audit?entity=owner&id=${owner._id}`).expect(200)).body;
    expect(
      ownerAudit
        .filter((e: { action: string }) => e.action === 'OwnerCorrected')
        .map((e: { after: object }) => e.after),
    ).toEqual([{ name: 'Kwesi Correction' }, { phone: '+233501112222' }]);
  });

  it("records a driver's renewed licence, refusing one that is not later", async () => {
    const driver = (
      await b
        .http()
        .post('/drivers/add')
        .send({
          name: 'Yaa Renewal',
          phone: '0244777111',
          email: 'yaa.renewal@example.com',
          license: 'DL-0077-2021',
          licenseClass: 'B',
          licenseExpiry: future(30),
          licenseIssueDate: '2021-01-10',
          idType: 'ghana_card',
          idNumber: 'GHA-700000078-8',
          gender: 'female',
          assembly: b.assembly._id,
        })
        .expect(201)
    ).body.payload;
    const refused = await as(b.inspectorKey)
      .post(`/drivers/${driver._id}/renew`, { licenseExpiry: future(20) })
      .expect(422);
    expect(refused.body.code).toBe('RENEWAL_NOT_LATER');
    await as(b.inspectorKey).post(`/drivers/${driver._id}/renew`, {}).expect(400);
    const renewed = (
      await as(b.inspectorKey)
        .post(`/drivers/${driver._id}/renew`, { licenseExpiry: future(1000) })
        .expect(200)
    ).body;
    expect(renewed).toMatchObject({ _id: driver._id, __v: driver.__v + 1 });
    expect(new Date(renewed.licenseExpiry).getTime()).toBeGreaterThan(Date.now() + 999 * 86_400_000);

    // Corrections: plain while unapproved; once approved the identity document is refused and a corrected licence
    // sends the driver back for approval.
    const path = `/drivers/${driver._id}/correct`;
    const named = (await as(b.inspectorKey).post(path, { name: 'Yaa Renewal-Mensah' }).set('If-Match', '1').expect(200))
      .body;
    expect(named).toMatchObject({ name: 'Yaa Renewal-Mensah', __v: 2 });
    const approved = (
      await as(b.assemblyKey).post(`/drivers/${driver._id}/approve`, { approvalChecklist: CHECKS }).expect(200)
    ).body;
    expect(approved).toMatchObject({ approved: true, __v: 3 });
    const identity = await as(b.assemblyKey)
      .post(path, { idNumber: 'GHA-700000078-9' })
      .set('If-Match', '3')
      .expect(422);
    expect(identity.body).toMatchObject({ code: 'CORRECTION_NOT_ALLOWED', errors: [{ field: 'idNumber' }] });
    const relicensed = (
      await as(b.assemblyKey).post(path, { license: 'DL-0078-2021' }).set('If-Match', '3').expect(200)
    ).body;
    expect(relicensed).toMatchObject({ license: 'DL-0078-2021', approved: false, online: false });
    const audit = (await as(ADMIN_KEY).get(`/audit?entity=driver&id=${driver._id}`).expect(200)).body;
    const entries = audit.filter((e: { action: string }) =>
      ['DriverCorrected', 'DriverApprovalWithdrawn'].includes(e.action),
    );
    expect(entries.map((e: { action: string; after: object }) => [e.action, Object.keys(e.after).sort()])).toEqual([
      ['DriverCorrected', ['name']],
      ['DriverCorrected', ['approved', 'approvedBy', 'dateApproved', 'license']],
      ['DriverApprovalWithdrawn', ['approved', 'approvedBy', 'dateApproved', 'license']],
    ]);
  });
});

describeOnPostgres('twenty simultaneous approvals of one vehicle', () => {
  const { running } = appOnTier('postgresql', { config: { databasePoolSize: 10 } });
  let b: Awaited<ReturnType<typeof bootstrap>>;

  beforeAll(async () => {
    b = await bootstrap(running);
  });

  it('gives exactly one 200 and nineteen 409s, with one audit entry', async () => {
    const asm = (path: string, body?: object) =>
      b
        .http()
        .post(path)
        .set('Authorization', b.assemblyKey)
        .send(body ?? {});
    const owner = (
      await asm('/vehicles/owner/add', {
        name: 'Race Owner',
        phone: '0244777000',
        email: 'race@example.com',
        idType: 'ghana_card',
        idNumber: 'GHA-R-1',
      }).expect(201)
    ).body;
    const vehicle = (
      await asm('/vehicles/add', {
        ownerID: owner._id,
        registrationNumber: 'RC 2020-26',
        roadWorthyExpiryDate: future(200),
        insuranceExpiryDate: future(300),
      }).expect(201)
    ).body;
    await b
      .http()
      .post(`/vehicles/${vehicle._id}/inspect`)
      .set('Authorization', b.inspectorKey)
      .send({ inspectionChecklist: PASSED })
      .expect(200);
    const responses = await Promise.all(Array.from({ length: 20 }, () => asm(`/vehicles/${vehicle._id}/approve`)));
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses).toEqual([200, ...Array(19).fill(409)]);
    for (const r of responses.filter((x) => x.status === 409))
      expect(['CONCURRENT_UPDATE', 'VEHICLE_ALREADY_APPROVED']).toContain(r.body.code);
    const audit = (
      await b.http().get(`/audit?entity=vehicle&id=${vehicle._id}`).set('Authorization', ADMIN_KEY).expect(200)
    ).body;
    expect(audit.filter((e: { action: string }) => e.action === 'VehicleApproved')).toHaveLength(1);
    const stored = (await b.http().get(`/vehicles/${vehicle._id}`).set('Authorization', b.assemblyKey).expect(200))
      .body;
    expect(stored).toMatchObject({ approved: true, __v: 2 });
  });

  it('lets exactly one of several simultaneous driver approvals win', async () => {
    const reg = (
      await b
        .http()
        .post('/drivers/add')
        .send({
          name: 'Race Driver',
          phone: '0244777111',
          email: 'race.driver@example.com',
          license: 'DL-0007-2020',
          licenseClass: 'B',
          licenseExpiry: future(400),
          licenseIssueDate: '2020-01-10',
          idType: 'ghana_card',
          idNumber: 'GHA-7',
          gender: 'male',
          assembly: b.assembly._id,
        })
        .expect(201)
    ).body.payload;
    const responses = await Promise.all(
      Array.from({ length: 10 }, () =>
        b
          .http()
          .post(`/drivers/${reg._id}/approve`)
          .set('Authorization', b.assemblyKey)
          .send({ approvalChecklist: CHECKS }),
      ),
    );
    expect(responses.map((r) => r.status).sort()).toEqual([200, ...Array(9).fill(409)]);
    const audit = (await b.http().get(`/audit?entity=driver&id=${reg._id}`).set('Authorization', ADMIN_KEY).expect(200))
      .body;
    expect(audit.filter((e: { action: string }) => e.action === 'DriverApproved')).toHaveLength(1);
  });
});
