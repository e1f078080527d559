import {
  COMPLIANCE_REASON_CODES,
  DRIVER_STANDINGS,
  OWNER_STANDINGS,
  REGISTRY_KINDS,
  VEHICLE_STANDINGS,
} from '@transport/domain';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { describeApi, type RunningApp } from '../src/app';
import { loadConfig } from '../src/config';
import { openTierStore, startTestApp, WORKSPACE_ROOT, type TierStore } from './support/test-app';

interface LintProblem {
  ruleId: string;
  severity: 'error' | 'warn';
  message: string;
  location: Array<{ pointer: string }>;
}

// The OpenAPI document is generated from the code, committed as apps/api/openapi.json with the client types made from
// it (npm run openapi), checked here to be exactly what the code gives, and must pass Redocly's recommended ruleset.
describe('OpenAPI document', () => {
  let store: TierStore;
  let running: RunningApp;
  let document: {
    paths: Record<string, Record<string, { security?: unknown[]; responses: Record<string, unknown> }>>;
    components: { securitySchemes: Record<string, unknown> };
  };

  beforeAll(async () => {
    store = await openTierStore('embedded');
    running = await startTestApp(store.config());
    document = (await request(running.app.getHttpServer()).get('/docs/openapi.json').expect(200)).body;
  });
  afterAll(async () => {
    await running?.close();
    await store?.dispose();
  });

  const COMMITTED = join(WORKSPACE_ROOT, 'apps', 'api', 'openapi.json');
  type Operation = {
    operationId?: string;
    parameters?: Array<{ $ref?: string; name?: string; in?: string }>;
    security?: unknown[];
    responses: Record<string, { headers?: Record<string, unknown> }>;
  };
  const operationsOf = (doc: typeof document) =>
    Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => ({ path, method, op: op as Operation })),
    );

  it('is what the running app serves, and exactly the committed apps/api/openapi.json (else: npm run openapi)', async () => {
    const offline = await describeApi(store.config());
    expect(document).toEqual(JSON.parse(JSON.stringify(offline)));
    const committed = JSON.parse(readFileSync(COMMITTED, 'utf8'));
    expect(JSON.parse(JSON.stringify(await describeApi(loadConfig({ APP_ROOT: WORKSPACE_ROOT }))))).toEqual(committed);
  });

  it('names every operation with a unique operationId', () => {
    const ids = operationsOf(document).map(({ op }) => op.operationId);
    expect(ids.every((id) => typeof id === 'string' && /^[a-z][A-Za-z]+$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(expect.arrayContaining(['vehiclesList', 'paymentCheck', 'tripsByDate']));
  });

  it('declares the headers clients read: request id everywhere, Link on pages, Retry-After on 429 and 503', () => {
    for (const { path, op } of operationsOf(document)) {
      expect(op.parameters).toContainEqual({ $ref: '#/components/parameters/RequestId' });
      for (const [status, response] of Object.entries(op.responses)) {
        expect(response.headers?.['X-Request-Id']).toEqual({ $ref: '#/components/headers/RequestId' });
        if (status === '429' || (status === '503' && !path.startsWith('/health')))
          expect(response.headers?.['Retry-After']).toEqual({ $ref: '#/components/headers/RetryAfter' });
      }
      if (!path.startsWith('/health')) expect(Object.keys(op.responses)).toContain('503');
      if ((op.security ?? []).some((s) => 'apiKey' in (s as object)))
        expect(Object.keys(op.responses)).toContain('429');
    }
    const list = document.paths['/vehicles/all'].get as unknown as Operation;
    expect(list.responses['200'].headers?.Link).toEqual({ $ref: '#/components/headers/Link' });
    expect(list.responses['200'].headers?.['X-Total-Count']).toEqual({ $ref: '#/components/headers/TotalCount' });
    expect(
      (document.paths['/vehicles/add'].post as unknown as Operation).responses['201'].headers?.Link,
    ).toBeUndefined();
  });

  it('has its TypeScript client types generated from the committed document (else: npm run openapi)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'openapi-client-'));
    try {
      const cli = join(WORKSPACE_ROOT, 'node_modules', 'openapi-typescript', 'bin', 'cli.js');
      const out = join(dir, 'schema.ts');
      const result = spawnSync(process.execPath, [cli, COMMITTED, '--output', out], {
        encoding: 'utf8',
        env: { ...process.env, NODE_OPTIONS: '' },
      });
      expect(result.status).toBe(0);
      const committed = readFileSync(join(WORKSPACE_ROOT, 'libs', 'api-client', 'src', 'schema.ts'), 'utf8');
      expect(readFileSync(out, 'utf8') === committed).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('lists every compliance reason the domain emits, from the same list the code uses', () => {
    const schemas = (
      document.components as unknown as {
        schemas: Record<string, { properties?: Record<string, { enum?: string[] }> }>;
      }
    ).schemas;
    expect(schemas.ComplianceReasonResponse.properties?.code.enum).toEqual([...COMPLIANCE_REASON_CODES]);
    expect(COMPLIANCE_REASON_CODES).toEqual(expect.arrayContaining(['ROADWORTHY_MISSING', 'INSURANCE_MISSING']));
  });

  it("lists every state a search hit can show, from the domain's own lists", () => {
    const schemas = (
      document.components as unknown as {
        schemas: Record<string, { properties?: Record<string, { enum?: string[] }> }>;
      }
    ).schemas;
    expect([...(schemas.SearchHitResponse.properties?.state.enum ?? [])].sort()).toEqual(
      [...new Set([...VEHICLE_STANDINGS, ...DRIVER_STANDINGS, ...OWNER_STANDINGS])].sort(),
    );
    expect(schemas.SearchHitResponse.properties?.kind.enum).toEqual([...REGISTRY_KINDS]);
  });

  it('documents every operation of the interface, with its credential and error responses', () => {
    const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((m) => `${m.toUpperCase()} ${path}`),
    );
    expect(operations).toEqual(
      expect.arrayContaining([
        'GET /vehicles/all',
        'POST /vehicles/add',
        'GET /vehicles/owner/all',
        'GET /vehicles/owner/search',
        'GET /drivers/all',
        'POST /drivers/add',
        'GET /assembly/all',
        'GET /assembly/users',
        'GET /payment/check_transaction',
        'GET /trips/intracity/date',
      ]),
    );
    expect(document.components.securitySchemes.apiKey).toMatchObject({
      type: 'apiKey',
      in: 'header',
      name: 'Authorization',
    });
    expect(document.paths['/payment/check_transaction'].get.security).toEqual([{ apiKey: [] }]);
    expect(Object.keys(document.paths['/payment/check_transaction'].get.responses)).toEqual(
      expect.arrayContaining(['200', '400', '401', '403', '404']),
    );
    // Anonymous allowed; a key, when sent, is used (its role's view).
    expect(document.paths['/vehicles/all'].get.security).toEqual(expect.arrayContaining([{}, { apiKey: [] }]));
  });

  it('passes the Redocly linter with no errors', () => {
    const dir = mkdtempSync(join(tmpdir(), 'openapi-'));
    try {
      const file = join(dir, 'openapi.json');
      writeFileSync(file, JSON.stringify(document));
      const cli = join(WORKSPACE_ROOT, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js');
      const result = spawnSync(process.execPath, [cli, 'lint', file, '--format=json'], {
        encoding: 'utf8',
        env: { ...process.env, NODE_OPTIONS: '', REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      });
      const report = JSON.parse(result.stdout) as { problems: LintProblem[] };
      const summary = report.problems.map((p) => `${p.severity} ${p.ruleId} ${p.location[0]?.pointer}: ${p.message}`);
      expect(summary.filter((s) => s.startsWith('error'))).toEqual([]);
      // The warning left is true: the project has no public licence. (Even the health probes answer a 4xx: a body
      // that is not JSON or too large is refused before any route, fuzz.e2e.spec.ts sends them.)
      expect(summary.sort()).toEqual(['warn info-license #/info: Info object should contain `license` field.']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

// Issue 45, item 3: the two list shapes of the original service (a bare array of vehicles, `{ status, payload }` of
// drivers) were said nowhere; each list's description says its shape, and the committed document types it.
describe('the two list shapes, in the committed OpenAPI document', () => {
  const document = JSON.parse(readFileSync(join(WORKSPACE_ROOT, 'apps', 'api', 'openapi.json'), 'utf8'));
  const list = (path: string) => document.paths[path].get;
  it('describes the vehicle list as a bare array and the driver list as { status, payload }', () => {
    expect(list('/vehicles/all').description).toMatch(/^The body is a bare JSON array of vehicles/);
    expect(list('/drivers/all').description).toMatch(/^The body is `\{ "status": 200, "payload": \[drivers\] \}`/);
    for (const path of ['/vehicles/all', '/drivers/all'])
      expect(list(path).description).toContain('docs/api.md, "Two list shapes"');
    expect(JSON.stringify(list('/vehicles/all').responses['200'])).toContain('"type":"array"');
    expect(JSON.stringify(list('/drivers/all').responses['200'])).toContain('payload');
  });
});
