import { CORRECTABLE_DRIVER_FIELDS, CORRECTABLE_OWNER_FIELDS, CORRECTABLE_VEHICLE_FIELDS } from '@transport/domain';
import request from 'supertest';
import { appOnTier } from './support/app-on-tier';
import { describeOnEachTier } from './support/test-app';

const PROBLEM = /^application\/problem\+json/;

// Hostile and careless values, for every parameter and body field. Each must get a 4xx problem+json, never a 500,
// and nothing may be written.
const NASTY: unknown[] = [
  '',
  ' ',
  'x'.repeat(10_000),
  "'; DROP TABLE vehicles; --",
  '{"$gt": ""}',
  '<script>alert(1)</script>',
  '\u0000',
  '🚕🚕🚕',
  -1,
  0,
  1e308,
  -1e308,
  Number.MAX_SAFE_INTEGER + 2,
  3.14159,
  true,
  null,
  [],
  ['a', 'b'],
  {},
  { nested: { deep: true } },
];

const validVehicle = (owner: string) => ({
  ownerID: owner,
  color: '#FFF',
  registrationNumber: 'BI 1234-26',
  make: 'Kia',
  model: 'Rio',
  makeYear: '2019-01-01',
  yearOfRegistration: '2020-01-01',
  capacity: 4,
  grossWeight: 1500,
  netWeight: 1100,
  type: 'taxi',
  fuelCapacity: 45,
  roadWorthyExpiryDate: '2027-06-30',
  insuranceExpiryDate: '2027-06-30',
  vin: '1HGCM82633A004352',
});
const validDriver = (owner: string) => ({
  name: 'Bad Input',
  phone: '0209999999',
  email: 'bad.input@example.com',
  license: 'DL-9999-2021',
  licenseClass: 'B',
  licenseExpiry: '2028-01-10',
  licenseIssueDate: '2021-01-10',
  idType: 'ghana_card',
  idNumber: 'GHA-999',
  gender: 'male',
  ownerID: owner,
  walletAccount: '233209999999',
});

