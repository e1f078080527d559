import { mkdtemp, mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import type { RunningApp } from '../src/app';
import { describeOnEachTier, openTierStore, startTestApp, type TierStore } from './support/test-app';

const PROBLEM = /^application\/problem\+json/;
const SECRET = 'package.json beside the dashboard: must never be served';

/**
 * Every refusal is a problem (issue 42): the ones Fastify and its static-file plugin make themselves (an unparsable
 * Content-Type, a path the plugin finds forbidden, an error raised in a hook of the dashboard's scope) as much as the
 * API's own, with our `code` and the request's id.
 */
describeOnEachTier('refusals: every one in the problem format', (tier) => {
  let store: TierStore;
  let running: RunningApp;
  let appRoot: string;
  let base: string;
  const http = () => request(running.app.getHttpServer());

  /** A problem with our code, naming its request in the header and in `instance`. */
  const expectProblem = (res: { status: number; headers: Record<string, unknown>; body: unknown }, status: number) => {
    const body = res.body as { status?: number; code?: string; instance?: string };
    expect({ status: res.status, type: res.headers['content-type'] }).toEqual({
      status,
      type: expect.stringMatching(PROBLEM),
    });
    expect(body.status).toBe(status);
    expect(body.code).toMatch(/^[A-Z_]+$/);
    expect(body.instance).toBe(`urn:transport:request:${String(res.headers['x-request-id'])}`);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  };

  /** A request sent byte for byte as given (supertest and fetch normalise paths and methods). */
  const raw = (method: string, path: string, headers: Record<string, string> = {}, body?: string) =>
    new Promise<{ status: number; headers: Record<string, unknown>; text: string; body: unknown }>(
      (resolve, reject) => {
        const length = body === undefined ? {} : { 'Content-Length': String(Buffer.byteLength(body)) };
        const req = httpRequest(`${base}${path}`, { method, headers: { ...headers, ...length } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            let parsed: unknown;
            try {
              parsed = text ? JSON.parse(text) : undefined;
            } catch {
              parsed = text;
            }
            resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body: parsed });
          });
        });
        req.on('error', reject);
        req.end(body);
      },
    );

  beforeAll(async () => {
    // A built dashboard in an app root of its own, with a file beside it that a traversal would reach.
    appRoot = await mkdtemp(join(tmpdir(), 'transport-refusals-'));
    await mkdir(join(appRoot, 'dashboard'));
    await writeFile(join(appRoot, 'dashboard', 'index.html'), '<title>Assembly dashboard</title>');
    await writeFile(join(appRoot, 'dashboard', 'main-ABCDEFGH.js'), 'console.log(1);');
    await writeFile(join(appRoot, 'package.json'), JSON.stringify({ secret: SECRET }));
    // The migrations, which the service reads at start to tell whether the schema is behind the code (readiness).
    await symlink(join(__dirname, '..', '..', '..', 'prisma'), join(appRoot, 'prisma'), 'dir');
    store = await openTierStore(tier);
    running = await startTestApp(store.config({ appRoot, migrateOnStart: false }));
    const server = running.app.getHttpServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await running?.close();
    await store?.dispose();
    if (appRoot) await rm(appRoot, { recursive: true, force: true });
  });

  it('serves the dashboard it refuses around (the probes below reach the static files)', async () => {
    expect((await http().get('/dashboard/').expect(200)).text).toContain('Assembly dashboard');
    await http().get('/dashboard/main-ABCDEFGH.js').expect(200);
  });

  it('refuses a Content-Type that is not one media type with a 415 problem, the body unread', async () => {
    for (const type of [
      'application/json, text/plain',
      'application/json,application/json',
      '"application/json"',
      '/json',
      'application/',
      'text/plain',
      'application/jsonx',
    ]) {
      const res = await raw('POST', '/auth/sign-in', { 'Content-Type': type }, '{"email":"a@b.c","password":"x"}');
      expectProblem(res, 415);
      expect({ type, code: (res.body as { code: string }).code }).toEqual({ type, code: 'UNSUPPORTED_MEDIA_TYPE' });
    }
    // The API's own JSON with parameters still reads.
    const ok = await raw('POST', '/auth/sign-in', { 'Content-Type': 'application/json; charset=utf-8' }, '{}');
    expect(ok.status).toBe(400);
  });

  it('refuses every traversal out of the dashboard folder as a problem, and never serves what lies beside it', async () => {
    for (const path of [
      '/dashboard/..%5c..%5cpackage.json',
      '/dashboard/..%5cpackage.json',
      '/dashboard/..%5C..%5Cpackage.json',
      '/dashboard/%2e%2e%5c%2e%2e%5cpackage.json',
      '/dashboard/..%255c..%255cpackage.json',
      '/dashboard/%2e%2e/package.json',
      '/dashboard/%2e%2e%2fpackage.json',
      '/dashboard/..%2f..%2fpackage.json',
      '/dashboard/..%2fpackage.json',
      '/dashboard/.%2e/package.json',
      '/dashboard/..\\package.json',
      '/dashboard/%c0%ae%c0%ae/package.json',
      '/dashboard/..;/package.json',
      '/dashboard//../package.json',
    ]) {
      for (const method of ['GET', 'HEAD']) {
        const res = await raw(method, path);
        expect({ path, method, leaked: res.text.includes(SECRET) }).toEqual({ path, method, leaked: false });
        expect({ path, method, status: res.status }).toEqual({ path, method, status: expect.any(Number) });
        expect(res.status).toBeGreaterThanOrEqual(400);
        expect({ path, method, type: res.headers['content-type'] }).toEqual({
          path,
          method,
          type: expect.stringMatching(PROBLEM),
        });
        if (method === 'GET') expectProblem(res, res.status);
      }
    }
  });

  it('refuses a NUL character in a dashboard path with our 400 problem, as it does in the API paths', async () => {
    for (const path of ['/dashboard/index.html%00.js', '/dashboard/%00', '/dashboard/main-ABCDEFGH.js%00']) {
      const res = await raw('GET', path);
      expectProblem(res, 400);
      expect((res.body as { code: string }).code).toBe('VALIDATION_FAILED');
      const head = await raw('HEAD', path);
      expect({ path, status: head.status, type: head.headers['content-type'] }).toEqual({
        path,
        status: 400,
        type: expect.stringMatching(PROBLEM),
      });
    }
  });

  it("answers the static files' own refusals (a range past the end, a failed precondition) with problems", async () => {
    const range = await raw('GET', '/dashboard/main-ABCDEFGH.js', { Range: 'bytes=99999-99999' });
    expectProblem(range, 416);
    expect((range.body as { code: string }).code).toBe('RANGE_NOT_SATISFIABLE');
    const precondition = await raw('GET', '/dashboard/main-ABCDEFGH.js', { 'If-Match': '"not-this-one"' });
    expectProblem(precondition, 412);
    expect((precondition.body as { code: string }).code).toBe('PRECONDITION_FAILED');
  });

  it('answers a missing dashboard file, a bad method and an unknown method with problems', async () => {
    const missing = await raw('GET', '/dashboard/nothing-here.js');
    expectProblem(missing, 404);
    for (const [method, path] of [
      ['DELETE', '/dashboard/index.html'],
      ['POST', '/dashboard/'],
      ['PUT', '/vehicles/all'],
      ['PROPFIND', '/vehicles/all'],
      ['PROPFIND', '/dashboard/'],
      ['TRACE', '/vehicles/all'],
      ['PATCH', '/dashboard/index.html'],
    ]) {
      const res = await raw(method, path, { 'Content-Type': 'application/json' }, '{}');
      expect({ method, path, status: res.status }).toEqual({ method, path, status: 404 });
      expectProblem(res, 404);
      expect((res.body as { code: string }).code).toBe('ROUTE_NOT_FOUND');
    }
    // A method Node's parser does not know never reaches Fastify: clientError answers it (no request, so no id).
    const unknown = await raw('FOOBAR', '/vehicles/all');
    expect({ status: unknown.status, type: unknown.headers['content-type'] }).toEqual({
      status: 400,
      type: expect.stringMatching(PROBLEM),
    });
    expect(unknown.body).toMatchObject({ status: 400, code: 'MALFORMED_REQUEST' });
  });
});
