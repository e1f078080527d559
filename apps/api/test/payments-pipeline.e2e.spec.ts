import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { startProviderSimulator, type RunningSimulator } from '@transport/provider-simulator';
import type { RunningApp } from '../src/app';
import { JOB_WORKERS, PAYMENT_PROVIDER } from '../src/core/tokens';
import type { JobWorkers } from '../src/core/ports';
import { Webhook } from 'standardwebhooks';
import { verifyNotification } from '../src/payments/notification-signature';
import { loadApiFixture, type ApiFixture } from './support/api-fixtures';
import { eventually, freePort, startListeningApp, startMerchantReceiver } from './support/http-peers';
import { describeOnEachTier, openTierStore, type TierStore } from './support/test-app';

const PROVIDER_SECRET = 'provider-callback-secret';
const SIGNING_SECRET = 's'; // the fixture merchants' signing secret

/** The document's Transaction, field by field, with the type of each value (operation 9 after a final callback). */
const DOCUMENT_SHAPE = {
  _id: 'string',
  amount: 'number',
  fees: 'number',
  status: 'string',
  requestType: 'string',
  merchant: 'string',
  description: 'string',
  reference: 'string',
  callBackUrl: 'string',
  customerEmail: 'string',
  customerName: 'string',
  customerPhone: 'string',
  requestInfo: {
    Message: 'string',
    ResponseCode: 'string',
    Data: {
      TransactionId: 'string',
      Description: 'string',
      ClientReference: 'string',
      Amount: 'number',
      Charges: 'number',
      AmountAfterCharges: 'number',
      AmountCharged: 'number',
      DeliveryFee: 'number',
    },
  },
  callBackInfo: {
    ResponseCode: 'string',
    Message: 'string',
    Data: {
      Amount: 'number',
      Charges: 'number',
      AmountAfterCharges: 'number',
      AmountCharged: 'number',
      Description: 'string',
      ClientReference: 'string',
      TransactionId: 'string',
      ExternalTransactionId: 'string',
      OrderId: 'string',
      // Hubtel's callback carries it; every field a callback carries is kept.
      PaymentDate: 'string',
    },
  },
  callBackTime: 'string',
  createdAt: 'string',
  updatedAt: 'string',
  __v: 'number',
};

/** The same tree with each value replaced by its type, for an exact comparison of keys and value types. */
function shapeOf(value: unknown): unknown {
  if (value && typeof value === 'object' && !Array.isArray(value))
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shapeOf(v)]));
  return typeof value;
}

