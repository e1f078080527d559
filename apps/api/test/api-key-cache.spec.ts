import request from 'supertest';
import type { RunningApp } from '../src/app';
import { hashApiKey } from '../src/core/platform/secrets';
import { openDatabase, type Database } from '../src/persistence/database';
import { KeyChangeListener } from '../src/persistence/key-changes';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from '../src/generated/prisma/client';
import { ApiKeyStore } from '../src/persistence/prisma-api-key.store';
import { sqlOn } from '../src/persistence/prisma-executor';
import { loadApiFixture, type ApiFixture } from './support/api-fixtures';
import { describeOnPostgres } from './support/postgres-only';
import { openTierStore, startTestApp, type TierStore } from './support/test-app';

const TTL_MS = 5000;

/** Waits until `check` holds, for at most a second (a notice from PostgreSQL takes milliseconds). */
async function eventually(check: () => Promise<boolean>): Promise<boolean> {
  for (let waited = 0; waited < 1000; waited += 10) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return check();
}

describeOnPostgres('API keys kept between requests, and forgotten when any key changes', () => {
  let tier: TierStore;
  let database: Database;
  let f: ApiFixture;
  let changes: KeyChangeListener;
  let now: Date;
  let lookups = 0;
  let keys: ApiKeyStore;
  // A client of the app's kind on the same pool, whose Kysely counts the statements that read a key.
  let counted: PrismaClient;

  beforeAll(async () => {
    tier = await openTierStore('postgresql');
    database = await openDatabase(tier.config());
    f = await loadApiFixture(database);
    counted = new PrismaClient({ adapter: new PrismaPg(database.pool) });
    sqlOn(counted, (sql) => {
      if (sql.includes('"api_keys"')) lookups++;
    });
  });
  beforeEach(async () => {
    now = new Date('2026-11-24T08:00:00Z');
    lookups = 0;
    changes = new KeyChangeListener(database.url);
    await changes.start();
    keys = new ApiKeyStore(counted, () => now, TTL_MS, changes);
  });
  afterEach(() => changes.close());
  afterAll(async () => {
    await counted?.$disconnect();
    await database?.close();
    await tier?.dispose();
  });

  const later = (ms: number) => (now = new Date(now.getTime() + ms));
  const sql = (text: string, values: unknown[] = []) => database.pool.query(text, values);

  it('reads a key once per interval, and hands each request its own copy', async () => {
    expect(changes.listening).toBe(true);
    const first = await keys.authenticate(f.keys.merchantA);
    expect(first).toMatchObject({ role: 'merchant', principalId: f.ids.merchantA });
    first!.principalId = 'changed by a request';
    for (let n = 0; n < 5; n++)
      expect(await keys.authenticate(f.keys.merchantA)).toMatchObject({ principalId: f.ids.merchantA });
    expect(lookups).toBe(1);
    later(TTL_MS + 1);
    await keys.authenticate(f.keys.merchantA);
    expect(lookups).toBe(2);
  });

  it('stops a key revoked by anyone (here plain SQL on another connection) as soon as the notice arrives', async () => {
    const key = f.keys.merchantB;
    expect(await keys.authenticate(key)).toBeDefined();
    await sql('UPDATE api_keys SET "revokedAt" = now() WHERE "keyHash" = $1', [hashApiKey(key)]);
    expect(await eventually(async () => (await keys.authenticate(key)) === undefined)).toBe(true);
    expect(lookups).toBeGreaterThanOrEqual(2);
  });

  it('keeps keys through their hourly last-use writes, which change nothing about them', async () => {
    await keys.authenticate(f.keys.admin);
    await sql('UPDATE api_keys SET "lastUsedAt" = now() WHERE "keyHash" = $1', [hashApiKey(f.keys.admin)]);
    await new Promise((resolve) => setTimeout(resolve, 200));
    await keys.authenticate(f.keys.admin);
    expect(lookups).toBe(1);
  });

  it("moves an assembly key with its user's assembly", async () => {
    expect(await keys.authenticate(f.keys.assembly)).toMatchObject({ assemblyId: f.ids.assembly });
    await sql('UPDATE assembly_users SET "assemblyId" = $1 WHERE id = $2', [f.ids.otherAssembly, f.ids.assemblyUser]);
    try {
      expect(
        await eventually(async () => (await keys.authenticate(f.keys.assembly))?.assemblyId === f.ids.otherAssembly),
      ).toBe(true);
    } finally {
      await sql('UPDATE assembly_users SET "assemblyId" = $1 WHERE id = $2', [f.ids.assembly, f.ids.assemblyUser]);
    }
  });

  it('keeps a key no longer than until it expires', async () => {
    await sql('UPDATE api_keys SET "expiresAt" = $1 WHERE "keyHash" = $2', [
      new Date(now.getTime() + 1000),
      hashApiKey(f.keys.otherAssembly),
    ]);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await keys.authenticate(f.keys.otherAssembly)).toBeDefined();
    later(1001);
    expect(await keys.authenticate(f.keys.otherAssembly)).toBeUndefined();
  });

  it('never keeps unknown or revoked keys: every attempt is looked up', async () => {
    for (const key of ['tp_admin_not-a-key-of-anyone-000000000000', f.keys.revoked]) {
      expect(await keys.authenticate(key)).toBeUndefined();
      expect(await keys.authenticate(key)).toBeUndefined();
    }
    expect(lookups).toBe(4);
  });

  it('reads every request while it hears no notices, and listens again after the connection is lost', async () => {
    await keys.authenticate(f.keys.admin);
    await sql(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE 'LISTEN %' AND datname = current_database()`,
    );
    expect(await eventually(async () => !changes.listening)).toBe(true);
    await keys.authenticate(f.keys.admin);
    await keys.authenticate(f.keys.admin);
    expect(lookups).toBe(3);
    // Reconnected a second later: kept again.
    for (let waited = 0; waited < 3000 && !changes.listening; waited += 50)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(changes.listening).toBe(true);
    await keys.authenticate(f.keys.admin);
    await keys.authenticate(f.keys.admin);
    expect(lookups).toBe(4);
  });
});

describeOnPostgres('two instances keeping keys: a key revoked on one stops working on the other', () => {
  let tier: TierStore;
  let first: RunningApp;
  let second: RunningApp;
  let f: ApiFixture;

  beforeAll(async () => {
    tier = await openTierStore('postgresql');
    const config = tier.config();
    first = await startTestApp(config);
    second = await startTestApp(config);
    f = await loadApiFixture(first.database);
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
    await tier?.dispose();
  });

  it('keeps keys with the default settings, and the other instance refuses a revoked key within a second', async () => {
    expect(tier.config().apiKeyCacheSeconds).toBe(5);
    expect(first.app.get(ApiKeyStore).keeping).toBe(true);
    expect(second.app.get(ApiKeyStore).keeping).toBe(true);
    const check = () =>
      request(second.app.getHttpServer())
        .get('/payment/check_transaction?reference=REF-B-ONLY')
        .set('Authorization', f.keys.merchantB);
    expect((await check()).status).toBe(200);
    const [{ id }] = (
      await first.database.pool.query<{ id: string }>('SELECT id FROM api_keys WHERE "keyHash" = $1', [
        hashApiKey(f.keys.merchantB),
      ])
    ).rows;
    await request(first.app.getHttpServer())
      .post(`/admin/keys/${id}/revoke`)
      .set('Authorization', f.keys.admin)
      .expect(200);
    const started = Date.now();
    let status = (await check()).status;
    while (status === 200 && Date.now() - started < 1000) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      status = (await check()).status;
    }
    expect(status).toBe(401);
  });
});
