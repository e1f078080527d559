import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { startProviderSimulator, type RunningSimulator } from '@transport/provider-simulator';
import { openDatabase, type Database } from '../src/persistence/database';
import { loadConfig } from '../src/config';
import { verifyNotification } from '../src/payments/notification-signature';
import { loadApiFixture, type ApiFixture } from './support/api-fixtures';
import { eventually, freePort, honouringRetryAfter, startMerchantReceiver } from './support/http-peers';
import { describeOnPostgres } from './support/postgres-only';
import { createScratchDatabase } from './support/postgres-tier';
import { WORKSPACE_ROOT } from './support/test-app';

/**
 * The storm: two built API processes share one PostgreSQL database; thousands of payments are requested, their
 * callbacks are sent concurrently with duplicates and out-of-order arrivals, and one instance is killed with SIGKILL
 * in the middle and restarted. Afterwards every transaction must equal the simulator's truth, no final state may have
 * been applied twice, no stored callback may be left unapplied, and every merchant notification must have arrived.
 */
const TRANSACTIONS = Number(process.env.STORM_TRANSACTIONS ?? 4000);
const CALLBACKS = Number(process.env.STORM_CALLBACKS ?? 10_000);
const CONCURRENCY = 32;
const MAIN = join(WORKSPACE_ROOT, 'dist', 'apps', 'api', 'main.js');
const SIGNING_SECRET = 's';

interface Instance {
  name: string;
  port: number;
  url: string;
  child?: ChildProcess;
}

interface PlannedCallback {
  reference: string;
  kind: 'interim' | 'final' | 'duplicate' | 'late';
  path: string;
  body: string;
}

