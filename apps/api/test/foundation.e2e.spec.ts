import { spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { HmacSecretHasher } from '@transport/domain/node';
import pg from 'pg';
import request from 'supertest';
import type { RunningApp } from '../src/app';
import { seedDemo } from '../src/persistence/demo-seed';
import { FixedClock, SeededRandomSource } from '@transport/domain/testing';
import { ObjectIdGenerator } from '@transport/domain';
import { postgresAdminUrl } from './support/postgres-tier';
import { ensureAdminKey } from '../src/persistence/admin-key';
import { hashApiKey } from '../src/core/platform/secrets';
import {
  describeOnEachTier,
  openTierStore,
  startTestApp,
  TEST_ACTIVATION_SECRET,
  WORKSPACE_ROOT,
  type TierStore,
} from './support/test-app';

function runPrismaCli(
  args: string[],
  databaseUrl: string | undefined,
  dataDir?: string,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const env: NodeJS.ProcessEnv = { ...process.env, NODE_OPTIONS: '' };
    delete env.DATABASE_URL;
    if (databaseUrl) env.DATABASE_URL = databaseUrl;
    if (dataDir) env.DATA_DIR = dataDir;
    const child = spawn(process.execPath, [require.resolve('prisma/build/index.js'), ...args], {
      cwd: WORKSPACE_ROOT,
      env,
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

describeOnEachTier('workspace foundation', (tier) => {
  let store: TierStore;
  let running: RunningApp | undefined;

  beforeAll(async () => {
    store = await openTierStore(tier);
  });

  afterEach(async () => {
    await running?.close();
    running = undefined;
  });

  afterAll(async () => {
    await store.dispose();
  });

  it('applies the migrations on start, answers /health with 200 and lists the demo vehicles', async () => {
    // The checkout's own demo credentials (npm start's, read by the dashboard's tests) are never rewritten by a test:
    // each writes under its own scratch folder (issue 45, item 11).
    const checkoutCredentials = join(WORKSPACE_ROOT, '.data', 'demo-credentials.json');
    const before = existsSync(checkoutCredentials) ? statSync(checkoutCredentials).mtimeMs : undefined;
    expect(store.config().dataDir.startsWith(WORKSPACE_ROOT)).toBe(false);
    running = await startTestApp(store.config());
    const clock = new FixedClock('2026-11-01T10:00:00Z');
    const seeded = await seedDemo(
      {
        prisma: running.database.prisma,
        ids: new ObjectIdGenerator(clock, new SeededRandomSource(7)),
        random: new SeededRandomSource(70),
        clock,
        hasher: new HmacSecretHasher([TEST_ACTIVATION_SECRET]),
      },
      store.config().dataDir,
    );
    expect(seeded.seeded).toBe(true);
    expect(existsSync(checkoutCredentials) ? statSync(checkoutCredentials).mtimeMs : undefined).toBe(before);
    expect(running.database.kind).toBe(tier);
    // The demo driver's activation key, printed at start, is still valid then (keys work for 24 hours).
    const pending = await running.database.prisma.driver.findFirstOrThrow({
      where: { email: 'fiifi.mensah@example.com' },
    });
    expect(pending.activationKeyExpiresAt.getTime()).toBeGreaterThan(clock.now().getTime() + 20 * 3_600_000);

    const health = await request(running.app.getHttpServer()).get('/health').expect(200);
    expect(health.body).toMatchObject({ status: 'ok', database: { kind: tier, status: 'up' } });
    if (tier === 'embedded') {
      // Its buffers live in the process's memory (embedded-postgres.ts): the smaller setting is the one in force.
      const [setting] = await running.database.prisma.$queryRaw<Array<{ shared_buffers: string }>>`SHOW shared_buffers`;
      expect(setting.shared_buffers).toBe('32MB');
    }

    const vehicles = await request(running.app.getHttpServer()).get('/vehicles/all').expect(200);
    expect(vehicles.body).toHaveLength(6);
    const registrations = vehicles.body.map((v: { registrationNumber: string }) => v.registrationNumber);
    expect(registrations).toEqual(expect.arrayContaining(['GR 1001-24', 'GE 5505-20']));
    const fresh = vehicles.body.find((v: { registrationNumber: string }) => v.registrationNumber === 'GR 1001-24');
    // Anonymous: the public view (no record revision, no links); a fresh vehicle is neither inspected nor approved.
    expect(fresh).toMatchObject({ inspected: false, approved: false });
    for (const absent of [
      'inspectionChecklist',
      'approvedBy',
      'dateApproved',
      'inspectedBy',
      'dateInspected',
      'station',
      'transportUnion',
      'driver',
    ]) {
      expect(fresh).not.toHaveProperty(absent);
    }
  });

  it('keeps data written before a restart and does not seed twice', async () => {
    running = await startTestApp(store.config());
    const before = await running.database.prisma.vehicle.count();
    expect(before).toBe(6);
    const clock = new FixedClock('2026-11-02T10:00:00Z');
    const again = await seedDemo(
      {
        prisma: running.database.prisma,
        ids: new ObjectIdGenerator(clock, new SeededRandomSource(8)),
        random: new SeededRandomSource(80),
        clock,
        hasher: new HmacSecretHasher([TEST_ACTIVATION_SECRET]),
      },
      store.config().dataDir,
    );
    expect(again.seeded).toBe(false);
    const list = await request(running.app.getHttpServer()).get('/vehicles/all').expect(200);
    expect(list.body).toHaveLength(6);
  });

  it('leaves `prisma migrate status` reporting the schema up to date', async () => {
    running = await startTestApp(store.config());
    const config = store.config();
    // Against a running embedded server the CLI finds it through the data directory, as an operator's would.
    const result = await runPrismaCli(
      ['migrate', 'status'],
      config.databaseUrl,
      config.databaseUrl ? undefined : config.dataDir,
    );
    expect(result.output).toContain('Database schema is up to date!');
    expect(result.code).toBe(0);
  });

  it('answers unknown routes with a 404 problem+json body', async () => {
    running = await startTestApp(store.config());
    const res = await request(running.app.getHttpServer()).get('/no/such/route').expect(404);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ status: 404, title: 'Not Found', code: 'ROUTE_NOT_FOUND' });
  });
});

describeOnEachTier('health when the database stops answering', (tier) => {
  it('answers 503 once the database refuses connections', async () => {
    const store = await openTierStore(tier);
    const running = await startTestApp(store.config({ healthTimeoutMs: 1000 }));
    try {
      await request(running.app.getHttpServer()).get('/health').expect(200);
      if (tier === 'postgresql') {
        // Refuse new connections and cut the existing ones: the pool must reconnect and fails.
        const name = new URL(running.database.url).pathname.slice(1);
        const admin = new pg.Client({ connectionString: postgresAdminUrl() });
        await admin.connect();
        await admin.query(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS false`);
        await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [name]);
        await admin.end();
      } else {
        await stopEmbeddedServerOnly(running);
      }
      const res = await request(running.app.getHttpServer()).get('/health').expect(503);
      expect(res.body).toMatchObject({ status: 'unavailable', database: { kind: tier, status: 'down' } });
    } finally {
      await running.close().catch(() => undefined);
      if (tier === 'postgresql') {
        const admin = new pg.Client({ connectionString: postgresAdminUrl() });
        await admin.connect();
        await admin.query(`ALTER DATABASE "${new URL(running.database.url).pathname.slice(1)}" ALLOW_CONNECTIONS true`);
        await admin.end();
      }
      await store.dispose();
    }
  });
});

/** Stops the embedded server under the running app, as a crashed database would go away. */
async function stopEmbeddedServerOnly(running: RunningApp): Promise<void> {
  const embedded = running.database.embedded;
  if (!embedded) throw new Error('expected an app on the embedded database');
  await embedded.stop();
}

describeOnEachTier('ADMIN_API_KEY', (tier) => {
  it('stores only the hash of the configured admin key, once, however often the service starts', async () => {
    const store = await openTierStore(tier);
    const running = await startTestApp(store.config());
    try {
      const ids = new ObjectIdGenerator(new FixedClock('2026-11-01T00:00:00Z'), new SeededRandomSource(5));
      const key = 'k'.repeat(20) + 'x'.repeat(20);
      const at = new Date('2026-11-01T00:00:00Z');
      expect(await ensureAdminKey(running.database.prisma, ids, key, at)).toBe('created');
      expect(await ensureAdminKey(running.database.prisma, ids, key, at)).toBe('present');
      const rows = await running.database.prisma.apiKey.findMany();
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ role: 'admin', keyHash: hashApiKey(key) });
      expect(JSON.stringify(rows)).not.toContain(key);
      await expect(ensureAdminKey(running.database.prisma, ids, 'short', at)).rejects.toThrow(/at least 32/);
    } finally {
      await running.close();
      await store.dispose();
    }
  });
});
