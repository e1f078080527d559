import request from 'supertest';
import { request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from '../src/generated/prisma/client';
import { sqlOn } from '../src/persistence/prisma-executor';
import type { RunningApp } from '../src/app';
import { createRootLogger } from '../src/core/observability/logging';
import { loadApiFixture, type ApiFixture } from './support/api-fixtures';
import { describeOnPostgres } from './support/postgres-only';
import { openTierStore, startTestApp, type TierStore } from './support/test-app';
import { createApp } from '../src/app';
import { databaseUnavailable } from '../src/core/http/problem.filter';

/** What the service wrote, one parsed JSON object per line (a line that is not JSON fails the parse, and the test). */
class CapturedLog {
  readonly raw: string[] = [];
  write(line: string): void {
    this.raw.push(line);
  }
  get lines(): Array<{ level: unknown; time: unknown; context?: string; req?: unknown; res?: unknown }> {
    return this.raw.map((line) => JSON.parse(line));
  }
  accessLines(): Array<{ req: { id: string; method: string; url: string }; res: { statusCode: number } }> {
    return this.lines.filter((l) => l.req && l.res) as never;
  }
}

describeOnPostgres('logs: JSON lines, an access log with request ids, nothing secret or personal', () => {
  let store: TierStore;
  let running: RunningApp;
  let f: ApiFixture;
  const log = new CapturedLog();
  const http = () => request(running.app.getHttpServer());

  beforeAll(async () => {
    store = await openTierStore('postgresql');
    running = await createApp(store.config({ logLevel: 'info' }), { logger: createRootLogger('info', log) });
    f = await loadApiFixture(running.database);
  });
  afterAll(async () => {
    await running?.close();
    await store?.dispose();
  });

  it("carries the client's X-Request-Id into the response, the access log and the problem's instance", async () => {
    const res = await http()
      .get('/vehicles/65a0000000000000000000ff')
      .set('X-Request-Id', 'abc')
      .set('Authorization', f.keys.admin)
      .expect(404);
    expect(res.headers['x-request-id']).toBe('abc');
    expect(res.body).toMatchObject({ status: 404, instance: 'urn:transport:request:abc' });
    const line = log.accessLines().find((l) => l.req.id === 'abc');
    expect(line).toMatchObject({
      level: 30,
      req: { method: 'GET', url: '/vehicles/65a0000000000000000000ff' },
      res: { statusCode: 404 },
      responseTime: expect.any(Number),
    });
  });

  it('gives a request without an id a new one, the same in the header and in the log', async () => {
    const res = await http().get('/vehicles/all?limit=1').expect(200);
    const id = res.headers['x-request-id'];
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(log.accessLines().find((l) => l.req.id === id)).toMatchObject({ req: { url: '/vehicles/all?limit=1' } });
  });

  it('never logs an API key, a callback token, an email or a searched-for name', async () => {
    await http().get('/drivers/all?email=ama.secret%40example.com').set('Authorization', f.keys.admin).expect(200);
    await http().get('/vehicles/owner/search?query=Yirenkyi').set('Authorization', f.keys.admin).expect(200);
    await http().post('/payment/callback/TOKENtokenTOKENtoken1234').send({}).expect(404);
    await http().get('/admin/keys').set('Authorization', 'Bearer tp_admin_not_a_real_key_0123456789').expect(401);
    const all = log.raw.join('\n');
    for (const secret of [
      f.keys.admin,
      'tp_admin_not_a_real_key',
      'TOKENtokenTOKENtoken1234',
      'ama.secret',
      'Yirenkyi',
    ])
      expect(all).not.toContain(secret);
    const urls = log.accessLines().map((l) => l.req.url);
    expect(urls).toContain('/drivers/all?email=[redacted]');
    expect(urls).toContain('/vehicles/owner/search?query=[redacted]');
    expect(urls).toContain('/payment/callback/[redacted]');
  });

  it('puts the request id on the lines Nest writes while serving it, after its body is read too', async () => {
    // A refused sign-in: a POST whose body is read before the service logs the event, sent whole and sent in two
    // parts (the body a moment after the headers: Node reads it in another async context than the request's hooks).
    await http()
      .post('/auth/sign-in')
      .set('X-Request-Id', 'sign-in-1')
      .send({ email: 'nobody@example.com', password: 'not the password' })
      .expect(401);
    const server = running.app.getHttpServer() as Server;
    if (!server.listening) await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
    const body = JSON.stringify({ email: 'nobody@example.com', password: 'not the password either' });
    const status = await new Promise<number>((answered, failed) => {
      const slow = httpRequest({
        port: (server.address() as AddressInfo).port,
        host: '127.0.0.1',
        method: 'POST',
        path: '/auth/sign-in',
        headers: { 'content-type': 'application/json', 'content-length': body.length, 'x-request-id': 'sign-in-2' },
      });
      slow.on('response', (res) => answered(res.resume().statusCode ?? 0)).on('error', failed);
      slow.flushHeaders();
      setTimeout(() => slow.end(body), 100);
    });
    expect(status).toBe(401);
    const events = log.lines.filter((l) => (l as { event?: string }).event === 'sign_in_refused');
    expect(events).toEqual([
      expect.objectContaining({ context: 'Events', req: { id: 'sign-in-1' } }),
      expect.objectContaining({ context: 'Events', req: { id: 'sign-in-2' } }),
    ]);
    // Lines written outside any request (start-up) carry none.
    expect(log.lines.find((l) => l.context === 'NestApplication')?.req).toBeUndefined();
  });

  it("writes every line as JSON, Nest's own start-up messages included", () => {
    expect(log.raw.length).toBeGreaterThan(10);
    const lines = log.lines; // throws on a line that is not JSON
    expect(lines.every((l) => typeof l.level === 'number' && typeof l.time === 'string')).toBe(true);
    expect(lines.some((l) => l.context === 'NestApplication')).toBe(true);
  });
});

describeOnPostgres('the global request limit, shared by every instance', () => {
  let store: TierStore;
  let first: RunningApp;
  let second: RunningApp;
  let f: ApiFixture;

  beforeAll(async () => {
    store = await openTierStore('postgresql');
    const config = store.config({ rateLimit: { perKeyPerMinute: 6, perAddressPerMinute: 4 } });
    first = await startTestApp(config);
    second = await startTestApp(config);
    f = await loadApiFixture(first.database);
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
    await store?.dispose();
  });

  it('counts one address across both instances, then answers 429 with Retry-After', async () => {
    const statuses = [];
    for (const app of [first, second, first, second, first, second])
      statuses.push((await request(app.app.getHttpServer()).get('/drivers/all?limit=1')).status);
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
    const refused = await request(second.app.getHttpServer()).get('/vehicles/all?limit=1').expect(429);
    expect(refused.body).toMatchObject({ code: 'RATE_LIMITED', detail: expect.stringContaining('from this address') });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  });

  it('counts a key on its own (not on its address), across both instances', async () => {
    const statuses = [];
    for (let i = 0; i < 8; i++)
      statuses.push(
        (
          await request((i % 2 ? first : second).app.getHttpServer())
            .get('/vehicles/owner/all?limit=1')
            .set('Authorization', f.keys.assembly)
        ).status,
      );
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 429, 429]);
    // Another key is not held back by the first one's use.
    await request(first.app.getHttpServer())
      .get('/vehicles/owner/all?limit=1')
      .set('Authorization', f.keys.admin)
      .expect(200);
  });

  it('keeps the counters in an unlogged table: a counted request writes nothing to the write-ahead log', async () => {
    const [table] = await first.database.prisma.$queryRaw<Array<{ persistence: string }>>`
      SELECT relpersistence::text AS persistence FROM pg_class WHERE relname = 'rate_limits'`;
    expect(table.persistence).toBe('u');
  });

  it('leaves health probes out of the count', async () => {
    for (let i = 0; i < 6; i++) await request(first.app.getHttpServer()).get('/health/live').expect(200);
  });
});