describeOnEachTier('payment pipeline with the provider simulator', (tier) => {
  let store: TierStore;
  let running: RunningApp & { url: string };
  let simulator: RunningSimulator;
  let receiver: Awaited<ReturnType<typeof startMerchantReceiver>>;
  let f: ApiFixture;
  const failFirst = new Map<string, number>();
  let holePort: number;
  const http = () => request(running.app.getHttpServer());
  const pay = (reference: string, over: object = {}) =>
    http()
      .post('/payment/request')
      .set('Authorization', f.keys.merchantA)
      .send({
        amount: 25.5,
        // The simulator's test hooks find a payment by its description (the provider knows it by our id).
        description: reference,
        reference,
        callBackUrl: receiver.url,
        customerName: 'Akua Sarpong',
        customerPhone: '0244987654',
        customerEmail: 'akua@example.com',
        requestType: 'mobile_money',
        ...over,
      });
  const status = async (reference: string) =>
    (
      await http()
        .get(`/payment/check_transaction?reference=${reference}`)
        .set('Authorization', f.keys.merchantA)
        .expect(200)
    ).body;
  const deliveries = async (reference: string) =>
    (await http().get(`/payment/deliveries?reference=${reference}`).set('Authorization', f.keys.merchantA).expect(200))
      .body;

  beforeAll(async () => {
    store = await openTierStore(tier);
    simulator = await startProviderSimulator({
      callbackSecret: PROVIDER_SECRET,
      clientId: 'client',
      clientSecret: 'secret',
      behaviour: { delayMs: 50 },
    });
    receiver = await startMerchantReceiver((n) => {
      const reference = (JSON.parse(n.body) as { reference: string }).reference;
      const left = failFirst.get(reference) ?? 0;
      if (left > 0) {
        failFirst.set(reference, left - 1);
        return 503;
      }
      return 200;
    });
    const base = store.config();
    holePort = await freePort();
    running = await startListeningApp({
      ...base,
      metrics: { port: 0, host: '127.0.0.1' },
      // Allowlist entries are exact host and port: the merchant receiver, and the black hole of the slots test.
      callbackUrlAllowlist: new Set([new URL(receiver.url).host, `127.0.0.1:${holePort}`]),
      provider: {
        ...base.provider,
        url: simulator.url,
        clientId: 'client',
        clientSecret: 'secret',
        callbackSecret: PROVIDER_SECRET,
        timeoutMs: 2000,
        retries: 1,
      },
      // The simulator decides at once, so its Unpaid is final at once here.
      payments: { ...base.payments, unpaidFinalAfterSeconds: 0 },
      jobs: {
        ...base.jobs,
        pollSeconds: 0.5,
        reconcileAfterSeconds: 2,
        reconcileRetrySeconds: 1,
        reconcileMaxDelaySeconds: 2,
        notifyRetrySeconds: 1,
        notifyMaxDelaySeconds: 2,
        notifyConcurrency: 3,
        notifyPerMerchant: 2,
        notifyTimeoutMs: 10_000,
        callbackSweepAfterSeconds: 1,
      },
    });
    f = await loadApiFixture(running.database);
  });
  afterAll(async () => {
    await running?.close();
    await simulator?.close();
    await receiver?.close();
    await store?.dispose();
  });

  it('keeps the callback recovery sweep on a pg-boss schedule, so a sweep that fails for good cannot end the sweeps', async () => {
    const schedules = await running.database.prisma.$queryRawUnsafe<Array<{ name: string; cron: string }>>(
      'SELECT name, cron FROM pgboss.schedule',
    );
    expect(schedules).toContainEqual({ name: 'payment-callback-sweep', cron: '* * * * *' });
  });

  it('delivers notifications that a Standard Webhooks library verifies, and refuses a replay under another webhook-id', async () => {
    await pay('E2E-SW').expect(201);
    const [notification] = await eventually(async () => {
      const got = receiver.forReference('E2E-SW');
      expect(got).toHaveLength(1);
      return got;
    });
    const headers = notification.headers as Record<string, string>;
    // The fixture merchants' secret predates the whsec_ format: libraries take such a secret as raw bytes.
    const webhook = new Webhook(SIGNING_SECRET, { format: 'raw' });
    expect(webhook.verify(notification.body, headers)).toMatchObject({ reference: 'E2E-SW', status: 'success' });
    expect(() => webhook.verify(notification.body, { ...headers, 'webhook-id': 'replayed-under-a-new-id' })).toThrow(
      /No matching signature/,
    );
  });

  it('request -> simulator callback -> operation 9 in exactly the document shape -> one signed notification that verifies', async () => {
    const created = (await pay('E2E-1').expect(201)).body;
    expect(created).toMatchObject({
      status: 'pending',
      requestInfo: { ResponseCode: '0001', Data: { ClientReference: created._id, Amount: 25.5 } },
    });
    const done = await eventually(async () => {
      const body = await status('E2E-1');
      expect(body.status).toBe('success');
      return body;
    });
    expect(shapeOf(done)).toEqual(DOCUMENT_SHAPE);
    expect(done.requestInfo.ResponseCode).toBe('0001');
    expect(done.callBackInfo.ResponseCode).toBe('0000');
    expect(Date.parse(done.callBackTime)).toBeGreaterThanOrEqual(Date.parse(done.createdAt));

    const [notification] = await eventually(async () => {
      const got = receiver.forReference('E2E-1');
      expect(got).toHaveLength(1);
      return got;
    });
    expect(verifyNotification(SIGNING_SECRET, notification.headers as Record<string, string>, notification.body)).toBe(
      true,
    );
    expect(
      verifyNotification('another-secret', notification.headers as Record<string, string>, notification.body),
    ).toBe(false);
    expect(
      verifyNotification(
        SIGNING_SECRET,
        notification.headers as Record<string, string>,
        notification.body.replace('25.5', '2550'),
      ),
    ).toBe(false);
    expect(JSON.parse(notification.body)).toEqual(done);
    expect(notification.headers['idempotency-key']).toBe(notification.headers['webhook-id']);
    const log = await eventually(async () => {
      const body = await deliveries('E2E-1');
      expect(body.notification.status).toBe('delivered');
      return body;
    });
    expect(log.notification.id).toBe(notification.headers['webhook-id']);
    expect(log.attempts).toEqual([
      expect.objectContaining({ attempt: 1, statusCode: 200, outcome: 'delivered', error: null }),
    ]);
    expect(log.attempts[0].latencyMs).toBeGreaterThanOrEqual(0);
    // Nothing more arrives later (one notification, not one per callback or per instance).
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(receiver.forReference('E2E-1')).toHaveLength(1);
  });

  it('applies duplicated and reordered callbacks once: one final state, one audit entry, one notification', async () => {
    simulator.setBehaviour({ duplicates: 3, reorder: true }, 'E2E-DUP');
    const created = (await pay('E2E-DUP').expect(201)).body;
    await eventually(async () => expect(simulator.paymentFor('E2E-DUP')!.callbacks).toHaveLength(5));
    expect((await status('E2E-DUP')).status).toBe('success');
    const inbox = await running.database.prisma.paymentCallback.findMany({
      where: { transactionId: created._id },
      orderBy: { id: 'asc' },
    });
    expect(inbox.map((c) => c.outcome)).toEqual(['applied', 'duplicate', 'duplicate', 'duplicate', 'duplicate']);
    const finals = await running.database.prisma.auditEntry.count({
      where: { entityId: created._id, action: { in: ['TransactionSucceeded', 'TransactionFailed'] } },
    });
    expect(finals).toBe(1);
    await eventually(async () => expect((await deliveries('E2E-DUP')).notification.status).toBe('delivered'));
    expect(receiver.forReference('E2E-DUP')).toHaveLength(1);
  });

  it('recovers a dropped callback by reconciliation within the configured delay', async () => {
    simulator.setBehaviour({ drop: true, outcome: 'failed' }, 'E2E-DROP');
    const started = Date.now();
    const created = (await pay('E2E-DROP').expect(201)).body;
    const done = await eventually(async () => {
      const body = await status('E2E-DROP');
      expect(body.status).toBe('failed');
      return body;
    }, 20_000);
    const elapsed = Date.now() - started;
    // Configured: first status check 2 s after the request; the poll interval (0.5 s) and job pickup add a little.
    expect(elapsed).toBeGreaterThanOrEqual(2000);
    expect(elapsed).toBeLessThan(10_000);
    expect(done).not.toHaveProperty('callBackInfo');
    expect(simulator.paymentFor('E2E-DROP')!.callbacks).toHaveLength(0);
    const row = await running.database.prisma.transaction.findUniqueOrThrow({ where: { id: created._id } });
    expect(row.statusCheckInfo).toMatchObject({
      responseCode: '0000',
      data: { status: 'Unpaid', clientReference: created._id },
    });
    await eventually(async () => expect(receiver.forReference('E2E-DROP')).toHaveLength(1));
    expect(JSON.parse(receiver.forReference('E2E-DROP')[0].body).status).toBe('failed');
  });

  it('retries a failing merchant endpoint with backoff, logging every attempt, with the same idempotency id', async () => {
    failFirst.set('E2E-RETRY', 2);
    await pay('E2E-RETRY').expect(201);
    const log = await eventually(async () => {
      const body = await deliveries('E2E-RETRY');
      expect(body.notification.status).toBe('delivered');
      return body;
    }, 30_000);
    expect(log.attempts.map((a: { statusCode: number; outcome: string }) => [a.statusCode, a.outcome])).toEqual([
      [503, 'retry'],
      [503, 'retry'],
      [200, 'delivered'],
    ]);
    const got = receiver.forReference('E2E-RETRY');
    expect(got).toHaveLength(3);
    expect(new Set(got.map((n) => n.headers['webhook-id'])).size).toBe(1);
    expect(got.every((n) => verifyNotification(SIGNING_SECRET, n.headers as Record<string, string>, n.body))).toBe(
      true,
    );
    // Backoff: the gaps grow (1 s then at least 2 s with retryDelay 1 and doubling).
    expect(got[1].at - got[0].at).toBeGreaterThanOrEqual(900);
    expect(got[2].at - got[1].at).toBeGreaterThanOrEqual(1900);
  });

  it('never moves a tampered amount to success: the anomaly is recorded and the status API is asked (which agrees it is wrong)', async () => {
    simulator.setBehaviour({ wrongAmount: true }, 'E2E-AMOUNT');
    const created = (await pay('E2E-AMOUNT').expect(201)).body;
    await eventually(async () => expect(simulator.paymentFor('E2E-AMOUNT')!.callbacks).toHaveLength(1));
    await eventually(async () => {
      const row = await running.database.prisma.transaction.findUniqueOrThrow({ where: { id: created._id } });
      expect((row.anomalies as unknown[]).length).toBeGreaterThanOrEqual(2); // the callback's, then the status check's
    });
    const body = await status('E2E-AMOUNT');
    expect(body.status).toBe('pending');
    expect(body).not.toHaveProperty('callBackInfo');
    expect((await deliveries('E2E-AMOUNT')).notification).toBeNull();
    expect(receiver.forReference('E2E-AMOUNT')).toHaveLength(0);
  });

  it('refuses callbacks with a missing or wrong signature (401) and stores nothing', async () => {
    simulator.setBehaviour({ drop: true }, 'E2E-SIG');
    const created = (await pay('E2E-SIG').expect(201)).body;
    const url = await callbackUrlOf(created._id);
    const body = JSON.stringify({
      ResponseCode: '0000',
      Message: 'success',
      Data: { Amount: 25.5, ClientReference: 'E2E-SIG' },
    });
    const before = await running.database.prisma.paymentCallback.count();
    const unsigned = await request(url.origin)
      .post(url.pathname)
      .set('content-type', 'application/json')
      .send(body)
      .expect(401);
    expect(unsigned.body.code).toBe('INVALID_SIGNATURE');
    expect(unsigned.headers['content-type']).toMatch(/application\/problem\+json/);
    const wrong = `sha256=${createHmac('sha256', 'not-the-secret').update(body).digest('hex')}`;
    await request(url.origin)
      .post(url.pathname)
      .set('content-type', 'application/json')
      .set('x-provider-signature', wrong)
      .send(body)
      .expect(401);
    expect(await running.database.prisma.paymentCallback.count()).toBe(before);
    expect((await status('E2E-SIG')).status).toBe('pending');
  });

  it('starts a refused request failed (and notifies it); keeps a requesting one (202) when the provider is unreachable, which its status API settles', async () => {
    simulator.setBehaviour({ refuse: true }, 'E2E-REFUSED');
    const refused = (await pay('E2E-REFUSED').expect(201)).body;
    expect(refused).toMatchObject({ status: 'failed', requestInfo: { ResponseCode: '2001' } });
    await eventually(async () => expect(receiver.forReference('E2E-REFUSED')).toHaveLength(1));

    const port = await freePort();
    const provider = running.app.get<{ config: { url: string } }>(PAYMENT_PROVIDER);
    const original = provider.config.url;
    provider.config.url = `http://127.0.0.1:${port}`;
    let down: { _id: string; status: string };
    try {
      down = (await pay('E2E-DOWN').expect(202)).body;
      expect(down.status).toBe('requesting');
    } finally {
      provider.config.url = original;
    }
    // The same request again reads the stored transaction; the provider never received it, so its status API has no
    // such payment, and the queued status check fails it (nothing was charged) and notifies the merchant.
    expect((await pay('E2E-DOWN').expect(200)).body._id).toBe(down._id);
    await eventually(async () => expect((await status('E2E-DOWN')).status).toBe('failed'), 20_000);
    await eventually(async () => expect(receiver.forReference('E2E-DOWN')).toHaveLength(1));
  });

  it("keeps one merchant's black-hole endpoint from holding the notification slots of another merchant", async () => {
    // Merchant B's endpoint accepts connections and never answers; each of its deliveries waits out the timeout.
    let inFlight = 0;
    let mostAtOnce = 0;
    const hole = createServer((req) => {
      inFlight++;
      mostAtOnce = Math.max(mostAtOnce, inFlight);
      req.on('close', () => inFlight--);
    });
    await new Promise<void>((resolve) => hole.listen(holePort, '127.0.0.1', resolve));
    const holeUrl = `http://127.0.0.1:${(hole.address() as AddressInfo).port}/hook`;
    try {
      // More of B's notifications than this instance has notification workers (3).
      for (let i = 1; i <= 4; i++) {
        await http()
          .post('/payment/request')
          .set('Authorization', f.keys.merchantB)
          .send({
            amount: 5,
            description: `E2E-HOLE-${i}`,
            reference: `E2E-HOLE-${i}`,
            callBackUrl: holeUrl,
            customerPhone: '0244987654',
            requestType: 'mobile_money',
          })
          .expect(201);
      }
      await eventually(async () => expect(inFlight).toBe(2), 10_000);
      const started = Date.now();
      await pay('E2E-FAIR').expect(201);
      await eventually(async () => expect(receiver.forReference('E2E-FAIR')).toHaveLength(1), 8_000);
      // Delivered well before B's hanging deliveries time out (NOTIFY_TIMEOUT_MS, 10 s here).
      expect(Date.now() - started).toBeLessThan(8_000);
      expect(mostAtOnce).toBe(2);
    } finally {
      hole.closeAllConnections();
      hole.close();
    }
  });

  it('counts callbacks, notification attempts and pending transactions in the metrics, as the database has them', async () => {
    // A quiet point first: no simulator callback in flight and no background job running, so nothing moves between
    // reading the metrics and counting the rows (a reconcile job once settled a transaction in between).
    await simulator.idle();
    await running.app.get<JobWorkers>(JOB_WORKERS).stop();
    const text = (await request(running.metricsServer!).get('/metrics').expect(200)).text;
    const metric = (name: string) =>
      Number(new RegExp(`^${name.replace(/[{}.]/g, '\\$&')} (\\d+)$`, 'm').exec(text)?.[1] ?? 0);
    const prisma = running.database.prisma;
    // Counters count what this instance handled since it started: here, everything this suite's database holds.
    const attempts = (outcome: string) =>
      metric(`transport_events_total{event="payment.notification",outcome="${outcome}"}`);
    expect(attempts('retry')).toBe(await prisma.paymentDeliveryAttempt.count({ where: { outcome: 'retry' } }));
    expect(attempts('retry')).toBeGreaterThanOrEqual(2);
    expect(attempts('delivered')).toBe(await prisma.paymentDeliveryAttempt.count({ where: { outcome: 'delivered' } }));
    expect(metric('transport_notifications_pending')).toBe(
      await prisma.paymentNotification.count({ where: { status: 'pending' } }),
    );
    expect(metric('transport_events_total{event="payment.callback",outcome="duplicate"}')).toBe(
      await prisma.paymentCallback.count({ where: { outcome: 'duplicate' } }),
    );
    expect(metric('transport_events_total{event="payment.callback",outcome="anomaly"}')).toBeGreaterThanOrEqual(1);
    expect(metric('transport_pending_transactions{older_than_seconds="0"}')).toBe(
      await prisma.transaction.count({ where: { status: { in: ['requesting', 'pending'] } } }),
    );
  });

  /** The callback URL the service gave the simulator for a transaction. */
  async function callbackUrlOf(transactionId: string): Promise<URL> {
    const row = await running.database.prisma.transaction.findUniqueOrThrow({ where: { id: transactionId } });
    return new URL(simulator.paymentFor(row.providerReference)!.callbackUrl);
  }
});
