import { allPassed } from '@transport/domain/testing';
import { appOnTier } from './support/app-on-tier';
import { jpeg } from './support/images';
import { describeOnEachTier } from './support/test-app';

// Issue 46, item 6: signs of fraud for the assembly admin. Each kind is raised by the real flow over HTTP (an
// inspection recorded, a photo stored, a sticker printed), never refuses the work, and is cleared with a reason
// (audited); the review is the assembly admin's (their assembly's) and the national admin's (all).

const MINUTE = 60_000;
const DAY = 86_400_000;
const future = (days: number) => new Date(Date.now() + days * DAY).toISOString();
// Inspections are made two days ago onwards, each `minutes` later than the first (the phone's time).
const T = Date.now() - 48 * 60 * MINUTE;
const madeAt = (minutes: number) => new Date(T + minutes * MINUTE).toISOString();
const KUMASI = { type: 'Point', coordinates: [-1.6244, 6.6885] };
const CIRCLE = { type: 'Point', coordinates: [-0.2167, 5.5719] };
const FAILING = { ...allPassed(), brakes: false };

interface Flag {
  _id: string;
  kind: string;
  vehicle: string | null;
  inspector: string | null;
  inspectionKey: string | null;
  details: Record<string, unknown>;
  explanation: string;
  cleared: { reason: string; by: string } | null;
  registrationNumber: string | null;
  assembly: string;
}

