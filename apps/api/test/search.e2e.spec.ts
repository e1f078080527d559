import request from 'supertest';
import { appOnTier } from './support/app-on-tier';
import { describeOnEachTier } from './support/test-app';

const PASSWORD = 'the-harmattan-is-dry-42';

interface Hit {
  kind: string;
  _id: string;
  label: string;
  detail?: string;
  state: string;
  assembly: string | null;
  createdAt: string;
}

/**
 * GET /search over HTTP: one search box over the whole registry (vehicles, drivers, owners, in any state), for
 * assembly staff (keys and dashboard sessions) within their assembly and admins nationwide. The fixture's records are
 * Accra's (`keys.assembly`); this suite adds look-alikes in Tema (`keys.otherAssembly`) that Accra must never see.
 */
describeOnEachTier('registry search', (tier) => {
  const { running, fixture: f, http } = appOnTier(tier, { fixture: true });
  const search = (key: string, query: string) => http().get(`/search${query}`).set('Authorization', key);
  const q = (text: string, more = '') => `?query=${encodeURIComponent(text)}${more}`;
  const hits = (res: request.Response) => res.body as Hit[];
  const ids = (res: request.Response) => hits(res).map((h) => h._id);

  let plate1001: string;
  let vinVehicle: string;
  const tema: Record<string, string> = {};

  beforeAll(async () => {
    const admin = (path: string, body: object) =>
      http().post(path).set('Authorization', f.keys.admin).send(body).expect(201);
    plate1001 = (await http().get('/vehicles/all?registrationNumber=GR%201001-24').set('Authorization', f.keys.admin))
      .body[0]._id;
    vinVehicle = (
      await http()
        .post('/vehicles/add')
        .set('Authorization', f.keys.assembly)
        .send({ ownerID: f.ids.owners[0], registrationNumber: 'GR 7000-26', vin: '1HGCM82633A004352', make: 'Kia' })
        .expect(201)
    ).body._id;
    // Tema's look-alikes: an owner named Mensah with an example.com email, a plate one year off Accra's GR 1001-24,
    // a driver whose licence and name resemble Accra's.
    tema.owner = (
      await admin('/vehicles/owner/add', {
        name: 'Kofi Mensah',
        phone: '0244999001',
        email: 'kofi.mensah@example.com',
        idType: 'ghana_card',
        idNumber: 'GHA-900000001-1',
        assembly: f.ids.otherAssembly,
      })
    ).body._id;
    tema.vehicle = (await admin('/vehicles/add', { ownerID: tema.owner, registrationNumber: 'GR 1001-25' })).body._id;
    tema.driver = (
      await admin('/drivers/add', {
        name: 'Driver 9',
        phone: '0201000009',
        email: 'driver9@example.com',
        license: 'DL-9-2020',
        licenseClass: 'B',
        licenseExpiry: '2029-01-10',
        licenseIssueDate: '2021-01-10',
        idType: 'ghana_card',
        idNumber: 'GHA-D9',
        gender: 'male',
        ownerID: tema.owner,
        assembly: f.ids.otherAssembly,
      })
    ).body.payload._id;
  });

  it('finds a vehicle by its plate typed any way, and says what it is and where it stands', async () => {
    for (const typed of ['GR1001-24', 'gr 1001 24', '1001', 'GR 1001-24', 'gr-1001-24', ' Gr1001 ']) {
      const res = await search(f.keys.assembly, q(typed)).expect(200);
      expect(hits(res).filter((h) => h.kind === 'vehicle')).toEqual([
        {
          kind: 'vehicle',
          _id: plate1001,
          label: 'GR 1001-24',
          detail: 'Toyota Corolla',
          state: 'approved',
          assembly: f.ids.assembly,
          createdAt: expect.any(String),
        },
      ]);
    }
  });

  it('finds a vehicle by any part of its VIN, and one not yet inspected says so', async () => {
    for (const typed of ['1HGCM82633A004352', '3a00435', '1hgcm']) {
      const res = await search(f.keys.assembly, q(typed)).expect(200);
      expect(hits(res)).toEqual([expect.objectContaining({ kind: 'vehicle', _id: vinVehicle, label: 'GR 7000-26' })]);
      expect(hits(res)[0]).toMatchObject({ detail: 'Kia', state: 'awaiting_inspection' });
    }
  });

  it("finds a driver by name, phone in either form, email or licence number, with the driver's state", async () => {
    const driver2 = { kind: 'driver', label: 'Driver 2', detail: '+233201000002', state: 'awaiting_approval' };
    for (const typed of ['driver 2', '0201000002', '+233 20 100 0002', '233201000002', 'driver2@exa', 'dl-2-2020']) {
      const res = await search(f.keys.assembly, q(typed, '&kind=driver')).expect(200);
      expect(hits(res)).toEqual([expect.objectContaining(driver2)]);
    }
    const approved = await search(f.keys.assembly, q('Driver 1', '&kind=driver')).expect(200);
    expect(hits(approved)).toEqual([
      expect.objectContaining({ _id: f.ids.workingDriver, label: 'Driver 1', state: 'approved' }),
    ]);
  });

  it("finds an owner by name or phone, with the owner's state", async () => {
    for (const typed of ['mensah', 'YAW', '0244123452', '+233244123452']) {
      const res = await search(f.keys.assembly, q(typed, '&kind=owner')).expect(200);
      expect(hits(res)).toEqual([
        expect.objectContaining({
          kind: 'owner',
          _id: f.ids.owners[2],
          label: 'Yaw Mensah',
          detail: '+233244123452',
          state: 'unverified',
        }),
      ]);
    }
  });

  it("never returns another assembly's records, and its counts do not count them either", async () => {
    const accra = f.keys.assembly;
    const other = f.keys.otherAssembly;
    const mensah = await search(accra, q('mensah', '&count=true')).expect(200);
    expect(ids(mensah)).toEqual([f.ids.owners[2]]);
    expect(mensah.headers['x-total-count']).toBe('1');
    const temaMensah = await search(other, q('mensah', '&count=true')).expect(200);
    expect(ids(temaMensah)).toEqual([tema.owner]);
    expect(temaMensah.headers['x-total-count']).toBe('1');
    const everyone = await search(f.keys.admin, q('mensah', '&count=true')).expect(200);
    expect(ids(everyone).sort()).toEqual([f.ids.owners[2], tema.owner].sort());
    expect(everyone.headers['x-total-count']).toBe('2');

    // The same plate one year apart, a driver's licence, an email domain both assemblies use.
    expect(ids(await search(accra, q('gr 1001')).expect(200))).toEqual([plate1001]);
    expect(ids(await search(other, q('gr 1001')).expect(200))).toEqual([tema.vehicle]);
    expect(ids(await search(accra, q('DL-9-2020')).expect(200))).toEqual([]);
    expect(ids(await search(other, q('DL-9-2020')).expect(200))).toEqual([tema.driver]);
    const example = await search(accra, q('example.com', '&count=true&limit=500')).expect(200);
    expect(example.headers['x-total-count']).toBe('6'); // three owners, three drivers: none of Tema's two
    expect(ids(example)).not.toEqual(expect.arrayContaining([tema.owner]));
    expect(ids(example)).not.toContain(tema.driver);
    // Tema's records are not reachable through a cursor either: naming one as `after` pages Accra's records only.
    const afterTema = await search(accra, q('example.com', `&after=${tema.owner}&limit=500`)).expect(200);
    for (const h of hits(afterTema)) expect(h.assembly).toBe(f.ids.assembly);
  });

  it('pages newest first across kinds with the list conventions: limit, Link with after, X-Total-Count', async () => {
    // Every Accra vehicle's plate starts GR 10..: sixty of them.
    const seen: Hit[] = [];
    let url: string | undefined = `/search${q('GR 10', '&limit=25&count=true&kind=vehicle')}`;
    const sizes: number[] = [];
    while (url) {
      const res: request.Response = await http().get(url).set('Authorization', f.keys.assembly).expect(200);
      expect(res.headers['x-total-count']).toBe('60');
      sizes.push(hits(res).length);
      seen.push(...hits(res));
      url = /<([^>]+)>; rel="next"/.exec(res.headers.link ?? '')?.[1];
    }
    expect(sizes).toEqual([25, 25, 10]);
    expect(new Set(seen.map((h) => h._id)).size).toBe(60);

    // Owners and drivers mixed: one order over both (createdAt, then _id, newest first), split into pages.
    const all = hits(await search(f.keys.assembly, q('example.com', '&limit=500')).expect(200));
    expect(all.map((h) => h.kind).sort()).toEqual(['driver', 'driver', 'driver', 'owner', 'owner', 'owner']);
    const order = [...all].sort((a, b) =>
      a.createdAt === b.createdAt ? (a._id < b._id ? 1 : -1) : a.createdAt < b.createdAt ? 1 : -1,
    );
    expect(all).toEqual(order);
    const first = await search(f.keys.assembly, q('example.com', '&limit=4')).expect(200);
    expect(ids(first)).toEqual(all.slice(0, 4).map((h) => h._id));
    const next = /<([^>]+)>; rel="next"/.exec(first.headers.link)?.[1] as string;
    expect(next).toContain(`after=${all[3]._id}`);
    const second = await http().get(next).set('Authorization', f.keys.assembly).expect(200);
    expect(ids(second)).toEqual(all.slice(4).map((h) => h._id));
    expect(second.headers.link).toBeUndefined();
  });

  it('narrows to one kind, and matches typed wildcards literally', async () => {
    expect(ids(await search(f.keys.assembly, q('mensah', '&kind=vehicle')).expect(200))).toEqual([]);
    // % and _ are LIKE's wildcards: typed, they are plain characters that no name or plate contains.
    expect(ids(await search(f.keys.assembly, q('dri%er 1')).expect(200))).toEqual([]);
    expect(ids(await search(f.keys.assembly, q('dri_er 1')).expect(200))).toEqual([]);
  });

  it('answers a signed-in person exactly as their assembly key', async () => {
    await http().post('/auth/invitations').set('Authorization', f.keys.admin).send({ user: f.ids.assemblyUser });
    const message = await running.database.prisma.outboxMessage.findFirst({
      where: { to: '+233244000111' },
      orderBy: { id: 'desc' },
    });
    const token = /token=([A-Za-z0-9_-]{43})/.exec(message?.text ?? '')?.[1];
    await http().post('/auth/password').send({ token, password: PASSWORD }).expect(204);
    const signedIn = await http().post('/auth/sign-in').send({ email: 'abena@ama.gov.gh', password: PASSWORD });
    const cookie = (signedIn.headers['set-cookie'] as unknown as string[])[0].split(';')[0];
    const bySession = await http()
      .get(`/search${q('mensah')}`)
      .set('Cookie', cookie)
      .expect(200);
    const byKey = await search(f.keys.assembly, q('mensah')).expect(200);
    expect(bySession.body).toEqual(byKey.body);
    expect(ids(bySession)).toEqual([f.ids.owners[2]]);
  });

  it('refuses anonymous callers (401), merchants and the platform (403)', async () => {
    const anonymous = await http()
      .get(`/search${q('mensah')}`)
      .expect(401);
    expect(anonymous.headers['content-type']).toMatch(/^application\/problem\+json/);
    await search(f.keys.merchantA, q('mensah')).expect(403);
    const platform = await http()
      .post('/admin/keys')
      .set('Authorization', f.keys.admin)
      .send({ role: 'platform', principal: '65a0000000000000000000c1' })
      .expect(201);
    await search(platform.body.key, q('mensah')).expect(403);
    await search(f.keys.revoked, q('mensah')).expect(401);
  });

  it('answers bad input with a 400 problem naming the field', async () => {
    const cases: Array<[string, string, RegExp]> = [
      ['', 'query', /query is required/],
      ['?query=', 'query', /at least 3 letters or digits/],
      ['?query=ab', 'query', /at least 3 letters or digits/],
      ['?query=a%20-%20b', 'query', /at least 3 letters or digits/],
      ['?query=%25%25%25%25', 'query', /at least 3 letters or digits/],
      [`?query=${'x'.repeat(101)}`, 'query', /at most 100 characters/],
      ['?query=abc&query=def', 'query', /query is required/],
      ['?query=mensah&kind=bus', 'kind', /kind must be one of vehicle, driver, owner/],
      ['?query=mensah&limit=0', 'limit', /limit must be an integer from 1 to 500/],
      ['?query=mensah&after=nope', 'after', /24-character lowercase hex id/],
      ['?query=mensah&count=yes', 'count', /count must be true or false/],
      ['?query=mensah&sort=name', 'sort', /.+/],
    ];
    for (const [query, field, message] of cases) {
      const res = await search(f.keys.assembly, query);
      expect([query, res.status]).toEqual([query, 400]);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.body.code).toBe('VALIDATION_FAILED');
      expect(res.body.errors).toEqual(expect.arrayContaining([{ field, message: expect.stringMatching(message) }]));
    }
  });

  it("filters the vehicle list by station and union, alone or with the other filters, within the caller's view", async () => {
    const list = async (key: string | undefined, query: string) => {
      const call = http().get(`/vehicles/all${query}`);
      return (key ? call.set('Authorization', key) : call).expect(200);
    };
    const byStation = await list(f.keys.assembly, `?station=${f.ids.station}&count=true`);
    expect(byStation.body.map((v: { _id: string }) => v._id)).toEqual([f.ids.linkedVehicle]);
    expect(byStation.headers['x-total-count']).toBe('1');
    const byUnion = await list(f.keys.assembly, `?transportUnion=${f.ids.union}&approved=true`);
    expect(byUnion.body.map((v: { _id: string }) => v._id)).toEqual([f.ids.linkedVehicle]);
    expect((await list(f.keys.assembly, `?transportUnion=${f.ids.union}&inspected=false`)).body).toEqual([]);
    // Another assembly's staff: nothing of Accra's, whatever the filter. The public sees the station in its view.
    expect((await list(f.keys.otherAssembly, `?station=${f.ids.station}`)).body).toEqual([]);
    const anonymous = await list(undefined, `?station=${f.ids.station}`);
    expect(anonymous.body.map((v: { _id: string }) => v._id)).toEqual([f.ids.linkedVehicle]);
    const bad = await http().get('/vehicles/all?station=kaneshie').expect(400);
    expect(bad.body.errors).toEqual([{ field: 'station', message: 'station must be a 24-character lowercase hex id' }]);
  });

  it('answers an unknown cursor with an empty page, as every list does', async () => {
    const res = await search(f.keys.assembly, q('mensah', '&after=65a0000000000000000000ff')).expect(200);
    expect(res.body).toEqual([]);
  });
});
