import { appOnTier } from './support/app-on-tier';
import { describeOnEachTier } from './support/test-app';

// Issue 44, item 9: the original's agents registered some owners by phone only, and the importer keeps them without
// an e-mail (docs/importing.md). Such an owner is served without the field (absent, never null, as the interface
// leaves out what a record does not hold) in its list, its search and a driver's embedded owner; a correction may
// add one; a new owner still needs one.
describeOnEachTier('an owner without an e-mail', (tier) => {
  const { running, fixture: f, http } = appOnTier(tier, { fixture: true });
  let ownerId: string;

  beforeAll(async () => {
    ownerId = f.ids.owners[0];
    await running.database.prisma.vehicleOwner.update({ where: { id: ownerId }, data: { email: null } });
  });

  it('is listed and found without the field, and embedded in its drivers without it', async () => {
    const all = (await http().get('/vehicles/owner/all?limit=100').set('Authorization', f.keys.admin).expect(200))
      .body as Record<string, unknown>[];
    const owner = all.find((o) => o._id === ownerId)!;
    expect(owner).toMatchObject({ _id: ownerId, phone: expect.stringMatching(/^\+233/) });
    expect(owner).not.toHaveProperty('email');
    const found = (
      await http()
        .get(`/vehicles/owner/search?query=${encodeURIComponent(String(owner.name))}`)
        .set('Authorization', f.keys.admin)
        .expect(200)
    ).body as Record<string, unknown>[];
    expect(found.find((o) => o._id === ownerId)).not.toHaveProperty('email');
    const drivers = (await http().get('/drivers/all?limit=100').set('Authorization', f.keys.admin).expect(200)).body
      .payload as { ownerID?: Record<string, unknown> }[];
    const embedded = drivers.map((d) => d.ownerID).find((o) => o?._id === ownerId);
    expect(embedded).toMatchObject({ _id: ownerId });
    expect(embedded).not.toHaveProperty('email');
  });

  it('takes an e-mail through a correction', async () => {
    const corrected = await http()
      .post(`/vehicles/owner/${ownerId}/correct`)
      .set('Authorization', f.keys.admin)
      .set('If-Match', '0')
      .send({ email: 'Found.Later@Example.com' })
      .expect(200);
    expect(corrected.body).toMatchObject({ _id: ownerId, email: 'found.later@example.com', __v: 1 });
  });

  it('is still required of a new owner', async () => {
    const refused = await http()
      .post('/vehicles/owner/add')
      .set('Authorization', f.keys.admin)
      .send({ name: 'Yaw Boateng', phone: '0244999888', idType: 'ghana_card', idNumber: 'GHA-712345670-1' })
      .expect(400);
    expect(JSON.stringify(refused.body)).toContain('email');
  });
});
