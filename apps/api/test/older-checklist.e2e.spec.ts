import { appOnTier } from './support/app-on-tier';
import { describeOnEachTier } from './support/test-app';

// Issue 44, item 9: vehicles imported from the original service were inspected on an older checklist, without two
// of today's ten items (docs/importing.md). Those items are not recorded: absent from the answer, never a pass.
// An approved one stays approved as the original had it; an unapproved one is not approved until inspected again.
const OLD_CHECKLIST = {
  spareTire: true,
  headlights: true,
  tailLights: true,
  turnSignals: true,
  brakeLights: true,
  seatBelts: true,
  brakes: true,
  licensePlate: true,
};

describeOnEachTier('a checklist of an older version', (tier) => {
  const { running, fixture: f, http } = appOnTier(tier, { fixture: true });

  beforeAll(async () => {
    const vehicles = running.database.prisma.vehicle;
    await vehicles.update({ where: { id: f.ids.linkedVehicle }, data: { inspectionChecklist: OLD_CHECKLIST } });
    await vehicles.update({
      where: { id: f.ids.freshVehicle },
      data: {
        inspected: true,
        assemblyId: f.ids.assembly,
        inspectionChecklist: OLD_CHECKLIST,
        inspectedBy: 'abc000000000000000000101',
        dateInspected: new Date('2021-03-01T09:00:00Z'),
      },
    });
  });

  it('is answered with the items not recorded left out, an approved vehicle still approved', async () => {
    const approved = await http()
      .get(`/vehicles/${f.ids.linkedVehicle}`)
      .set('Authorization', f.keys.admin)
      .expect(200);
    expect(approved.body).toMatchObject({ approved: true, inspected: true });
    expect(approved.body.inspectionChecklist).toEqual(OLD_CHECKLIST);
    const listed = (await http().get('/vehicles/all?limit=100').set('Authorization', f.keys.admin).expect(200))
      .body as { _id: string; inspectionChecklist?: object }[];
    expect(listed.find((v) => v._id === f.ids.freshVehicle)?.inspectionChecklist).toEqual(OLD_CHECKLIST);
  });

  it('is not a pass: approval is refused until the vehicle is inspected again', async () => {
    const refused = await http()
      .post(`/vehicles/${f.ids.freshVehicle}/approve`)
      .set('Authorization', f.keys.assembly)
      .expect(422);
    expect(refused.body).toMatchObject({ code: 'VEHICLE_INSPECTION_INCOMPLETE', status: 422 });
    expect(refused.body.detail).toContain('fireExtinguisher, emergencySignals');
    const after = await http().get(`/vehicles/${f.ids.freshVehicle}`).set('Authorization', f.keys.admin).expect(200);
    expect(after.body).toMatchObject({ approved: false, __v: expect.any(Number) });
  });
});
