import { appOnTier } from './support/app-on-tier';
import { describeOnEachTier } from './support/test-app';

// The drop-down lists: regions, stations and transport unions, for any key, newest first, paged.
describeOnEachTier('reference-data lists', (tier) => {
  const { fixture: f, http } = appOnTier(tier, { fixture: true });

  beforeAll(async () => {
    // A second station and union, so every list has a next page at limit=1.
    await http()
      .post('/unions/add')
      .set('Authorization', f.keys.admin)
      .send({
        name: 'PROTOA Accra',
        digitalAddress: 'GA-183-8165',
        contactNumber: '0302000334',
        email: 'accra@protoa.org.gh',
        zones: [],
      })
      .expect(201);
    await http()
      .post('/stations/add')
      .set('Authorization', f.keys.admin)
      .send({
        name: 'Tudu',
        transportUnions: [f.ids.union],
        zones: [],
        contactNumber: 302000445,
        digitalAddress: 'GA-200-3002',
      })
      .expect(201);
    await http()
      .post('/assembly/regions/add')
      .set('Authorization', f.keys.admin)
      .send({ name: 'Bono East', country: '65a000000000000000000c01' })
      .expect(201);
  });

  for (const path of ['/assembly/regions/all', '/stations/all', '/unions/all']) {
    it(`pages ${path} newest first for any key, with a Link header`, async () => {
      for (const key of [f.keys.admin, f.keys.assembly, f.keys.merchantA]) {
        const first = await http().get(`${path}?limit=1`).set('Authorization', key).expect(200);
        expect(first.body).toHaveLength(1);
        const next = /<([^>]+)>; rel="next"/.exec(first.headers.link)?.[1];
        expect(next).toBe(`${path}?limit=1&after=${first.body[0]._id}`);
        const second = await http().get(next!).set('Authorization', key).expect(200);
        expect(second.body[0]._id).not.toBe(first.body[0]._id);
        expect(new Date(second.body[0].createdAt) <= new Date(first.body[0].createdAt)).toBe(true);
      }
      const all = (await http().get(`${path}?limit=500`).set('Authorization', f.keys.admin).expect(200)).body;
      expect(all.length).toBeGreaterThanOrEqual(2);
      await http().get(path).expect(401);
      await http().get(`${path}?limit=0`).set('Authorization', f.keys.admin).expect(400);
      await http().get(`${path}?after=nope`).set('Authorization', f.keys.admin).expect(400);
    });
  }

  it('lists the stations and unions the fixture made', async () => {
    const stations = (await http().get('/stations/all?limit=500').set('Authorization', f.keys.admin).expect(200)).body;
    expect(stations.map((s: { _id: string }) => s._id)).toContain(f.ids.station);
    const unions = (await http().get('/unions/all?limit=500').set('Authorization', f.keys.admin).expect(200)).body;
    expect(unions.map((u: { _id: string }) => u._id)).toContain(f.ids.union);
  });
});
