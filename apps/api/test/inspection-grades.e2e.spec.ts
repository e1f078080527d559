import request from 'supertest';
import { ObjectIdGenerator } from '@transport/domain';
import { allPassed, FixedClock, SeededRandomSource } from '@transport/domain/testing';
import type { RunningApp } from '../src/app';
import { ensureAdminKey } from '../src/persistence/admin-key';
import { appOnTier } from './support/app-on-tier';
import { jpeg } from './support/images';
import { describeOnEachTier } from './support/test-app';

// Issue 46, items 1 to 3: graded defects decide the outcome (dangerous prohibits, major fails with days to fix, minor
// passes with advice), a free re-inspection of the failed items within the window, and an owner's appeal decided by
// an approver who took no part; every inspection kept in the vehicle's history with its Idempotency-Key.

const ADMIN_KEY = 'admin-key-for-the-inspection-grades-tests-0123456789';
const PASSED = allPassed();
const DAY = 86_400_000;
const future = (days: number) => new Date(Date.now() + days * DAY).toISOString();

async function bootstrap(running: RunningApp) {
  const clock = new FixedClock(new Date());
  await ensureAdminKey(
    running.database.prisma,
    new ObjectIdGenerator(clock, new SeededRandomSource(7)),
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
  const newAssembly = async (name: string, digitalAddress: string) =>
    (
      await admin(http().post('/assembly/add'))
        .send({ name, region: region._id, digitalAddress, type: 'metropolitan' })
        .expect(201)
    ).body._id as string;
  const kumasi = await newAssembly('Kumasi Metropolitan Assembly', 'AK-039-5028');
  const obuasi = await newAssembly('Obuasi Municipal Assembly', 'AO-001-0001');
  let phone = 244000200;
  const staff = async (assembly: string, role: string) => {
    const n = phone++;
    const user = (
      await admin(http().post('/assembly/users/add'))
        .send({ assembly, name: `Staff ${n}`, email: `staff${n}@example.gov.gh`, phone: `0${n}`, role })
        .expect(201)
    ).body;
    const key = (await admin(http().post('/admin/keys')).send({ role: 'assembly', principal: user._id }).expect(201))
      .body;
    return { id: user._id as string, key: key.key as string };
  };
  const owner = (
    await admin(http().post('/vehicles/owner/add'))
      .send({
        name: 'Yaw Owusu',
        phone: '0244111222',
        email: 'yaw@example.com',
        idType: 'ghana_card',
        idNumber: 'GHA-700000009-9',
        assembly: kumasi,
      })
      .expect(201)
  ).body;
  let plate = 100;
  const vehicle = async (assembly = kumasi) =>
    (
      await admin(http().post('/vehicles/add'))
        .send({
          ownerID: owner._id,
          assembly,
          registrationNumber: `AS ${plate++}-26`,
          roadWorthyExpiryDate: future(200),
          insuranceExpiryDate: future(300),
        })
        .expect(201)
    ).body._id as string;
  return {
    http,
    kumasi,
    obuasi,
    vehicle,
    inspector: await staff(kumasi, 'inspector'),
    secondInspector: await staff(kumasi, 'inspector'),
    approver: await staff(kumasi, 'approver'),
    secondApprover: await staff(kumasi, 'approver'),
    assemblyAdmin: await staff(kumasi, 'admin'),
    otherInspector: await staff(obuasi, 'inspector'),
  };
}

describeOnEachTier('graded inspections, re-inspection and appeal', (tier) => {
  const { running } = appOnTier(tier);
  let b: Awaited<ReturnType<typeof bootstrap>>;
  beforeAll(async () => {
    b = await bootstrap(running);
  });
  const as = (key: string) => ({
    post: (path: string) => b.http().post(path).set('Authorization', key),
    get: (path: string) => b.http().get(path).set('Authorization', key),
    put: (path: string) => b.http().put(path).set('Authorization', key),
  });
  const failing = (...items: string[]) => ({ ...PASSED, ...Object.fromEntries(items.map((i) => [i, false])) });
  const audit = async (vehicle: string) =>
    (await running.database.prisma.auditEntry.findMany({ where: { entityId: vehicle }, orderBy: { id: 'asc' } })).map(
      (e) => e.action,
    );

  it('grades failed items: minor alone passes with advice and is approvable; no grades keeps every failure major', async () => {
    const v = await b.vehicle();
    const minor = await as(b.inspector.key)
      .post(`/vehicles/${v}/inspect`)
      .send({
        inspectionChecklist: failing('spareTire'),
        grades: { spareTire: 'minor' },
        advisories: { headlights: 'Lens cloudy' },
      })
      .expect(200);
    expect(minor.body).toMatchObject({
      inspectionOutcome: 'passedWithAdvice',
      inspectionGrades: { spareTire: 'minor' },
      inspectionAdvisories: { headlights: 'Lens cloudy' },
    });
    expect(minor.body).not.toHaveProperty('reinspectionDueBy');
    await as(b.approver.key).post(`/vehicles/${v}/approve`).expect(200);

    // An older client: no grades, a failed item is major, the approval goes, a window opens.
    const old = await as(b.inspector.key)
      .post(`/vehicles/${v}/inspect`)
      .send({ inspectionChecklist: failing('brakes') })
      .expect(200);
    expect(old.body).toMatchObject({
      approved: false,
      inspectionOutcome: 'failed',
      inspectionGrades: { brakes: 'major' },
    });
    expect(Date.parse(old.body.reinspectionDueBy) - Date.parse(old.body.dateInspected)).toBe(14 * DAY);
    const refused = await as(b.approver.key).post(`/vehicles/${v}/approve`).expect(422);
    expect(refused.body).toMatchObject({ code: 'VEHICLE_INSPECTION_FAILED', status: 422 });
  });

  it('prohibits use on a dangerous defect: the approval is withdrawn, approval refused, no free re-inspection', async () => {
    const v = await b.vehicle();
    await as(b.inspector.key).post(`/vehicles/${v}/inspect`).send({ inspectionChecklist: PASSED }).expect(200);
    await as(b.approver.key).post(`/vehicles/${v}/approve`).expect(200);
    const prohibited = await as(b.inspector.key)
      .post(`/vehicles/${v}/inspect`)
      .send({ inspectionChecklist: failing('brakes'), grades: { brakes: 'dangerous' } })
      .expect(200);
    expect(prohibited.body).toMatchObject({ approved: false, inspectionOutcome: 'prohibited' });
    expect(prohibited.body).not.toHaveProperty('reinspectionDueBy');
    expect((await as(b.approver.key).post(`/vehicles/${v}/approve`).expect(422)).body.code).toBe(
      'VEHICLE_USE_PROHIBITED',
    );
    expect(
      (
        await as(b.inspector.key)
          .post(`/vehicles/${v}/reinspect`)
          .send({ inspectionChecklist: { brakes: true } })
          .expect(422)
      ).body.code,
    ).toBe('REINSPECTION_NOT_OPEN');
    expect(await audit(v)).toEqual(
      expect.arrayContaining(['VehicleInspected', 'VehicleApproved', 'VehicleApprovalWithdrawn']),
    );
  });

  it('refuses bad grades and advice with a 400 problem, writing nothing', async () => {
    const v = await b.vehicle();
    const send = (body: object) => as(b.inspector.key).post(`/vehicles/${v}/inspect`).send(body);
    for (const body of [
      { inspectionChecklist: failing('brakes'), grades: { brakes: 'severe' } },
      { inspectionChecklist: failing('brakes'), grades: { headlights: 'minor' } },
      { inspectionChecklist: failing('brakes'), grades: 'major' },
      { inspectionChecklist: failing('brakes'), advisories: { brakes: 'worn' } },
    ]) {
      const answer = await send(body).expect(400);
      expect(answer.headers['content-type']).toContain('application/problem+json');
      expect(answer.body.status).toBe(400);
    }
    expect(await running.database.prisma.vehicleInspection.count({ where: { vehicleId: v } })).toBe(0);
    expect((await running.database.prisma.vehicle.findUniqueOrThrow({ where: { id: v } })).inspected).toBe(false);
  });

  it('re-inspects only the failed items, free, within the window, linked to the first; a replay records nothing twice', async () => {
    const v = await b.vehicle();
    const first = await as(b.inspector.key)
      .post(`/vehicles/${v}/inspect`)
      .set('Idempotency-Key', `first-${v}`)
      .send({ inspectionChecklist: failing('brakes', 'spareTire'), grades: { spareTire: 'minor' } })
      .expect(200);
    // Only the items that failed: another item, or one left out, is a 400.
    for (const results of [{ brakes: true }, { brakes: true, spareTire: true, headlights: true }]) {
      expect(
        (await as(b.inspector.key).post(`/vehicles/${v}/reinspect`).send({ inspectionChecklist: results }).expect(400))
          .body.code,
      ).toBe('INVALID_CHECKLIST');
    }
    const send = () =>
      as(b.secondInspector.key)
        .post(`/vehicles/${v}/reinspect`)
        .set('Idempotency-Key', `again-${v}`)
        .send({ inspectionChecklist: { brakes: true, spareTire: true } });
    const again = await send().expect(200);
    const replay = await send().expect(200);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toEqual(again.body);
    expect(again.body).toMatchObject({ inspectionOutcome: 'passed', inspectionChecklist: PASSED });
    expect(again.body).not.toHaveProperty('reinspectionDueBy');
    const history = (await as(b.approver.key).get(`/vehicles/${v}/inspections`).expect(200)).body;
    expect(history.map((r: { kind: string }) => r.kind)).toEqual(['reinspection', 'inspection']);
    expect(history[0]).toMatchObject({ reinspectionOf: first.body.inspectionId, idempotencyKey: `again-${v}` });
    expect(history[1]).toMatchObject({ _id: first.body.inspectionId, idempotencyKey: `first-${v}`, outcome: 'failed' });
    // The window is closed now (it opens no new one): a full inspection is due.
    expect(
      (await as(b.inspector.key).post(`/vehicles/${v}/reinspect`).send({ inspectionChecklist: {} }).expect(422)).body
        .code,
    ).toBe('REINSPECTION_NOT_OPEN');
    // No fee: the service records none for inspections (no transaction rows were made).
    expect(await running.database.prisma.transaction.count()).toBe(0);
  });

  it("lists the vehicles whose window is ending, for staff only, and keeps each assembly's days to fix", async () => {
    await as(b.assemblyAdmin.key)
      .put(`/assembly/inspection-settings/${b.kumasi}`)
      .send({ daysToFix: 3, appealDays: 20 })
      .expect(200);
    expect((await as(b.inspector.key).get(`/assembly/inspection-settings/${b.kumasi}`).expect(200)).body).toEqual({
      daysToFix: 3,
      appealDays: 20,
      photosRequired: true,
    });
    const v = await b.vehicle();
    const failed = await as(b.inspector.key)
      .post(`/vehicles/${v}/inspect`)
      .send({ inspectionChecklist: failing('brakes') })
      .expect(200);
    expect(Date.parse(failed.body.reinspectionDueBy) - Date.parse(failed.body.dateInspected)).toBe(3 * DAY);
    const ending = async (days: number, key = b.approver.key) =>
      (await as(key).get(`/vehicles/all?reinspectionEnding=${days}`).expect(200)).body.map(
        (x: { _id: string }) => x._id,
      );
    expect(await ending(5)).toContain(v);
    expect(await ending(1)).not.toContain(v);
    expect(await ending(5, b.otherInspector.key)).not.toContain(v);
    await b.http().get('/vehicles/all?reinspectionEnding=5').expect(401);
    expect(
      (await b.http().get('/vehicles/all?reinspectionEnding=x').set('Authorization', ADMIN_KEY).expect(400)).body
        .status,
    ).toBe(400);
    // Settings: only an admin (the national one, or the assembly's own); another assembly is a 404; bad days 400.
    expect(
      (
        await as(b.approver.key)
          .put(`/assembly/inspection-settings/${b.kumasi}`)
          .send({ daysToFix: 5, appealDays: 5 })
          .expect(403)
      ).body.code,
    ).toBe('DUTY_NOT_ALLOWED');
    await as(b.otherInspector.key).get(`/assembly/inspection-settings/${b.kumasi}`).expect(404);
    await as(b.assemblyAdmin.key)
      .put(`/assembly/inspection-settings/${b.kumasi}`)
      .send({ daysToFix: 0, appealDays: 5 })
      .expect(400);
    await b.http().get(`/assembly/inspection-settings/${b.kumasi}`).expect(401);
    await as(ADMIN_KEY)
      .put(`/assembly/inspection-settings/${b.kumasi}`)
      .send({ daysToFix: 14, appealDays: 15 })
      .expect(200);
  });

  it('takes an appeal from staff, decided by an approver who took no part, for a re-inspection by another inspector', async () => {
    const v = await b.vehicle();
    const inspected = await as(b.inspector.key)
      .post(`/vehicles/${v}/inspect`)
      .send({ inspectionChecklist: failing('brakes'), grades: { brakes: 'dangerous' } })
      .expect(200);
    const path = `/vehicles/${v}/inspections/${inspected.body.inspectionId}/appeal`;
    // Who may: anonymous 401, another assembly 404, a national admin key is not assembly staff (403).
    await b.http().post(path).send({ grounds: 'x' }).expect(401);
    await as(b.otherInspector.key).post(path).send({ grounds: 'The brakes were fine' }).expect(404);
    await as(ADMIN_KEY).post(path).send({ grounds: 'The brakes were fine' }).expect(403);
    expect((await as(b.approver.key).post(path).send({}).expect(400)).body.status).toBe(400);
    await as(b.approver.key)
      .post(`/vehicles/${v}/inspections/65a0000000000000000000ff/appeal`)
      .send({ grounds: 'x' })
      .expect(404);

    const lodge = () =>
      as(b.approver.key).post(path).set('Idempotency-Key', `appeal-${v}`).send({ grounds: 'The brakes were fine' });
    const lodged = await lodge().expect(201);
    expect((await lodge().expect(201)).headers['idempotent-replayed']).toBe('true');
    expect(lodged.body.appeal).toMatchObject({ lodgedBy: b.approver.id, grounds: 'The brakes were fine' });
    expect((await as(b.approver.key).post(path).send({ grounds: 'Again' }).expect(409)).body.code).toBe(
      'APPEAL_ALREADY_LODGED',
    );

    const decide = (key: string, decision: string) => as(key).post(`${path}/decision`).send({ decision });
    expect((await decide(b.inspector.key, 'upheld').expect(403)).body.code).toBe('DUTY_NOT_ALLOWED');
    expect((await decide(b.approver.key, 'upheld').expect(422)).body.code).toBe('APPEAL_DECIDER_TOOK_PART');
    expect((await decide(b.secondApprover.key, 'maybe').expect(400)).body.status).toBe(400);
    const decided = await decide(b.secondApprover.key, 'reinspection').expect(200);
    expect(decided.body.appeal).toMatchObject({ decidedBy: b.secondApprover.id, decision: 'reinspection' });
    expect((await decide(b.secondApprover.key, 'upheld').expect(409)).body.code).toBe('APPEAL_ALREADY_DECIDED');

    // The re-inspection: never by the inspector appealed against; another inspector, free, linked to the first.
    const results = { inspectionChecklist: { brakes: true } };
    expect((await as(b.inspector.key).post(`/vehicles/${v}/reinspect`).send(results).expect(422)).body.code).toBe(
      'REINSPECTOR_TOOK_PART',
    );
    const again = await as(b.secondInspector.key).post(`/vehicles/${v}/reinspect`).send(results).expect(200);
    expect(again.body.inspectionOutcome).toBe('passed');
    await as(b.approver.key).post(`/vehicles/${v}/approve`).expect(200);

    const history = (await as(b.approver.key).get(`/vehicles/${v}/inspections`).expect(200)).body;
    expect(history[1].appeal).toMatchObject({ decision: 'reinspection', decidedBy: b.secondApprover.id });
    expect(await audit(v)).toEqual(
      expect.arrayContaining([
        'InspectionAppealLodged',
        'InspectionAppealDecided',
        'VehicleReinspectionOrdered',
        'VehicleReinspected',
      ]),
    );
    // The vehicle's history (GET /audit/entries) shows each step to the assembly's staff.
    const entries = (await as(b.approver.key).get(`/audit?entity=vehicle&id=${v}`).expect(200)).body;
    expect(entries.map((e: { action: string }) => e.action)).toEqual(
      expect.arrayContaining(['InspectionAppealLodged', 'InspectionAppealDecided']),
    );
  });

  it('refuses an appeal of a passed inspection, or after the appeal days', async () => {
    const v = await b.vehicle();
    const passed = await as(b.inspector.key)
      .post(`/vehicles/${v}/inspect`)
      .send({ inspectionChecklist: PASSED })
      .expect(200);
    expect(
      (
        await as(b.approver.key)
          .post(`/vehicles/${v}/inspections/${passed.body.inspectionId}/appeal`)
          .send({ grounds: 'x' })
          .expect(422)
      ).body.code,
    ).toBe('APPEAL_NOT_ALLOWED');
    const old = await as(b.inspector.key)
      .post(`/vehicles/${v}/inspect`)
      .send({ inspectionChecklist: failing('brakes'), madeAt: new Date(Date.now() - 20 * 3_600_000).toISOString() })
      .expect(200);
    await as(ADMIN_KEY)
      .put(`/assembly/inspection-settings/${b.kumasi}`)
      .send({ daysToFix: 14, appealDays: 1 })
      .expect(200);
    await running.database.prisma.vehicleInspection.update({
      where: { id: old.body.inspectionId },
      data: { madeAt: new Date(Date.now() - 2 * DAY) },
    });
    expect(
      (
        await as(b.approver.key)
          .post(`/vehicles/${v}/inspections/${old.body.inspectionId}/appeal`)
          .send({ grounds: 'x' })
          .expect(422)
      ).body.code,
    ).toBe('APPEAL_WINDOW_CLOSED');
    await as(ADMIN_KEY)
      .put(`/assembly/inspection-settings/${b.kumasi}`)
      .send({ daysToFix: 14, appealDays: 15 })
      .expect(200);
  });

  it('keeps whether photos are required (default on); an approval waits for the plate and VIN photos, each photo audited', async () => {
    const settings = `/assembly/inspection-settings/${b.kumasi}`;
    expect((await as(b.approver.key).get(settings).expect(200)).body.photosRequired).toBe(true);
    // Left out: unchanged; null or a word: 400, nothing written.
    for (const bad of [null, 'yes'])
      expect(
        (await as(ADMIN_KEY).put(settings).send({ daysToFix: 14, appealDays: 15, photosRequired: bad }).expect(400))
          .body.status,
      ).toBe(400);
    expect((await as(ADMIN_KEY).put(settings).send({ daysToFix: 14, appealDays: 15 }).expect(200)).body).toEqual({
      daysToFix: 14,
      appealDays: 15,
      photosRequired: true,
    });

    const v = await b.vehicle();
    const key = `photos-${v}`;
    await as(b.inspector.key)
      .post(`/vehicles/${v}/inspect`)
      .set('Idempotency-Key', key)
      .send({ inspectionChecklist: PASSED })
      .expect(200);
    const photo = (kind: string, seed: number) =>
      as(b.inspector.key)
        .post(`/vehicles/${v}/inspection-photos?kind=${kind}&longitude=-1.62&latitude=6.69`)
        .set('Idempotency-Key', key)
        .set('Content-Type', 'image/jpeg')
        .send(jpeg({ seed }));
    await photo('plate', 1).expect(201);
    const refused = await as(b.approver.key).post(`/vehicles/${v}/approve`).expect(422);
    expect(refused.body).toMatchObject({ code: 'INSPECTION_PHOTOS_MISSING' });
    expect(refused.body.detail).toContain('vin');
    const vin = await photo('vin', 2).expect(201);
    await photo('vin', 2).expect(200); // a replay: no second photo, no second entry
    const entries = await running.database.prisma.auditEntry.findMany({
      where: { entityId: v, action: 'InspectionPhotoAdded' },
      orderBy: { id: 'asc' },
    });
    expect(entries.map((e) => (e.after as { kind: string }).kind)).toEqual(['plate', 'vin']);
    expect(entries[1].after).toEqual({
      photo: vin.body._id,
      inspectionKey: key,
      kind: 'vin',
      sha256: vin.body.sha256,
      size: vin.body.size,
    });
    // Where it was taken stays out of the history inspectors read.
    expect(JSON.stringify(entries.map((e) => e.after))).not.toContain('6.69');
    await as(b.approver.key).post(`/vehicles/${v}/approve`).expect(200);

    // Turned off, an approval does not wait.
    await as(b.assemblyAdmin.key)
      .put(settings)
      .send({ daysToFix: 14, appealDays: 15, photosRequired: false })
      .expect(200);
    const w = await b.vehicle();
    await as(b.inspector.key)
      .post(`/vehicles/${w}/inspect`)
      .set('Idempotency-Key', `photos-${w}`)
      .send({ inspectionChecklist: PASSED })
      .expect(200);
    await as(b.approver.key).post(`/vehicles/${w}/approve`).expect(200);
    expect(
      (await as(ADMIN_KEY).put(settings).send({ daysToFix: 14, appealDays: 15, photosRequired: true }).expect(200)).body
        .photosRequired,
    ).toBe(true);
  });
});
