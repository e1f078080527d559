import { allPassed } from '@transport/domain/testing';
import { appOnTier } from './support/app-on-tier';
import { describeOnEachTier } from './support/test-app';

// Issue 43, item 5: an inspection made at the roadside at 09:12 and sent when the phone found a signal at 14:40 was
// recorded as made at 14:40. The phone sends when it was made (madeAt); the service keeps that as dateInspected and the
// time it received it beside it (in the history), and refuses a time in the future (beyond a small clock-skew
// allowance) or older than INSPECTION_MADE_MAX_AGE_HOURS.

const PASSED = allPassed();
const HOUR = 3_600_000;

describeOnEachTier('the time an inspection was made, kept beside the time it was received', (tier) => {
  const { running, http, fixture } = appOnTier(tier, {
    fixture: true,
    config: { inspectionMadeMaxAgeHours: 48 } as never,
  });
  let vehicle: { _id: string; __v: number; dateInspected?: string };

  const inspect = (body: object) =>
    http()
      .post(`/vehicles/${vehicle._id}/inspect`)
      .set('Authorization', fixture.keys.otherAssembly)
      .send({ inspectionChecklist: PASSED, ...body });
  const current = async () =>
    (await http().get(`/vehicles/${vehicle._id}`).set('Authorization', fixture.keys.admin).expect(200))
      .body as typeof vehicle;
  const lastInspection = async () =>
    (
      await running.database.prisma.auditEntry.findFirst({
        where: { entityId: vehicle._id, action: 'VehicleInspected' },
        orderBy: { id: 'desc' },
      })
    )?.after as { dateInspected: string; inspectionReceivedAt: string; inspectionLocation?: unknown } | undefined;

  beforeAll(async () => {
    vehicle = (
      await http()
        .post('/vehicles/add')
        .set('Authorization', fixture.keys.admin)
        .send({
          ownerID: fixture.ids.owners[0],
          assembly: fixture.ids.otherAssembly,
          registrationNumber: 'AS 5454-26',
          make: 'Nissan',
          model: 'Urvan',
          color: '#FFFFFF',
          type: 'bus',
          capacity: 15,
        })
        .expect(201)
    ).body;
  });

  it('records the time the inspection was made, and keeps the time it was received beside it', async () => {
    const madeAt = new Date(Date.now() - 5 * HOUR - 28 * 60_000);
    const before = Date.now();
    const answer = await inspect({ madeAt: madeAt.toISOString() }).expect(200);
    expect(answer.body.dateInspected).toBe(madeAt.toISOString());
    const kept = await lastInspection();
    expect(kept?.dateInspected).toBe(madeAt.toISOString());
    expect(Date.parse(kept?.inspectionReceivedAt ?? '')).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(kept?.inspectionReceivedAt ?? '')).toBeLessThanOrEqual(Date.now() + 1000);
    const row = await running.database.prisma.vehicle.findUnique({ where: { id: vehicle._id } });
    expect(row?.dateInspected?.toISOString()).toBe(madeAt.toISOString());
    expect(row?.inspectionReceivedAt?.getTime()).toBe(Date.parse(kept?.inspectionReceivedAt ?? ''));
  });

  it('keeps where the inspection was made when the phone sends it, and refuses a place that is not one (400)', async () => {
    const madeWhere = { type: 'Point', coordinates: [-1.6244, 6.6885] };
    await inspect({ madeAt: new Date(Date.now() - HOUR).toISOString(), madeWhere }).expect(200);
    expect((await lastInspection())?.inspectionLocation).toEqual(madeWhere);
    const before = await current();
    const bad = await inspect({ madeWhere: { type: 'Point', coordinates: [-1.6, 96] } }).expect(400);
    expect(bad.body.code).toBe('INVALID_LOCATION');
    expect((await current()).__v).toBe(before.__v);
    // The next inspection without a place drops the last one's.
    await inspect({}).expect(200);
    expect((await lastInspection())?.inspectionLocation).toBeUndefined();
  });

  it('without madeAt, made and received are the same moment (as before)', async () => {
    await inspect({}).expect(200);
    const kept = await lastInspection();
    expect(kept?.dateInspected).toBe(kept?.inspectionReceivedAt);
  });

  it('allows a phone clock a little ahead, and refuses a time made further in the future (422), writing nothing', async () => {
    await inspect({ madeAt: new Date(Date.now() + 60_000).toISOString() }).expect(200);
    const before = await current();
    const refused = await inspect({ madeAt: new Date(Date.now() + HOUR).toISOString() }).expect(422);
    expect(refused.body).toMatchObject({ code: 'INSPECTION_MADE_IN_FUTURE', status: 422 });
    expect((await current()).__v).toBe(before.__v);
  });

  it('refuses a time made longer ago than INSPECTION_MADE_MAX_AGE_HOURS (422), and a time that is no date (400)', async () => {
    const before = await current();
    const refused = await inspect({ madeAt: new Date(Date.now() - 49 * HOUR).toISOString() }).expect(422);
    expect(refused.body).toMatchObject({ code: 'INSPECTION_MADE_TOO_LONG_AGO', status: 422 });
    expect(refused.body.detail).toContain('48 hours');
    expect((await inspect({ madeAt: 'this morning' }).expect(400)).body.code).toBe('VALIDATION_FAILED');
    expect((await current()).__v).toBe(before.__v);
  });
});
