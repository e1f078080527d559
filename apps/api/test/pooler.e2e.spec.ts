import { Logger } from '@nestjs/common';
import request from 'supertest';
import { startProviderSimulator, type RunningSimulator } from '@transport/provider-simulator';
import { createApp, type RunningApp } from '../src/app';
import { hashApiKey } from '../src/core/platform/secrets';
import { ApiKeyStore, UNHEARD_CACHE_MS } from '../src/persistence/prisma-api-key.store';
import { loadApiFixture, type ApiFixture } from './support/api-fixtures';
import { eventually, startListeningApp, startMerchantReceiver } from './support/http-peers';
import { describeWithPrograms, findProgram, startPgBouncer, type LocalPgBouncer } from './support/local-servers';
import { createScratchDatabase, postgresAdminUrl, withDatabase } from './support/postgres-tier';
import { openTierStore, type TierStore } from './support/test-app';

/** Until a revoked key is refused (401) on `app`, for at most `ms`: how long that took, or undefined. */
async function refusedWithin(app: RunningApp, key: string, ms: number): Promise<number | undefined> {
  const started = Date.now();
  const check = () =>
    request(app.app.getHttpServer()).get('/payment/check_transaction?reference=REF-B-ONLY').set('Authorization', key);
  for (;;) {
    const status = (await check()).status;
    if (status === 401) return Date.now() - started;
    if (status !== 200) throw new Error(`unexpected ${status}`);
    if (Date.now() - started > ms) return undefined;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function revoke(by: RunningApp, admin: string, key: string): Promise<void> {
  const [{ id }] = (
    await by.database.pool.query<{ id: string }>('SELECT id FROM api_keys WHERE "keyHash" = $1', [hashApiKey(key)])
  ).rows;
  await request(by.app.getHttpServer()).post(`/admin/keys/${id}/revoke`).set('Authorization', admin).expect(200);
}

const target = () => {
  const u = new URL(postgresAdminUrl());
  return { host: u.hostname, port: Number(u.port || 5432) };
};

// The service as it runs where operators put PgBouncer (transaction mode, most managed poolers' default) between it
// and PostgreSQL: DATABASE_URL through the pooler, DATABASE_DIRECT_URL to the server for migrations and LISTEN.
describeWithPrograms('through PgBouncer in transaction mode', { pgbouncer: findProgram('pgbouncer') }, () => {
  let bouncer: LocalPgBouncer;
  let store: TierStore;
  let simulator: RunningSimulator;
  let receiver: Awaited<ReturnType<typeof startMerchantReceiver>>;
  let first: RunningApp & { url: string };
  let second: RunningApp;
  let f: ApiFixture;

  beforeAll(async () => {
    bouncer = await startPgBouncer(target());
    store = await openTierStore('postgresql');
    simulator = await startProviderSimulator({
      clientId: 'client',
      clientSecret: 'secret',
      behaviour: { delayMs: 50 },
    });
    receiver = await startMerchantReceiver();
    const direct = store.config().databaseUrl as string;
    const base = store.config({
      databaseUrl: bouncer.url(new URL(direct).pathname.slice(1)),
      databaseDirectUrl: direct,
      callbackUrlAllowlist: new Set([new URL(receiver.url).host]),
      // The shared limits on: their statements are named prepared ones, which a pooler's sessions do not share.
      rateLimit: { perKeyPerMinute: 100_000, perAddressPerMinute: 100_000 },
      provider: { ...store.config().provider, url: simulator.url, clientId: 'client', clientSecret: 'secret' },
      payments: { ...store.config().payments, unpaidFinalAfterSeconds: 0 },
      jobs: { ...store.config().jobs, pollSeconds: 0.5, reconcileAfterSeconds: 2, notifyRetrySeconds: 1 },
    });
    first = await startListeningApp(base);
    second = await createApp({ ...base, jobs: { ...base.jobs, workers: false } });
    f = await loadApiFixture(first.database);
  }, 120_000);
  afterAll(async () => {
    await first?.close();
    await second?.close();
    await simulator?.close();
    await receiver?.close();
    await store?.dispose();
    await bouncer?.stop();
  });

  it('connects, and every statement runs under the statement timeout, set inside a transaction', async () => {
    expect(first.database.settings).toBe('transaction');
    // A statement on its own, and one inside a unit of work (Prisma's transaction): both carry the setting.
    const { rows } = await first.database.pool.query<{ statement_timeout: string }>('SHOW statement_timeout');
    expect(rows[0].statement_timeout).toBe('15s');
    const inside = await first.database.prisma.$transaction((tx) =>
      tx.$queryRawUnsafe<Array<{ statement_timeout: string }>>('SHOW statement_timeout'),
    );
    expect(inside[0].statement_timeout).toBe('15s');
    // And nothing of it stays with the pooler's server connections for the next client.
    const plain = await import('pg').then(({ default: pg }) => new pg.Client({ connectionString: first.database.url }));
    await plain.connect();
    try {
      expect((await plain.query('SHOW statement_timeout')).rows[0].statement_timeout).toBe('0');
    } finally {
      await plain.end();
    }
  });

  it('cancels a runaway statement after DATABASE_STATEMENT_TIMEOUT_MS', async () => {
    const short = await createApp(
      store.config({
        databaseUrl: first.database.url,
        databaseDirectUrl: store.config().databaseUrl,
        databaseTimeouts: { poolWaitMs: 5000, statementMs: 300 },
        jobs: { ...store.config().jobs, workers: false },
      }),
    );
    try {
      const started = Date.now();
      await expect(short.database.pool.query('SELECT pg_sleep(5)')).rejects.toMatchObject({ code: '57014' });
      expect(Date.now() - started).toBeLessThan(3000);
      // The connection is fine afterwards (the transaction around it was rolled back).
      expect((await short.database.pool.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    } finally {
      await short.close();
    }
  });

  it('answers readiness and counts the shared limits (named prepared statements) on whatever server session', async () => {
    for (let i = 0; i < 20; i++) {
      await request(second.app.getHttpServer()).get('/health/ready').expect(200);
      await request(first.app.getHttpServer()).get('/vehicles/all?limit=1').expect(200);
    }
  });

  it('serves the public lists and a record, through the pooler', async () => {
    const list = await request(second.app.getHttpServer()).get('/vehicles/all?limit=5').expect(200);
    expect(list.body).toHaveLength(5);
    const one = await request(second.app.getHttpServer())
      .get(`/vehicles/${f.ids.linkedVehicle}`)
      .set('Authorization', f.keys.admin)
      .expect(200);
    expect(one.body._id).toBe(f.ids.linkedVehicle);
  });

  it('takes a payment through the simulator to its final state, and notifies the merchant', async () => {
    const created = await request(first.app.getHttpServer())
      .post('/payment/request')
      .set('Authorization', f.keys.merchantA)
      .send({
        amount: 12,
        description: 'POOLED-1',
        reference: 'POOLED-1',
        callBackUrl: receiver.url,
        customerName: 'Akua Sarpong',
        customerPhone: '0244987654',
        requestType: 'mobile_money',
      })
      .expect(201);
    expect(created.body.status).toBe('pending');
    const done = await eventually(async () => {
      const body = (
        await request(second.app.getHttpServer())
          .get('/payment/check_transaction?reference=POOLED-1')
          .set('Authorization', f.keys.merchantA)
          .expect(200)
      ).body;
      expect(body.status).toBe('success');
      return body;
    });
    expect(done.callBackInfo.Data.ClientReference).toBe(created.body._id);
    await eventually(async () => expect(receiver.forReference('POOLED-1')).toHaveLength(1));
  });

  it('hears key changes over DATABASE_DIRECT_URL: a key revoked on one instance is refused by the other within a second', async () => {
    expect(second.database.keyChanges?.listening).toBe(true);
    expect(second.app.get(ApiKeyStore).keeping).toBe(true);
    expect(
      (
        await request(second.app.getHttpServer())
          .get('/payment/check_transaction?reference=REF-B-ONLY')
          .set('Authorization', f.keys.merchantB)
      ).status,
    ).toBe(200);
    await revoke(first, f.keys.admin, f.keys.merchantB);
    expect(await refusedWithin(second, f.keys.merchantB, 1000)).toBeDefined();
  });

  describe('without DATABASE_DIRECT_URL', () => {
    it('finds that notices cannot be heard through the pooler, says so, and keeps keys for at most a second', async () => {
      // nestjs-pino writes whatever is logged outside requests to the first app's logger: the warning is caught here.
      const warned = jest.spyOn(Logger.prototype, 'warn');
      const app = await createApp(
        store.config({ databaseUrl: first.database.url, jobs: { ...store.config().jobs, workers: false } }),
      );
      try {
        expect(app.database.keyChanges?.unheard).toBe(true);
        expect(app.database.settings).toBe('transaction');
        expect(warned.mock.calls.map(([message]) => String(message))).toContainEqual(
          expect.stringContaining('API key change notices cannot be heard through DATABASE_URL'),
        );
        const keys = app.app.get(ApiKeyStore);
        expect(keys.keeping).toBe(true);
        const key = f.keys.merchantA;
        const check = () =>
          request(app.app.getHttpServer())
            .get('/payment/check_transaction?reference=REF-PAID')
            .set('Authorization', key);
        expect((await check()).status).toBe(200);
        await revoke(first, f.keys.admin, key);
        // Kept at most UNHEARD_CACHE_MS: refused on the next request after that, at the latest.
        const refused = await eventually(
          async () => {
            expect((await check()).status).toBe(401);
            return true;
          },
          UNHEARD_CACHE_MS + 500,
          20,
        );
        expect(refused).toBe(true);
      } finally {
        warned.mockRestore();
        await app.close();
      }
    });

    it('refuses to apply migrations through the pooler, where their lock would not keep instances apart', async () => {
      const fresh = await createScratchDatabase('pooled_migrate');
      try {
        await expect(
          createApp(store.config({ databaseUrl: bouncer.url(fresh.name), jobs: { ...store.config().jobs } })),
        ).rejects.toThrow(/set DATABASE_DIRECT_URL/);
        // With it, the same start migrates over the direct URL and serves through the pooler.
        const app = await createApp(
          store.config({
            databaseUrl: bouncer.url(fresh.name),
            databaseDirectUrl: withDatabase(postgresAdminUrl(), fresh.name),
            jobs: { ...store.config().jobs, workers: false },
          }),
        );
        try {
          await request(app.app.getHttpServer()).get('/health/ready').expect(200);
          expect((await request(app.app.getHttpServer()).get('/vehicles/all').expect(200)).body).toEqual([]);
        } finally {
          await app.close();
        }
      } finally {
        await fresh.drop();
      }
    });
  });
});
