import request from 'supertest';
import type { RunningApp } from '../src/app';
import { loadApiFixture, type ApiFixture } from './support/api-fixtures';
import { describeOnEachTier, openTierStore, startTestApp, type TierStore } from './support/test-app';

const PROBLEM = /^application\/problem\+json/;

/**
 * Probes that once answered 500, ended the process or left the service answering 500 (issue 28): NUL characters,
 * impossible years, bodies nested thousands deep, and the refusals that came before a request had an id.
 */
describeOnEachTier('malformed input', (tier) => {
  let store: TierStore;
  let running: RunningApp;
  let f: ApiFixture;
  const http = () => request(running.app.getHttpServer());

  /** A 4xx problem that names its request, in the header and in `instance`. */
  const expectNamedProblem = (res: request.Response, status: number) => {
    expect(res.status).toBe(status);
    expect(res.headers['content-type']).toMatch(PROBLEM);
    const id = res.headers['x-request-id'];
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.body.instance).toBe(`urn:transport:request:${id}`);
  };

  beforeAll(async () => {
    store = await openTierStore(tier);
    // The global request limit on, as in production: its counter (a named prepared statement) is what a poisoned pool
    // broke first. Under 200 a minute it is counted exactly, so every anonymous request reaches the database.
    running = await startTestApp(store.config({ rateLimit: { perKeyPerMinute: 3000, perAddressPerMinute: 190 } }));
    f = await loadApiFixture(running.database);
  });
  afterAll(async () => {
    await running?.close();
    await store?.dispose();
  });

  it('refuses a NUL character in a list filter with a 400, the total asked for or not', async () => {
    for (const url of [
      '/vehicles/all?registrationNumber=x%00y&count=true',
      '/vehicles/all?registrationNumber=x%00y',
      '/drivers/all?email=a%00b@example.com&count=true',
    ]) {
      const res = await http().get(url);
      expectNamedProblem(res, 400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
    }
    const search = await http()
      .get('/vehicles/owner/search?query=ab%00c&count=true')
      .set('Authorization', f.keys.admin);
    expectNamedProblem(search, 400);
    await http().get('/vehicles/all?limit=1').expect(200);
  });

  it('refuses a NUL character in a body field, naming the field, and writes nothing', async () => {
    const merchants = await running.database.prisma.merchant.count();
    const merchant = await http()
      .post('/admin/merchants/add')
      .set('Authorization', f.keys.admin)
      .send({ name: 'Kumasi\u0000Rides' });
    expectNamedProblem(merchant, 400);
    expect(merchant.body.errors).toEqual([{ field: 'name', message: 'must not contain a NUL character' }]);
    expect(await running.database.prisma.merchant.count()).toBe(merchants);
    const key = await http()
      .post('/admin/keys')
      .set('Authorization', f.keys.admin)
      .send({ role: 'merchant', principal: f.ids.merchantA, label: 'till\u00001' });
    expectNamedProblem(key, 400);
    expect(key.body.errors[0].field).toBe('label');
  });

  it('refuses a lone surrogate in a body field with a 400 naming the field (validator.js threw on it: a 500)', async () => {
    const users = await running.database.prisma.assemblyUser.count();
    const res = await http()
      .post('/assembly/users/add')
      .set('Authorization', f.keys.admin)
      .send({ assembly: f.ids.assembly, name: 'Esi Lone', email: '\ud800', phone: '0244000998', role: 'admin' });
    expectNamedProblem(res, 400);
    expect(res.body.errors).toEqual([{ field: 'email', message: expect.stringMatching(/lone surrogate/) }]);
    expect(await running.database.prisma.assemblyUser.count()).toBe(users);
    // A pair is a character like any other.
    const paired = await http()
      .post('/admin/merchants/add')
      .set('Authorization', f.keys.admin)
      .send({ name: 'Kumasi Rides \ud83d\ude95' });
    expect(paired.status).not.toBe(500);
  });

  it('refuses a body nested 5,000 deep with a 400 (not a stack overflow) and goes on serving', async () => {
    const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
    for (const path of ['/vehicles/add', '/admin/merchants/add', '/auth/sign-in']) {
      const res = await http()
        .post(path)
        .set('Authorization', f.keys.admin)
        .set('Content-Type', 'application/json')
        .send(deep);
      expectNamedProblem(res, 400);
      expect(res.body.code).toBe('BAD_BODY');
    }
    const nestedObject = JSON.stringify({ name: JSON.parse(`${'{"a":'.repeat(40)}1${'}'.repeat(40)}`) });
    const res = await http()
      .post('/admin/merchants/add')
      .set('Authorization', f.keys.admin)
      .set('Content-Type', 'application/json')
      .send(nestedObject);
    expectNamedProblem(res, 400);
    await http().get('/vehicles/all?limit=1').expect(200);
  });

  it('refuses years the database cannot hold in date filters, and every request after is still served', async () => {
    for (const url of ['/audit/entries?from=0000-01-01', '/audit/entries?to=0000-12-31T23:00:00Z']) {
      const res = await http().get(url).set('Authorization', f.keys.admin);
      expectNamedProblem(res, 400);
      expect(res.body.errors[0].field).toMatch(/^(from|to)$/);
    }
    const trips = await http()
      .get('/trips/intracity/date?startDate=0000-01-01&endDate=0000-01-02')
      .set('Authorization', f.keys.admin);
    expectNamedProblem(trips, 400);
    for (const url of ['/audit/entries?from=275760-09-13', '/audit/entries?from=+275760-09-13T00:00:00Z']) {
      expectNamedProblem(await http().get(url).set('Authorization', f.keys.admin), 400);
    }
    for (let i = 0; i < 5; i++) {
      await http().get('/vehicles/all?limit=1').expect(200);
      await http().get('/drivers/all?limit=1').expect(200);
      await http().get('/admin/keys').set('Authorization', f.keys.admin).expect(200);
    }
  });

  it('keeps serving after a failed query or a lost connection replaces the pooled connection', async () => {
    await http().get('/vehicles/all?limit=1').expect(200);
    // A query the database refuses, on the app's own pool (as a validation gap would send one): the pool drops that
    // connection and opens another.
    await expect(running.database.pool.query('SELECT 1/0')).rejects.toThrow();
    for (let i = 0; i < 3; i++) await http().get('/vehicles/all?limit=1').expect(200);
    // A connection lost outright.
    (await running.database.pool.connect()).release(new Error('connection lost'));
    for (let i = 0; i < 3; i++) {
      await http().get('/vehicles/all?limit=1').expect(200);
      await http().get('/drivers/all?limit=1').expect(200);
    }
    await http().get('/health/ready').expect(200);
  });

  if (tier === 'embedded') {
    it('reports not ready while the pooled connection cannot run prepared statements, and ready once replaced', async () => {
      // The embedded server shares one session between its connections: a statement prepared under the name the pool
      // will use is what a connection replaced without forgetting its predecessor's statements meets.
      (await running.database.pool.connect()).release(new Error('connection lost'));
      await running.database.pool.query('SELECT 1'); // a new connection, open and idle in the pool
      await running.database.prisma.$executeRawUnsafe('PREPARE "health:ping" AS SELECT 1');
      const ready = await http().get('/health/ready').expect(503);
      expect(ready.body.error.database.message).toMatch(/already exists/);
      (await running.database.pool.connect()).release(new Error('connection lost'));
      await http().get('/health/ready').expect(200);
    });
  }

  it('names the request in the malformed-JSON, body-too-large and bad-path-encoding answers', async () => {
    const malformed = await http()
      .post('/vehicles/add')
      .set('Authorization', f.keys.admin)
      .set('Content-Type', 'application/json')
      .send('{"ownerID":');
    expectNamedProblem(malformed, 400);
    expect(malformed.body.code).toBe('MALFORMED_JSON');
    const large = await http()
      .post('/vehicles/add')
      .set('Authorization', f.keys.admin)
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ make: 'x'.repeat(200_000) }));
    expectNamedProblem(large, 413);
    expect(large.body.code).toBe('BODY_TOO_LARGE');
    const badPath = await http().get('/vehicles/%E0%A4%A');
    expectNamedProblem(badPath, 400);
    const chosen = await http().get('/vehicles/%E0%A4%A').set('X-Request-Id', 'client-chosen-1');
    expect(chosen.headers['x-request-id']).toBe('client-chosen-1');
    expect(chosen.body.instance).toBe('urn:transport:request:client-chosen-1');
  });

  it('checks the content type of a body whatever the query string says', async () => {
    const res = await http()
      .post('/vehicles/add?next=/payment/callback/anything')
      .set('Authorization', f.keys.admin)
      .set('Content-Type', 'text/plain')
      .send('ownerID=x');
    expectNamedProblem(res, 415);
  });
});