describeOnEachTier('signs of fraud (issue 46, item 6)', (tier) => {
  const { running, http, fixture: f } = appOnTier(tier, { fixture: true });
  const keys = { admin: '', firstAdmin: '', inspector: '', secondInspector: '', approver: '', enforcer: '' };
  const ids = { inspector: '', secondInspector: '', admin: '' };
  let phone = 244_777_100;
  let plate = 100;
  // Each vehicle's inspections in order of their made-at minutes, spaced unless a test wants them close.
  let minute = 0;

  const staff = async (assembly: string, role: string) => {
    const n = phone++;
    const user = (
      await http()
        .post('/assembly/users/add')
        .set('Authorization', f.keys.admin)
        .send({ assembly, name: `Staff ${n}`, email: `fraud${n}@example.gov.gh`, phone: `0${n}`, role })
        .expect(201)
    ).body._id as string;
    const key = (
      await http()
        .post('/admin/keys')
        .set('Authorization', f.keys.admin)
        .send({ role: 'assembly', principal: user })
        .expect(201)
    ).body.key as string;
    return { id: user, key };
  };
  const vehicle = async () =>
    (
      await http()
        .post('/vehicles/add')
        .set('Authorization', f.keys.admin)
        .send({
          ownerID: f.ids.owners[0],
          assembly: f.ids.otherAssembly,
          registrationNumber: `AS ${plate++}-46`,
          roadWorthyExpiryDate: future(200),
          insuranceExpiryDate: future(300),
        })
        .expect(201)
    ).body._id as string;
  const inspect = (id: string, key: string, body: object, idempotencyKey = `inspection-${id}-${minute}`) =>
    http()
      .post(`/vehicles/${id}/inspect`)
      .set('Authorization', key)
      .set('Idempotency-Key', idempotencyKey)
      .send({ inspectionChecklist: allPassed(), madeAt: madeAt((minute += 20)), ...body });
  const photo = (id: string, inspectionKey: string, bytes: Buffer, key = keys.inspector) =>
    http()
      .post(`/vehicles/${id}/inspection-photos?kind=plate`)
      .set('Authorization', key)
      .set('Idempotency-Key', inspectionKey)
      .set('Content-Type', 'image/jpeg')
      .send(bytes);
  const flags = async (query = '', key = keys.admin) =>
    (await http().get(`/assembly/fraud-flags${query}`).set('Authorization', key).expect(200)).body as Flag[];
  const flagsOf = async (vehicleId: string, kind: string) =>
    (await flags(`?kind=${kind}&limit=500`)).filter((x) => x.vehicle === vehicleId);

  beforeAll(async () => {
    const admin = await staff(f.ids.otherAssembly, 'admin');
    const inspector = await staff(f.ids.otherAssembly, 'inspector');
    const second = await staff(f.ids.otherAssembly, 'inspector');
    Object.assign(keys, {
      admin: admin.key,
      inspector: inspector.key,
      secondInspector: second.key,
      approver: (await staff(f.ids.otherAssembly, 'approver')).key,
      enforcer: (await staff(f.ids.otherAssembly, 'enforcer')).key,
      firstAdmin: (await staff(f.ids.assembly, 'admin')).key,
    });
    Object.assign(ids, { inspector: inspector.id, secondInspector: second.id, admin: admin.id });
  });

  it('flags an inspection recorded sooner than the minimum after the same inspector’s last, and explains it', async () => {
    const [a, b, c] = [await vehicle(), await vehicle(), await vehicle()];
    await inspect(a, keys.inspector, {}).expect(200);
    // Four minutes later, another vehicle: too quick for ten items.
    await inspect(b, keys.inspector, { madeAt: madeAt(minute + 4) }, 'quick-b').expect(200);
    // Another inspector at the same minute is no sign against either.
    await inspect(c, keys.secondInspector, { madeAt: madeAt(minute + 4) }).expect(200);
    const [flag] = await flagsOf(b, 'quick-succession');
    expect(flag).toMatchObject({
      kind: 'quick-succession',
      assembly: f.ids.otherAssembly,
      inspector: ids.inspector,
      inspectionKey: 'quick-b',
      details: { minutes: 4, minMinutes: 10 },
      explanation: 'Inspection recorded 4 minutes after another by the same inspector (the minimum is 10)',
      cleared: null,
    });
    expect(flag.registrationNumber).toMatch(/^AS \d+-46$/);
    expect(await flagsOf(a, 'quick-succession')).toEqual([]);
    expect(await flagsOf(c, 'quick-succession')).toEqual([]);
  });

  it("flags an inspection made far from the vehicle's station, once the admin has set where the station is", async () => {
    const v = await vehicle();
    await http().post(`/vehicles/${v}/link`).set('Authorization', keys.inspector).send({ station: f.ids.station });
    // No station location yet: nothing to measure from.
    await inspect(v, keys.inspector, { madeWhere: KUMASI }).expect(200);
    expect(await flagsOf(v, 'far-from-station')).toEqual([]);
    await http()
      .put(`/assembly/station-locations/${f.ids.station}`)
      .set('Authorization', f.keys.admin)
      .send({ location: CIRCLE })
      .expect(200, { station: f.ids.station, location: CIRCLE });
    await inspect(v, keys.inspector, { madeWhere: CIRCLE }).expect(200);
    expect(await flagsOf(v, 'far-from-station')).toEqual([]);
    await inspect(v, keys.inspector, { madeWhere: KUMASI }).expect(200);
    const [flag] = await flagsOf(v, 'far-from-station');
    expect(flag.details).toMatchObject({ maxKm: 5, station: f.ids.station });
    expect(flag.details.km).toBeGreaterThan(195);
    expect(flag.explanation).toMatch(/^Inspection made \d+\.?\d? km from the vehicle's station \(more than 5 km\)$/);
    const audit = await running.database.prisma.auditEntry.findFirst({
      where: { entityId: f.ids.station, action: 'StationLocationSet' },
    });
    expect(audit?.after).toEqual({ location: CIRCLE });
    // Only the national admin keeps stations.
    await http()
      .put(`/assembly/station-locations/${f.ids.station}`)
      .set('Authorization', keys.admin)
      .send({ location: CIRCLE })
      .expect(403);
  });

  it('flags a photo whose bytes were sent before for another inspection; a replay of the same is no sign', async () => {
    const [a, b] = [await vehicle(), await vehicle()];
    await inspect(a, keys.inspector, {}, 'photo-a').expect(200);
    await inspect(b, keys.inspector, {}, 'photo-b').expect(200);
    const bytes = jpeg({ seed: 46 });
    await photo(a, 'photo-a', bytes).expect(201);
    await photo(a, 'photo-a', bytes).expect(200);
    expect(await flagsOf(a, 'photo-reused')).toEqual([]);
    await photo(b, 'photo-b', bytes).expect(201);
    const [flag] = await flagsOf(b, 'photo-reused');
    expect(flag).toMatchObject({
      inspector: ids.inspector,
      inspectionKey: 'photo-b',
      details: { earlierVehicle: a, earlierInspectionKey: 'photo-a' },
    });
  });

  // Where the assembly requires photos an approval waits for them (inspection-grades.e2e); where it does not, a sticker
  // printed without any is the sign to look at.
  const photosOptional = () =>
    http()
      .put(`/assembly/inspection-settings/${f.ids.otherAssembly}`)
      .set('Authorization', f.keys.admin)
      .send({ daysToFix: 14, appealDays: 15, photosRequired: false })
      .expect(200);

  it('flags a sticker printed for a vehicle whose last inspection has no photo, once per approval', async () => {
    await photosOptional();
    const [bare, evidenced] = [await vehicle(), await vehicle()];
    await inspect(bare, keys.inspector, {}, 'sticker-bare').expect(200);
    await inspect(evidenced, keys.inspector, {}, 'sticker-evidenced').expect(200);
    await photo(evidenced, 'sticker-evidenced', jpeg({ seed: 47 })).expect(201);
    for (const v of [bare, evidenced]) {
      await http().post(`/vehicles/${v}/approve`).set('Authorization', keys.approver).expect(200);
      await http().post(`/vehicles/${v}/certificate`).set('Authorization', keys.approver).expect(200);
    }
    await http().post(`/vehicles/${bare}/certificate`).set('Authorization', keys.approver).expect(200);
    const raised = await flagsOf(bare, 'sticker-without-photos');
    expect(raised).toHaveLength(1);
    expect(raised[0]).toMatchObject({ inspector: ids.inspector, inspectionKey: 'sticker-bare' });
    expect(await flagsOf(evidenced, 'sticker-without-photos')).toEqual([]);
  });

  it("flags an inspector whose pass rate is an outlier against the rest of the assembly's", async () => {
    await http()
      .put(`/assembly/fraud-settings/${f.ids.otherAssembly}`)
      .set('Authorization', keys.admin)
      .send({ minMinutesBetween: 10, maxKmFromStation: 5, minInspectionsForRate: 5 })
      .expect(200);
    expect(
      (await http().get(`/assembly/fraud-settings/${f.ids.otherAssembly}`).set('Authorization', keys.admin).expect(200))
        .body,
    ).toEqual({ minMinutesBetween: 10, maxKmFromStation: 5, minInspectionsForRate: 5 });
    // The second inspector fails every vehicle; the first passes every one (as in the tests above).
    for (let i = 0; i < 6; i++)
      await inspect(await vehicle(), keys.secondInspector, { inspectionChecklist: FAILING }).expect(200);
    for (let i = 0; i < 3; i++) await inspect(await vehicle(), keys.inspector, {}).expect(200);
    const outliers = await flags('?kind=pass-rate-outlier');
    const mine = outliers.filter((x) => x.inspector === ids.inspector);
    expect(mine).toHaveLength(1);
    // The rest: the second inspector's one pass (the first test) and six failures.
    expect(mine[0]).toMatchObject({ vehicle: null, details: { direction: 'high', othersPassed: 1, othersTotal: 7 } });
    expect(mine[0].details.passed).toBe(mine[0].details.total);
    expect(mine[0].explanation).toMatch(/far more passes than chance explains$/);
    // And the second inspector, who fails far more than the rest, once too.
    const low = outliers.filter((x) => x.inspector === ids.secondInspector);
    expect(low).toHaveLength(1);
    expect(low[0].details.direction).toBe('low');
  });

  it('never blocks the work: with the flags unwritable, inspections, photos and prints go through as ever', async () => {
    await photosOptional();
    const prisma = running.database.prisma;
    const v = await vehicle();
    // An approved vehicle whose inspection has no photo: its print would raise a flag.
    const bare = await vehicle();
    await inspect(bare, keys.inspector, {}, 'unwritable-bare').expect(200);
    await http().post(`/vehicles/${bare}/approve`).set('Authorization', keys.approver).expect(200);
    await prisma.$executeRawUnsafe('ALTER TABLE fraud_flags RENAME TO fraud_flags_away');
    try {
      // Quick after the last (a sign that cannot be written), a photo used before and a sticker without photos (likewise).
      await inspect(v, keys.inspector, { madeAt: madeAt(minute + 1) }, 'unwritable').expect(200);
      await photo(v, 'unwritable', jpeg({ seed: 46 })).expect(201);
      await http().post(`/vehicles/${bare}/certificate`).set('Authorization', keys.approver).expect(200);
    } finally {
      await prisma.$executeRawUnsafe('ALTER TABLE fraud_flags_away RENAME TO fraud_flags');
    }
    const history = await http().get(`/vehicles/${v}/inspections`).set('Authorization', keys.inspector).expect(200);
    expect(history.body).toHaveLength(1);
    expect(await running.database.prisma.inspectionPhoto.count({ where: { vehicleId: v } })).toBe(1);
    expect((await flags('?limit=500')).filter((x) => x.vehicle === v || x.vehicle === bare)).toEqual([]);
  });

  it('lists by status and kind, paged; clears with a reason, audited, once', async () => {
    const open = await flags('?status=open&kind=quick-succession');
    expect(open.length).toBeGreaterThan(0);
    const target = open[0];
    const page = await http().get('/assembly/fraud-flags?limit=1&count=true').set('Authorization', keys.admin);
    expect(page.status).toBe(200);
    expect(page.body).toHaveLength(1);
    expect(page.headers.link).toMatch(/after=/);
    expect(Number(page.headers['x-total-count'])).toBeGreaterThan(1);

    const clear = (reason: unknown, key = keys.admin, id = target._id) =>
      http().post(`/assembly/fraud-flags/${id}/clear`).set('Authorization', key).send({ reason });
    expect((await clear('').expect(400)).body.code).toBe('INVALID_TEXT');
    await clear(null).expect(400);
    const cleared = await clear('Two buses of one owner inspected together, photos checked').expect(200);
    expect(cleared.body).toMatchObject({
      _id: target._id,
      cleared: { by: ids.admin, reason: 'Two buses of one owner inspected together, photos checked' },
    });
    expect((await clear('Again').expect(409)).body.code).toBe('FRAUD_FLAG_ALREADY_CLEARED');
    expect((await flags('?status=cleared')).map((x) => x._id)).toContain(target._id);
    expect((await flags('?status=open&limit=500')).map((x) => x._id)).not.toContain(target._id);
    const audit = await running.database.prisma.auditEntry.findMany({
      where: { entity: 'fraudFlag', entityId: target._id },
    });
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ action: 'FraudFlagCleared', actorId: ids.admin, actorRole: 'assembly' });
    expect(audit[0].after).toMatchObject({ cleared: { reason: expect.stringMatching(/^Two buses/) } });
    await http().get('/assembly/fraud-flags?status=closed').set('Authorization', keys.admin).expect(400);
    await http().get('/assembly/fraud-flags?kind=goro').set('Authorization', keys.admin).expect(400);
  });

  it('is the assembly admin’s (own assembly) and the national admin’s (all); others are refused', async () => {
    const [flag] = await flags('?status=open');
    expect((await flags('', f.keys.admin)).map((x) => x._id)).toContain(flag._id);
    // Another assembly's admin sees none of these and cannot clear one: as if it did not exist.
    expect((await flags('?limit=500', keys.firstAdmin)).filter((x) => x.assembly === f.ids.otherAssembly)).toEqual([]);
    const clear = (key: string) =>
      http().post(`/assembly/fraud-flags/${flag._id}/clear`).set('Authorization', key).send({ reason: 'Seen' });
    expect((await clear(keys.firstAdmin).expect(404)).body.code).toBe('NOT_FOUND');
    await http()
      .get(`/assembly/fraud-settings/${f.ids.otherAssembly}`)
      .set('Authorization', keys.firstAdmin)
      .expect(404);
    for (const key of [keys.inspector, keys.enforcer, keys.approver]) {
      expect((await http().get('/assembly/fraud-flags').set('Authorization', key).expect(403)).body.code).toBe(
        'DUTY_NOT_ALLOWED',
      );
      await clear(key).expect(403);
    }
    await http().get('/assembly/fraud-flags').set('Authorization', f.keys.merchantA).expect(403);
    await http().get('/assembly/fraud-flags').expect(401);
    await http().post(`/assembly/fraud-flags/${flag._id}/clear`).send({ reason: 'Seen' }).expect(401);
    // The national admin clears any assembly's.
    await clear(f.keys.admin).expect(200);
  });
});
