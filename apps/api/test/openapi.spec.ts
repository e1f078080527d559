import { COMPLIANCE_REASON_CODES } from '@transport/domain';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import type { RunningApp } from '../src/app';
import { openTierStore, startTestApp, WORKSPACE_ROOT, type TierStore } from './support/test-app';

interface LintProblem {
  ruleId: string;
  severity: 'error' | 'warn';
  message: string;
  location: Array<{ pointer: string }>;
}

// The OpenAPI document is generated from the code at run time (nothing committed that could drift) and must pass
// Redocly's recommended ruleset with no errors.
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

  it('lists every compliance reason the domain emits, from the same list the code uses', () => {
    const schemas = (
      document.components as unknown as {
        schemas: Record<string, { properties?: Record<string, { enum?: string[] }> }>;
      }
    ).schemas;
    expect(schemas.ComplianceReasonResponse.properties?.code.enum).toEqual([...COMPLIANCE_REASON_CODES]);
    expect(COMPLIANCE_REASON_CODES).toEqual(expect.arrayContaining(['ROADWORTHY_MISSING', 'INSURANCE_MISSING']));
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
      // The warnings left are all true: the project has no public licence, and the health probes have no 4xx response.
      expect(summary.sort()).toEqual([
        'warn info-license #/info: Info object should contain `license` field.',
        'warn operation-4xx-response #/paths/~1health/get/responses: Operation must have at least one `4XX` response.',
        'warn operation-4xx-response #/paths/~1health~1live/get/responses: Operation must have at least one `4XX` response.',
        'warn operation-4xx-response #/paths/~1health~1ready/get/responses: Operation must have at least one `4XX` response.',
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
