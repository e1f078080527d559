import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import type { RunningApp } from '../src/app';
import { startService } from './support/service-process';
import { describeOnPostgres } from './support/postgres-only';
import { createScratchDatabase } from './support/postgres-tier';
import { describeOnEachTier, openTierStore, startTestApp, WORKSPACE_ROOT, type TierStore } from './support/test-app';

describe('liveness and readiness [embedded]', () => {
  let store: TierStore;
  let running: RunningApp;

  beforeAll(async () => {
    store = await openTierStore('embedded');
    running = await startTestApp(store.config());
  });
  afterAll(async () => {
    await running?.close().catch(() => undefined); // its database was stopped on purpose
    await store?.dispose();
  });

  it('stays live while the database is down, and is not ready then', async () => {
    const http = () => request(running.app.getHttpServer());
    expect((await http().get('/health/live').expect(200)).body.status).toBe('ok');
    const ready = (await http().get('/health/ready').expect(200)).body;
    expect(ready).toMatchObject({
      status: 'ok',
      details: { database: { status: 'up', kind: 'embedded' }, jobs: { status: 'up' }, accepting: { status: 'up' } },
    });

    await running.database.embedded!.stop();
    expect((await http().get('/health/live').expect(200)).body.status).toBe('ok');
    const down = (await http().get('/health/ready').expect(503)).body;
    expect(down).toMatchObject({ status: 'error', error: { database: { status: 'down' } } });
  });
});

// MIGRATE_ON_START=false (the Kubernetes pods): a release whose migrations were not applied must not take traffic on the
// old schema in silence (issue 45, item 9). The database is put one migration behind the code by removing the newest
// migration's record, as if the migration Job had not run.
describeOnEachTier('readiness while the schema is behind the code', (tier) => {
  let store: TierStore;
  let running: RunningApp | undefined;
  const newest = readdirSync(join(WORKSPACE_ROOT, 'prisma', 'migrations'), { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort()
    .at(-1)!;

  beforeAll(async () => {
    store = await openTierStore(tier);
  });
  afterAll(async () => {
    await running?.close();
    await store?.dispose();
  });

  it('answers 503 naming the unapplied migration and how to apply it, then 200 once it is applied', async () => {
    const config = store.config({ migrateOnStart: false });
    const first = await startTestApp(config);
    const { rows } = await first.database.pool.query(
      'DELETE FROM _prisma_migrations WHERE migration_name = $1 RETURNING *',
      [newest],
    );
    await first.close();
    expect(rows).toHaveLength(1);

    running = await startTestApp(config);
    const http = () => request(running!.app.getHttpServer());
    const behind = (await http().get('/health/ready').expect(503)).body;
    expect(behind).toMatchObject({ status: 'error', error: { schema: { status: 'down' } } });
    expect(behind.error.schema.message).toContain(newest);
    expect(behind.error.schema.message).toContain('prisma migrate deploy');
    expect(behind.error.schema.pending).toEqual([newest]);
    // Liveness is not readiness: the process is fine, it only must not get traffic.
    await http().get('/health/live').expect(200);

    const row = rows[0];
    await running.database.pool.query(
      `INSERT INTO _prisma_migrations (id, checksum, finished_at, migration_name, logs, rolled_back_at, started_at,
         applied_steps_count) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [
        row.id,
        row.checksum,
        row.finished_at,
        row.migration_name,
        row.logs,
        row.rolled_back_at,
        row.started_at,
        row.applied_steps_count,
      ],
    );
    const ready = (await http().get('/health/ready').expect(200)).body;
    expect(ready.details.schema).toEqual({ status: 'up' });
  });
});

describeOnPostgres('SIGTERM: readiness fails first, in-flight requests finish, then the process exits', () => {
  it('serves every request sent before and during the drain, answers 503 on readiness meanwhile, and exits 0', async () => {
    const database = await createScratchDatabase('drain');
    const service = await startService(join(WORKSPACE_ROOT, 'dist', 'apps', 'api', 'main.js'), {
      cwd: WORKSPACE_ROOT,
      env: {
        ...process.env,
        DATABASE_URL: database.url,
        PORT: '0',
        // Long enough for the 40 requests sent just before SIGTERM to reach the service on a loaded machine: once the
        // drain ends, Node's server.close() drops every connection with no request parsed yet, as idle (a fresh
        // connection whose request was still in the kernel's buffer then failed the client with "other side closed").
        SHUTDOWN_DELAY_MS: '4000',
        METRICS_PORT: '0',
        NODE_OPTIONS: '',
      },
    }).catch(async (error: unknown) => {
      await database.drop();
      throw error;
    });
    const { child, base, exited } = service;
    try {
      expect((await fetch(`${base}/health/ready`)).status).toBe(200);
      const refused = await fetch(`${base}/vehicles/owner/all`, { headers: { 'X-Request-Id': 'abc' } });
      expect(await refused.json()).toMatchObject({ status: 401, instance: 'urn:transport:request:abc' });
      const inFlight = Array.from({ length: 40 }, () => fetch(`${base}/vehicles/all?limit=50`).then((r) => r.status));
      child.kill('SIGTERM');
      await new Promise((r) => setTimeout(r, 300));
      expect((await fetch(`${base}/health/ready`)).status).toBe(503);
      expect((await fetch(`${base}/health/live`)).status).toBe(200);
      const duringDrain = await fetch(`${base}/vehicles/all?limit=1`);
      expect(duringDrain.status).toBe(200);
      expect(await Promise.all(inFlight)).toEqual(Array(40).fill(200));
      expect(await exited).toBe(0);
      expect(service.output()).toContain('draining for 4000 ms');
      // Everything the service wrote is JSON lines, the access log among them (with the client's request id).
      const lines = service
        .output()
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as { req?: { id: string }; res?: { statusCode: number } });
      expect(lines.find((l) => l.req?.id === 'abc')).toMatchObject({ res: { statusCode: 401 } });
    } finally {
      child.kill('SIGKILL');
      await database.drop();
    }
  });
});