describeOnPostgres('database timeouts', () => {
  let store: TierStore;
  let running: RunningApp;
  let f: ApiFixture;

  beforeAll(async () => {
    store = await openTierStore('postgresql');
    running = await startTestApp(
      store.config({ databasePoolSize: 1, databaseTimeouts: { poolWaitMs: 200, statementMs: 500 } }),
    );
    f = await loadApiFixture(running.database);
  });
  afterAll(async () => {
    await running?.close();
    await store?.dispose();
  });

  it('answers 503 with Retry-After when no connection frees up within DATABASE_POOL_WAIT_MS, then recovers', async () => {
    const held = await running.database.pool.connect();
    try {
      for (const path of ['/vehicles/all?limit=1', `/vehicles/${f.ids.linkedVehicle}`]) {
        const res = await request(running.app.getHttpServer()).get(path).set('Authorization', f.keys.admin).expect(503);
        expect(res.body).toMatchObject({ code: 'DATABASE_UNAVAILABLE', status: 503 });
        expect(res.headers['retry-after']).toBe('1');
      }
    } finally {
      held.release();
    }
    await request(running.app.getHttpServer())
      .get('/vehicles/all?limit=1')
      .set('Authorization', f.keys.admin)
      .expect(200);
  });

  it('has PostgreSQL cancel a statement past DATABASE_STATEMENT_TIMEOUT_MS, which the API answers as 503', async () => {
    const started = Date.now();
    const error = await running.database.pool.query('SELECT pg_sleep(5)').catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(3000);
    expect(error).toMatchObject({ code: '57014' });
    expect(databaseUnavailable(error)).toBe(true);
    // The same through Prisma's driver adapter, as a repository would meet it.
    const viaPrisma = await running.database.prisma.$queryRaw`SELECT pg_sleep(5)`.catch((e: unknown) => e);
    expect(databaseUnavailable(viaPrisma)).toBe(true);
  });
});

describe('a database that refuses connections', () => {
  it('is a 503, not a 500: Prisma names the refusal, for its models and for the lists alike', async () => {
    // Nothing listens on port 1: every connection is refused at once.
    const pool = new pg.Pool({ host: '127.0.0.1', port: 1, user: 'postgres', database: 'none' });
    const db = new PrismaClient({ adapter: new PrismaPg(pool) });
    try {
      const viaList = await sqlOn(db)
        .selectFrom('vehicles')
        .selectAll()
        .execute()
        .catch((e: unknown) => e);
      const viaModel = await db.vehicle.findMany().catch((e: unknown) => e);
      expect(databaseUnavailable(viaList)).toBe(true);
      expect(databaseUnavailable(viaModel)).toBe(true);
    } finally {
      await db.$disconnect();
      await pool.end();
    }
  });
});