describeOnEachTier('bad input', (tier) => {
  const { running, fixture: f, http } = appOnTier(tier, { fixture: true });
  const counts = async () => {
    const p = running.database.prisma;
    return [await p.vehicle.count(), await p.driver.count(), await p.vehicleOwner.count(), await p.auditEntry.count()];
  };

  async function expectRefused(res: request.Response): Promise<void> {
    if (res.status < 400 || res.status >= 500)
      throw new Error(`expected a 4xx, got ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`);
    expect(res.headers['content-type']).toMatch(PROBLEM);
    expect(res.body).toEqual(
      expect.objectContaining({
        type: expect.any(String),
        title: expect.any(String),
        status: res.status,
        detail: expect.any(String),
      }),
    );
    expect(JSON.stringify(res.body)).not.toMatch(/at \w+ \(|node_modules|Prisma/);
  }

  it.each([
    ['drivers', () => f.ids.workingDriver, CORRECTABLE_DRIVER_FIELDS],
    ['owners', () => f.ids.owners[0], CORRECTABLE_OWNER_FIELDS],
    ['vehicles', () => f.ids.linkedVehicle, CORRECTABLE_VEHICLE_FIELDS],
  ] as const)(
    'refuses null for each correctable field of POST /%s/{id}/correct with a 4xx, changing nothing',
    async (records, id, fields) => {
      // Found by the fuzz tier (FUZZ_SEED=548845635): POST /drivers/{id}/correct with email: null answered 500.
      const base = records === 'owners' ? `/vehicles/owner/${id()}` : `/${records}/${id()}`;
      // Owners have no read route of their own: the stored row is compared.
      const read = async () =>
        records === 'owners'
          ? { ...(await running.database.prisma.vehicleOwner.findUniqueOrThrow({ where: { id: id() } })), __v: 0 }
          : (await http().get(base).set('Authorization', f.keys.admin).expect(200)).body;
      const before = await read();
      const version =
        records === 'owners'
          ? (await running.database.prisma.vehicleOwner.findUniqueOrThrow({ where: { id: id() } })).version
          : before.__v;
      for (const field of fields) {
        const res = await http()
          .post(`${base}/correct`)
          .set('Authorization', f.keys.admin)
          .set('If-Match', String(version))
          .send({ [field]: null });
        await expectRefused(res);
        expect([field, res.status]).toEqual([field, 400]);
      }
      expect(await read()).toEqual(before);
    },
  );

  it('refuses a null transport union on POST /vehicles/{id}/link with a 400 naming it, and changes nothing', async () => {
    // Found by the fuzz tier (FUZZ_SEED=1876406949): null passed @IsOptional and reached the union lookup, a 500.
    const path = `/vehicles/${f.ids.linkedVehicle}`;
    const before = (await http().get(path).set('Authorization', f.keys.admin).expect(200)).body;
    const res = await http()
      .post(`${path}/link`)
      .set('Authorization', f.keys.assembly)
      .set('If-Match', String(before.__v))
      .send({ transportUnion: null });
    await expectRefused(res);
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ field: 'transportUnion', message: expect.stringMatching(/cannot be null/) }]);
    expect((await http().get(path).set('Authorization', f.keys.admin).expect(200)).body).toEqual(before);
  });

  it('refuses every malformed body field of POST /vehicles/add and writes nothing', async () => {
    const before = await counts();
    const fields = Object.keys(validVehicle(f.ids.owners[0]));
    let checked = 0;
    for (const field of fields) {
      for (const value of NASTY) {
        // 0 and 3.14 are fine weights and fuel capacities: the only values skipped, by rule.
        if (
          ['grossWeight', 'netWeight', 'fuelCapacity'].includes(field) &&
          typeof value === 'number' &&
          value >= 0 &&
          value <= 1100
        )
          continue;
        const res = await http()
          .post('/vehicles/add')
          .set('Authorization', f.keys.admin)
          .send({ ...validVehicle(f.ids.owners[0]), [field]: value });
        await expectRefused(res);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(250);
    expect(await counts()).toEqual(before);
  });

  it('refuses every malformed body field of POST /drivers/add and writes nothing', async () => {
    const before = await counts();
    for (const field of Object.keys(validDriver(f.ids.owners[0]))) {
      for (const value of NASTY) {
        const res = await http()
          .post('/drivers/add')
          .send({ ...validDriver(f.ids.owners[0]), [field]: value });
        await expectRefused(res);
      }
    }
    expect(await counts()).toEqual(before);
  });

  it('refuses unknown fields, wrong bodies, malformed JSON, wrong content types and huge bodies', async () => {
    const before = await counts();
    await expectRefused(
      await http()
        .post('/vehicles/add')
        .set('Authorization', f.keys.admin)
        .send({ ...validVehicle(f.ids.owners[0]), isAdmin: true }),
    );
    await expectRefused(
      await http()
        .post('/vehicles/add')
        .set('Authorization', f.keys.admin)
        .send([validVehicle(f.ids.owners[0])]),
    );
    const malformed = await http().post('/drivers/add').set('Content-Type', 'application/json').send('{"name": "x",');
    await expectRefused(malformed);
    expect(malformed.status).toBe(400);
    expect(malformed.body.code).toBe('MALFORMED_JSON');
    const form = await http()
      .post('/drivers/add')
      .set('Content-Type', 'application/x-www-form-urlencoded')
      .send('name=x');
    await expectRefused(form);
    expect(form.status).toBe(415);
    const text = await http()
      .post('/vehicles/add')
      .set('Authorization', f.keys.admin)
      .set('Content-Type', 'text/plain')
      .send('hello');
    expect(text.status).toBe(415);
    const huge = await http()
      .post('/drivers/add')
      .send({ ...validDriver(f.ids.owners[0]), name: 'x'.repeat(200_000) });
    await expectRefused(huge);
    expect(huge.status).toBe(413);
    expect(huge.body.code).toBe('BODY_TOO_LARGE');
    await expectRefused(await http().post('/drivers/add').send());
    expect(await counts()).toEqual(before);
  });

  const queryCases: Array<[string, string, string]> = [
    ['/vehicles/all', 'limit', ''],
    ['/vehicles/all', 'after', ''],
    ['/vehicles/all', 'inspected', ''],
    ['/vehicles/all', 'driver', ''],
    ['/vehicles/all', 'ownerID', ''],
    ['/drivers/all', 'limit', ''],
    ['/drivers/all', 'approved', ''],
    ['/drivers/all', 'after', ''],
    ['/vehicles/owner/all', 'limit', 'admin'],
    ['/vehicles/owner/search?query=kofi', 'limit', 'admin'],
    ['/assembly/all', 'limit', 'admin'],
    ['/assembly/users', 'after', 'admin'],
    ['/trips/intracity/date?startDate=2026-10-15&endDate=2026-10-15', 'limit', 'admin'],
  ];
  const badQueryValues = [
    '0',
    '501',
    '-1',
    '1.5',
    '10abc',
    'abc',
    'TRUE',
    '1',
    'yes',
    "' OR 1=1 --",
    '%00',
    'ffffffffffffffffffffffffff',
    'FFFFFFFFFFFFFFFFFFFFFFFF',
    '🚕',
  ];

  it.each(queryCases)('%s refuses malformed %s values with 400', async (path, param, who) => {
    for (const value of badQueryValues) {
      if ((param === 'limit' && value === '1') || (param === 'approved' || param === 'inspected' ? false : false))
        continue;
      const sep = path.includes('?') ? '&' : '?';
      let req = http().get(`${path}${sep}${param}=${encodeURIComponent(value)}`);
      if (who) req = req.set('Authorization', f.keys.admin);
      const res = await req;
      await expectRefused(res);
      expect(res.status).toBe(400);
    }
  });

  it('refuses repeated, unknown and oversized query parameters', async () => {
    await expectRefused(await http().get('/vehicles/all?limit=5&limit=6'));
    await expectRefused(await http().get('/vehicles/all?sort=desc'));
    await expectRefused(await http().get('/drivers/all?$where=1'));
    await expectRefused(await http().get(`/vehicles/all?registrationNumber=${'x'.repeat(500)}`));
    await expectRefused(
      await http()
        .get(`/vehicles/owner/search?query=${'x'.repeat(101)}`)
        .set('Authorization', f.keys.admin),
    );
    await expectRefused(
      await http().get('/payment/check_transaction?reference=%27%20OR%201%3D1').set('Authorization', f.keys.merchantA),
    );
    await expectRefused(
      await http()
        .get(`/payment/check_transaction?reference=${'r'.repeat(65)}`)
        .set('Authorization', f.keys.merchantA),
    );
    await expectRefused(
      await http()
        .get('/trips/intracity/date?startDate=2026-10-15&endDate=2026-10-15T25:00:00Z')
        .set('Authorization', f.keys.admin),
    );
  });

  it('answers unknown routes and methods with 404 problem+json', async () => {
    await expectRefused(await http().get('/vehicles/nope'));
    await expectRefused(await http().delete('/vehicles/all'));
    expect((await http().get('/../../etc/passwd')).status).toBe(404);
  });
});