/** A deterministic pseudo-random sequence (mulberry32), so a failing storm can be replayed. */
function seeded(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describeOnPostgres('storm: two instances, SIGKILL mid-storm', () => {
  jest.setTimeout(15 * 60_000);
  let database: Awaited<ReturnType<typeof createScratchDatabase>>;
  let db: Database;
  let simulator: RunningSimulator;
  let receiver: Awaited<ReturnType<typeof startMerchantReceiver>>;
  let f: ApiFixture;
  const instances: Instance[] = [];
  const logDir = join(WORKSPACE_ROOT, 'tmp', 'storm');

  async function launch(instance: Instance): Promise<void> {
    const log = openSync(join(logDir, `${instance.name}.log`), 'a');
    instance.child = spawn(process.execPath, [MAIN], {
      cwd: WORKSPACE_ROOT,
      stdio: ['ignore', log, log],
      env: {
        PATH: process.env.PATH,
        APP_ROOT: WORKSPACE_ROOT,
        DATABASE_URL: database.url,
        DATABASE_POOL_SIZE: '10',
        HOST: '127.0.0.1',
        PORT: String(instance.port),
        PUBLIC_BASE_URL: instance.url,
        PAYMENT_PROVIDER_URL: simulator.url,
        CALLBACK_URL_ALLOWLIST: new URL(receiver.url).host,
        JOB_POLL_SECONDS: '0.5',
        RECONCILE_AFTER_SECONDS: '120',
        RECONCILE_RETRY_SECONDS: '1',
        RECONCILE_MAX_DELAY_SECONDS: '4',
        NOTIFY_RETRY_SECONDS: '1',
        NOTIFY_MAX_DELAY_SECONDS: '4',
        NOTIFY_CONCURRENCY: '16',
        CALLBACK_SWEEP_AFTER_SECONDS: '3',
        // One merchant sends every request here; each customer phone is its own.
        PAYMENT_LIMIT_PER_MERCHANT_PER_MINUTE: '1000000',
        // This test is about losing nothing; the global request limit has its own (observability.e2e.spec.ts).
        RATE_LIMIT_PER_KEY_PER_MINUTE: '0',
        RATE_LIMIT_PER_ADDRESS_PER_MINUTE: '0',
        METRICS_PORT: '0',
        NOTIFY_PER_MERCHANT: '16',
        RECONCILE_CONCURRENCY: '16',
        // Unsigned callbacks (the default): each final state is confirmed with the simulator's status API, whose
        // truth is decided at once, so its Unpaid is final at once.
        UNPAID_FINAL_AFTER_SECONDS: '0',
      },
    });
    await eventually(
      async () => {
        const res = await fetch(`${instance.url}/health`);
        if (res.status !== 200) throw new Error(`health ${res.status}`);
      },
      60_000,
      200,
    );
  }

  beforeAll(async () => {
    if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: build the API first (npx nx build api); npm test does`);
    mkdirSync(logDir, { recursive: true });
    database = await createScratchDatabase('storm');
    simulator = await startProviderSimulator({ manualCallbacks: true });
    receiver = await startMerchantReceiver();
    for (const name of ['a', 'b']) {
      const port = await freePort();
      instances.push({ name, port, url: `http://127.0.0.1:${port}` });
    }
    await launch(instances[0]); // migrates the empty database
    await launch(instances[1]);
    db = await openDatabase({
      ...loadConfig({ APP_ROOT: WORKSPACE_ROOT }),
      databaseUrl: database.url,
      migrateOnStart: false,
      databasePoolSize: 4,
    });
    f = await loadApiFixture(db);
  });

  afterAll(async () => {
    for (const instance of instances) instance.child?.kill('SIGKILL');
    await db?.close();
    await simulator?.close();
    await receiver?.close();
    await database?.drop();
  });

  it('ends with every transaction at the truth, nothing applied twice, no callback lost, every notification delivered', async () => {
    const random = seeded(20261122);
    const counts = {
      requests: 0,
      sent: 0,
      acknowledged: 0,
      retriedAfterFailure: 0,
      // 503 DATABASE_UNAVAILABLE or 429 with Retry-After: the instance shed the request (nothing changed), and the
      // client waited and sent it again, as the API documents.
      shed: 0,
      byKind: { interim: 0, final: 0, duplicate: 0, late: 0 },
    };
    const started = Date.now();

    // 1. The payments, spread over both instances; the simulator decides each outcome (about 80% paid).
    const references = Array.from({ length: TRANSACTIONS }, (_, i) => `STORM-${i}`);
    for (const reference of references)
      simulator.setBehaviour({ outcome: random() < 0.8 ? 'success' : 'failed' }, reference);
    await pool(references, CONCURRENCY, async (reference, i) => {
      const { res, shed } = await honouringRetryAfter(() =>
        fetch(`${instances[i % 2].url}/payment/request`, {
          method: 'POST',
          headers: { authorization: f.keys.merchantA, 'content-type': 'application/json' },
          body: JSON.stringify({
            amount: 10 + (i % 50),
            // The simulator's test hooks find a payment by its description (the provider knows it by our id).
            description: reference,
            reference,
            callBackUrl: receiver.url,
            customerPhone: `0244${String(i).padStart(6, '0')}`,
            requestType: 'mobile_money',
          }),
        }),
      );
      counts.shed += shed;
      // A request sent again after being shed may find its first try stored: the repeat answers it (200).
      if (res.status !== 201 && !(shed > 0 && res.status === 200))
        throw new Error(`request ${reference}: ${res.status} ${await res.text()}`);
      await res.body?.cancel();
      counts.requests++;
    });
    const requestSeconds = (Date.now() - started) / 1000;

    // 2. The callbacks: per transaction a final one; 30% duplicates of finals; 10% stale "state unknown" (0005)
    //    callbacks that arrive after the final one (out of order); the rest in-order 0005s sent before the final.
    const duplicates = Math.round(CALLBACKS * 0.3);
    const late = Math.round(CALLBACKS * 0.1);
    const interims = CALLBACKS - TRANSACTIONS - duplicates - late;
    expect(interims).toBeGreaterThanOrEqual(0);
    const chains = new Map<string, PlannedCallback[]>();
    for (const reference of references) {
      const payment = simulator.paymentFor(reference)!;
      const path = new URL(payment.callbackUrl).pathname;
      const [final] = simulator.plannedCallbacks(reference);
      const unknown = JSON.stringify({
        ...JSON.parse(final.body),
        ResponseCode: '0005',
        Message: 'The state of the transaction is unknown',
      });
      chains.set(reference, [{ reference, kind: 'final', path, body: final.body }]);
      (chains.get(reference) as PlannedCallback[] & { unknown?: string }).unknown = unknown;
    }
    const pick = () => references[Math.floor(random() * references.length)];
    for (let i = 0; i < interims; i++) {
      const chain = chains.get(references[i % references.length])! as PlannedCallback[] & { unknown: string };
      chain.unshift({ reference: chain[0].reference, kind: 'interim', path: chain[0].path, body: chain.unknown });
    }
    for (let i = 0; i < duplicates; i++) {
      const chain = chains.get(pick())!;
      const final = chain.find((c) => c.kind === 'final')!;
      chain.push({ ...final, kind: 'duplicate' });
    }
    for (let i = 0; i < late; i++) {
      const chain = chains.get(references[(i * 7) % references.length])! as PlannedCallback[] & { unknown: string };
      chain.push({ reference: chain[0].reference, kind: 'late', path: chain[0].path, body: chain.unknown });
    }
    const total = [...chains.values()].reduce((n, c) => n + c.length, 0);
    expect(total).toBe(CALLBACKS);

    // 3. Send them concurrently through a "load balancer" that tries the other instance when one does not answer.
    //    Within a transaction: interims, then the final together with its duplicates (concurrent), then late ones.
    let killed = false;
    const acknowledgedByReference = new Map<string, number>();
    const deliver = async (callback: PlannedCallback) => {
      for (let attempt = 0; ; attempt++) {
        const target = instances[Math.floor(random() * 2)];
        counts.sent++;
        try {
          const { res, shed } = await honouringRetryAfter(() =>
            fetch(`${target.url}${callback.path}`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: callback.body,
              signal: AbortSignal.timeout(30_000),
            }),
          );
          counts.shed += shed;
          await res.body?.cancel();
          if (res.status === 200) {
            counts.acknowledged++;
            counts.byKind[callback.kind]++;
            acknowledgedByReference.set(callback.reference, (acknowledgedByReference.get(callback.reference) ?? 0) + 1);
            return;
          }
          throw new Error(`HTTP ${res.status}`);
        } catch (error) {
          counts.retriedAfterFailure++;
          if (attempt > 50) throw error;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      }
    };
    const chainList = [...chains.values()].sort(() => random() - 0.5);
    let chainsDone = 0;
    const killAt = Math.floor(chainList.length * 0.4);
    let restart: Promise<void> | undefined;
    const callbackStarted = Date.now();
    await pool(chainList, CONCURRENCY, async (chain) => {
      for (const c of chain.filter((x) => x.kind === 'interim')) await deliver(c);
      await Promise.all(chain.filter((x) => x.kind === 'final' || x.kind === 'duplicate').map(deliver));
      for (const c of chain.filter((x) => x.kind === 'late')) await deliver(c);
      chainsDone++;
      if (!killed && chainsDone >= killAt) {
        killed = true;
        instances[1].child!.kill('SIGKILL');
        restart = new Promise((resolve) => setTimeout(resolve, 2000)).then(() => launch(instances[1]));
      }
    });
    await restart;
    const callbackSeconds = (Date.now() - callbackStarted) / 1000;

    // 4. Wait for the background work to settle: every notification delivered, every stored callback applied.
    const settleStarted = Date.now();
    await eventually(
      async () => {
        const [pendingTx, unprocessed, undelivered] = await Promise.all([
          db.prisma.transaction.count({
            where: { status: { in: ['requesting', 'pending'] }, reference: { startsWith: 'STORM-' } },
          }),
          db.prisma.paymentCallback.count({ where: { processedAt: null } }),
          db.prisma.paymentNotification.count({ where: { status: { not: 'delivered' } } }),
        ]);
        const notified = new Set(receiver.received.map((n) => n.headers['webhook-id'])).size;
        if (pendingTx + unprocessed + undelivered > 0 || notified < TRANSACTIONS) {
          throw new Error(
            `not settled: ${pendingTx} pending, ${unprocessed} unapplied callbacks, ${undelivered} undelivered, ${notified} notified`,
          );
        }
      },
      240_000,
      500,
    );
    const settleSeconds = (Date.now() - settleStarted) / 1000;

    // 5. The verdicts.
    const rows = await db.prisma.transaction.findMany({
      where: { merchantId: f.ids.merchantA, reference: { startsWith: 'STORM-' } },
      select: { id: true, reference: true, status: true },
    });
    expect(rows).toHaveLength(TRANSACTIONS);
    // The provider knows each payment by its ClientReference: the transaction's id.
    const wrong = rows.filter((r) => r.status !== simulator.payments.get(r.id)!.truth);
    const finals = await db.prisma.$queryRaw<Array<{ entityId: string; n: bigint }>>`
      SELECT "entityId", count(*) AS n FROM audit_log
      WHERE entity = 'transaction' AND action IN ('TransactionSucceeded', 'TransactionFailed') GROUP BY "entityId"`;
    const appliedTwice = finals.filter((r) => Number(r.n) !== 1);
    const inbox = await db.prisma.paymentCallback.groupBy({ by: ['transactionId'], _count: { _all: true } });
    const inboxByTx = new Map(inbox.map((r) => [r.transactionId, r._count._all]));
    const lost = rows.filter((r) => (inboxByTx.get(r.id) ?? 0) < (acknowledgedByReference.get(r.reference) ?? 0));
    const outcomes = await db.prisma.paymentCallback.groupBy({ by: ['outcome'], _count: { _all: true } });
    const byId = new Map<string, { bodies: Set<string>; copies: number; verified: boolean }>();
    for (const n of receiver.received) {
      const id = String(n.headers['webhook-id']);
      const entry = byId.get(id) ?? { bodies: new Set<string>(), copies: 0, verified: true };
      entry.bodies.add(n.body);
      entry.copies++;
      entry.verified &&= verifyNotification(
        SIGNING_SECRET,
        n.headers as Record<string, string>,
        n.body,
        Date.now(),
        3600,
      );
      byId.set(id, entry);
    }
    const referencesNotified = new Set(
      [...byId.values()].map((e) => (JSON.parse([...e.bodies][0]) as { reference: string }).reference),
    );
    const statusChecks = await db.prisma.transaction.count({ where: { statusCheckTime: { not: null } } });

    console.log(
      [
        `storm: ${TRANSACTIONS} transactions over 2 instances sharing PostgreSQL; instance b SIGKILLed after ${killAt} of ${chainList.length} callback chains and restarted`,
        `  payment requests: ${counts.requests} in ${requestSeconds.toFixed(1)} s`,
        `  callbacks acknowledged: ${counts.acknowledged} (final ${counts.byKind.final}, duplicates ${counts.byKind.duplicate} = ${((100 * counts.byKind.duplicate) / counts.acknowledged).toFixed(0)}%, ` +
          `out of order ${counts.byKind.late} = ${((100 * counts.byKind.late) / counts.acknowledged).toFixed(0)}%, in-order 0005 ${counts.byKind.interim}) in ${callbackSeconds.toFixed(1)} s; ` +
          `sends that failed and went to the other instance: ${counts.retriedAfterFailure}`,
        `  shed by an instance (503 or 429 with Retry-After) and sent again after the wait it asked for: ${counts.shed}`,
        `  stored callbacks: ${inbox.reduce((n, r) => n + r._count._all, 0)}; outcomes ${outcomes.map((o) => `${o.outcome ?? 'unprocessed'}=${o._count._all}`).join(' ')}`,
        `  final states in the audit log: ${finals.length} for ${TRANSACTIONS} transactions, applied twice: ${appliedTwice.length}; settled by the status API: ${statusChecks}`,
        `  status differing from the simulator's truth: ${wrong.length}; acknowledged callbacks missing from the inbox: ${lost.length}`,
        `  notifications: ${receiver.received.length} received, ${byId.size} distinct idempotency ids, ${receiver.received.length - byId.size} repeated deliveries (same id), ` +
          `${[...byId.values()].filter((e) => !e.verified).length} failing verification; background work settled ${settleSeconds.toFixed(1)} s after the last callback`,
      ].join('\n'),
    );

    expect(wrong).toEqual([]);
    expect(finals).toHaveLength(TRANSACTIONS);
    expect(appliedTwice).toEqual([]);
    expect(lost).toEqual([]);
    expect(counts.acknowledged).toBe(CALLBACKS);
    expect(byId.size).toBe(TRANSACTIONS);
    expect(referencesNotified.size).toBe(TRANSACTIONS);
    // A repeated delivery (the instance died after sending) carries the same id and the very same body.
    expect([...byId.values()].filter((e) => e.bodies.size !== 1)).toEqual([]);
    expect([...byId.values()].filter((e) => !e.verified)).toEqual([]);
  });
});

/** Runs `work` over `items` with at most `limit` at once. */
async function pool<T>(items: T[], limit: number, work: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const index = next++;
        await work(items[index], index);
      }
    }),
  );
}
