import { createHmac } from 'node:crypto';
import request from 'supertest';
import { PAYMENT_PROVIDER } from '../src/core/tokens';
import { PaymentReconciliationService } from '../src/payments/payment-reconciliation.service';
import { PAYMENT_SETTINGS, type PaymentSettings } from '../src/payments/payment-settings';
import { appOnTier } from './support/app-on-tier';
import { describeOnEachTier } from './support/test-app';

const body = (reference: string, over: object = {}) => ({
  amount: 25.5,
  description: 'Trip payment',
  reference,
  callBackUrl: 'https://merchant.example.com/payments/callback',
  customerName: 'Akua Sarpong',
  customerPhone: '0244987654',
  requestType: 'mobile_money',
  ...over,
});
type Tx = Record<string, unknown> & { _id: string; requestInfo: { Data: { TransactionId: string } } };
/** The provider's callback for a transaction: it names the payment by its ClientReference (the transaction id). */
const callback = (tx: Tx, code = '0000', amount = 25.5) => ({
  ResponseCode: code,
  Message: code === '0000' ? 'success' : 'failed',
  Data: {
    Amount: amount,
    Charges: 0.26,
    AmountAfterCharges: amount - 0.26,
    AmountCharged: amount,
    Description: 'The Mobile Money payment has been approved and processed successfully.',
    ClientReference: tx._id,
    TransactionId: tx.requestInfo.Data.TransactionId,
    ExternalTransactionId: 'e-1',
    OrderId: 'o-1',
    PaymentDate: '2026-11-22T08:31:00.0000000Z',
  },
});
const PROVIDER_SECRET = 'e2e-provider-secret';
const sign = (body: string) => `sha256=${createHmac('sha256', PROVIDER_SECRET).update(body).digest('hex')}`;

describeOnEachTier('payment request and provider callback', (tier) => {
  const {
    running,
    fixture: f,
    http,
  } = appOnTier(tier, {
    fixture: true,
    config: (base) => ({
      ...base,
      metrics: { port: 0, host: '127.0.0.1' },
      provider: { ...base.provider, callbackSecret: PROVIDER_SECRET },
    }),
  });
  const merchant = (key: string) => ({
    post: (path: string, b: object) => http().post(path).set('Authorization', key).send(b),
    get: (path: string) => http().get(path).set('Authorization', key),
  });

  /** Posts a callback as the provider does, signed. */
  const post = (token: string, payload: unknown) => {
    const raw = JSON.stringify(payload);
    return http()
      .post(`/payment/callback/${token}`)
      .set('content-type', 'application/json')
      .set('x-provider-signature', sign(raw))
      .send(raw);
  };

  /** The callback URL the provider was given: the service keeps only the token's hash, so tests capture it here. */
  async function requestAndToken(reference: string, key = f.keys.merchantA): Promise<{ tx: Tx; token: string }> {
    const seen: string[] = [];
    const real = running.app.get(PAYMENT_PROVIDER) as {
      requestPayment: (r: { providerCallbackUrl: string }) => Promise<unknown>;
    };
    const original = real.requestPayment.bind(real);
    real.requestPayment = async (r) => {
      seen.push(r.providerCallbackUrl);
      return original(r);
    };
    try {
      const tx = (await merchant(key).post('/payment/request', body(reference)).expect(201)).body as Tx;
      return { tx, token: seen[0].split('/payment/callback/')[1] };
    } finally {
      real.requestPayment = original;
    }
  }

  it('requests a payment (201, pending, requestInfo 0001), answers a repeat with the same transaction and a changed request with 409', async () => {
    const first = (await merchant(f.keys.merchantA).post('/payment/request', body('PAY-1')).expect(201)).body;
    expect(first).toMatchObject({
      status: 'pending',
      amount: 25.5,
      fees: 0.26,
      reference: 'PAY-1',
      merchant: f.ids.merchantA,
      requestInfo: { ResponseCode: '0001', Data: { ClientReference: first._id, Amount: 25.5 } },
    });
    expect(first).not.toHaveProperty('callBackInfo');
    const again = (await merchant(f.keys.merchantA).post('/payment/request', body('PAY-1')).expect(200)).body;
    expect(again._id).toBe(first._id);
    expect(
      (
        await merchant(f.keys.merchantA)
          .post('/payment/request', body('PAY-1', { amount: 30 }))
          .expect(409)
      ).body.code,
    ).toBe('TRANSACTION_REFERENCE_CONFLICT');
    // Another merchant may use the same reference for its own payment.
    expect((await merchant(f.keys.merchantB).post('/payment/request', body('PAY-1')).expect(201)).body._id).not.toBe(
      first._id,
    );
    await merchant(f.keys.admin).post('/payment/request', body('PAY-2')).expect(403);
    await merchant(f.keys.merchantA)
      .post('/payment/request', body('PAY-3', { callBackUrl: 'ftp://x' }))
      .expect(400);
    const ssrf = await merchant(f.keys.merchantA)
      .post('/payment/request', body('PAY-4', { callBackUrl: 'http://169.254.169.254/latest/meta-data' }))
      .expect(400);
    expect(ssrf.body.code).toBe('CALLBACK_URL_REFUSED');
    expect(await running.database.prisma.transaction.count({ where: { reference: { in: ['PAY-3', 'PAY-4'] } } })).toBe(
      0,
    );
  });

  it('refuses callback hosts that embed a loopback or private IPv4 in an IPv6 address (::/96, NAT64, 6to4, Teredo)', async () => {
    const hosts = [
      '[::7f00:1]',
      '[::a00:1]',
      '[64:ff9b::a9fe:a9fe]',
      '[2002:c0a8:101::1]',
      '[2001:0:4136:e378:8000:63bf:80ff:fffe]',
    ];
    for (const [i, host] of hosts.entries()) {
      const res = await merchant(f.keys.merchantA)
        .post('/payment/request', body(`EMBED-${i}`, { callBackUrl: `https://${host}/cb` }))
        .expect(400);
      expect(res.body.code).toBe('CALLBACK_URL_REFUSED');
    }
    expect(await running.database.prisma.transaction.count({ where: { reference: { startsWith: 'EMBED-' } } })).toBe(0);
  });

  it('applies the final callback: operation 9 then shows callBackInfo 0000 and callBackTime; duplicates change nothing', async () => {
    const { tx, token } = await requestAndToken('PAY-10');
    const res = await post(token, callback(tx)).expect(200);
    expect(res.body).toEqual({ received: true, outcome: 'applied' });
    const status = (await merchant(f.keys.merchantA).get('/payment/check_transaction?reference=PAY-10').expect(200))
      .body;
    expect(status).toMatchObject({
      _id: tx._id,
      status: 'success',
      requestInfo: { ResponseCode: '0001' },
      // Every field the provider sent is kept, PaymentDate included.
      callBackInfo: callback(tx),
    });
    expect(status.callBackTime).toMatch(/Z$/);
    expect((await post(token, callback(tx)).expect(200)).body.outcome).toBe('duplicate');
    const after = (await merchant(f.keys.merchantA).get('/payment/check_transaction?reference=PAY-10').expect(200))
      .body;
    expect({ v: after.__v, u: after.updatedAt }).toEqual({ v: status.__v, u: status.updatedAt });
    const inbox = await running.database.prisma.paymentCallback.findMany({
      where: { transactionId: tx._id as string },
      orderBy: { id: 'asc' },
    });
    expect(inbox.map((c) => c.outcome)).toEqual(['applied', 'duplicate']);
    expect(JSON.parse(inbox[0].body)).toEqual(callback(tx));
  });

  it('refuses unknown tokens (404, kept in the dead-letter table, never applied), stores malformed bodies (400), and never moves a tampered amount to success', async () => {
    const { tx, token } = await requestAndToken('PAY-20');
    const before = await running.database.prisma.paymentCallback.count();
    const letters = await running.database.prisma.paymentDeadLetter.count();
    await post('x'.repeat(43), callback(tx)).expect(404);
    await post('short', callback(tx)).expect(404);
    expect(await running.database.prisma.paymentCallback.count()).toBe(before);
    const dead = await running.database.prisma.paymentDeadLetter.findMany({ orderBy: { id: 'asc' }, skip: letters });
    expect(dead.map((d) => [d.reason, d.transactionId, JSON.parse(d.body).Data.ClientReference])).toEqual([
      ['unknown_token', null, tx._id],
      ['unknown_token', null, tx._id],
    ]);

    const broken = '{"ResponseCode": "0000",';
    const malformed = await http()
      .post(`/payment/callback/${token}`)
      .set('Content-Type', 'application/json')
      .set('x-provider-signature', sign(broken))
      .send(broken)
      .expect(400);
    expect(malformed.headers['content-type']).toMatch(/problem\+json/);
    await http()
      .post(`/payment/callback/${token}`)
      .set('Content-Type', 'text/plain')
      .set('x-provider-signature', sign('not json at all'))
      .send('not json at all')
      .expect(400);
    const tampered = await post(token, callback(tx, '0000', 2.55)).expect(200);
    expect(tampered.body.outcome).toBe('anomaly');
    const status = (await merchant(f.keys.merchantA).get('/payment/check_transaction?reference=PAY-20').expect(200))
      .body;
    expect(status.status).toBe('pending');
    const inbox = await running.database.prisma.paymentCallback.findMany({
      where: { transactionId: tx._id as string },
      orderBy: { id: 'asc' },
    });
    expect(inbox.map((c) => c.outcome)).toEqual(['malformed', 'malformed', 'anomaly']);
    expect(inbox[1].body).toBe('not json at all');
    const huge = await http()
      .post(`/payment/callback/${token}`)
      .send({ pad: 'x'.repeat(200_000) });
    expect(huge.status).toBe(413);
  });

  it("names each payment by its own id at the provider: merchant B reusing A's reference never gets A's payment", async () => {
    const seen: string[] = [];
    const provider = running.app.get(PAYMENT_PROVIDER) as {
      requestPayment: (r: { reference: string }) => Promise<unknown>;
    };
    const original = provider.requestPayment.bind(provider);
    provider.requestPayment = async (r) => {
      seen.push(r.reference);
      return original(r);
    };
    let a: { tx: Tx; token: string };
    let b: { tx: Tx; token: string };
    try {
      a = await requestAndToken('SHARED-REF', f.keys.merchantA);
      b = await requestAndToken('SHARED-REF', f.keys.merchantB);
    } finally {
      provider.requestPayment = original;
    }
    expect(seen).toEqual([a.tx._id, b.tx._id]);
    await post(a.token, callback(a.tx)).expect(200);
    // A's payment, replayed on B's callback URL, is someone else's payment: an anomaly, never B's success.
    expect((await post(b.token, callback(a.tx)).expect(200)).body.outcome).toBe('anomaly');
    const check = (key: string) => merchant(key).get('/payment/check_transaction?reference=SHARED-REF').expect(200);
    expect((await check(f.keys.merchantB)).body.status).toBe('pending');
    expect((await check(f.keys.merchantA)).body.status).toBe('success');
  });

  it('without a provider signature, a forged 0000 is only kept: the status API reports it failed, and failed it ends', async () => {
    const settings = running.app.get<PaymentSettings>(PAYMENT_SETTINGS);
    const provider = running.app.get(PAYMENT_PROVIDER) as { checkStatus: (reference: string) => Promise<unknown> };
    const originalCheck = provider.checkStatus.bind(provider);
    const check = () => merchant(f.keys.merchantA).get('/payment/check_transaction?reference=FORGED-1').expect(200);
    settings.callbackSecret = undefined;
    try {
      const { tx, token } = await requestAndToken('FORGED-1');
      const forged = await http().post(`/payment/callback/${token}`).send(callback(tx)).expect(200);
      expect(forged.body.outcome).toBe('deferred');
      // Not the provider's word yet: kept in the inbox only, never shown as callBackInfo.
      const waiting = (await check()).body;
      expect(waiting.status).toBe('pending');
      expect(waiting).not.toHaveProperty('callBackInfo');
      expect(waiting).not.toHaveProperty('callBackTime');
      const inbox = await running.database.prisma.paymentCallback.findMany({ where: { transactionId: tx._id } });
      expect(inbox.map((c) => [c.outcome, JSON.parse(c.body).ResponseCode])).toEqual([['deferred', '0000']]);
      provider.checkStatus = async (reference: string) => ({
        state: 'refunded',
        clientReference: reference,
        raw: { responseCode: '0000', data: { status: 'Refunded' } },
      });
      await running.app.get(PaymentReconciliationService).reconcile(tx._id, { retryCount: 0, retryLimit: 0 });
      const failed = (await check()).body;
      expect(failed.status).toBe('failed');
      expect(failed).not.toHaveProperty('callBackInfo');
    } finally {
      settings.callbackSecret = PROVIDER_SECRET;
      provider.checkStatus = originalCheck;
    }
  });

  it('without a provider signature, a 0000 the status API confirms becomes callBackInfo (with the time it arrived) only then', async () => {
    const settings = running.app.get<PaymentSettings>(PAYMENT_SETTINGS);
    const provider = running.app.get(PAYMENT_PROVIDER) as { checkStatus: (reference: string) => Promise<unknown> };
    const originalCheck = provider.checkStatus.bind(provider);
    const check = () => merchant(f.keys.merchantA).get('/payment/check_transaction?reference=UNSIGNED-1').expect(200);
    settings.callbackSecret = undefined;
    try {
      const { tx, token } = await requestAndToken('UNSIGNED-1');
      expect((await http().post(`/payment/callback/${token}`).send(callback(tx)).expect(200)).body.outcome).toBe(
        'deferred',
      );
      expect((await check()).body).not.toHaveProperty('callBackInfo');
      provider.checkStatus = async (reference: string) => ({
        state: 'paid',
        clientReference: reference,
        amount: 25.5,
        raw: { responseCode: '0000', data: { status: 'Paid' } },
      });
      await running.app.get(PaymentReconciliationService).reconcile(tx._id, { retryCount: 0, retryLimit: 0 });
      const done = (await check()).body;
      const [kept] = await running.database.prisma.paymentCallback.findMany({ where: { transactionId: tx._id } });
      expect(done).toMatchObject({ status: 'success', callBackInfo: callback(tx) });
      expect(done.callBackTime).toBe(kept.receivedAt.toISOString());
    } finally {
      settings.callbackSecret = PROVIDER_SECRET;
      provider.checkStatus = originalCheck;
    }
  });

  it('answers 202 and keeps a requesting transaction when the provider cannot be reached; a repeat reads it', async () => {
    const provider = running.app.get(PAYMENT_PROVIDER) as { requestPayment: (r: unknown) => Promise<unknown> };
    const original = provider.requestPayment.bind(provider);
    provider.requestPayment = async () => {
      throw new Error('connect ECONNREFUSED');
    };
    try {
      const first = await merchant(f.keys.merchantA).post('/payment/request', body('DOWN-1')).expect(202);
      expect(first.body.status).toBe('requesting');
      expect(first.body).not.toHaveProperty('requestInfo');
      const again = await merchant(f.keys.merchantA).post('/payment/request', body('DOWN-1')).expect(200);
      expect(again.body._id).toBe(first.body._id);
    } finally {
      provider.requestPayment = original;
    }
  });

  it('exposes callback outcomes and pending transactions in Prometheus text, on the metrics port only', async () => {
    const res = await request(running.metricsServer!)
      .get('/metrics')
      .expect(200)
      .expect('content-type', /text\/plain/);
    for (const outcome of ['applied', 'malformed', 'anomaly'])
      expect(res.text).toMatch(
        new RegExp(`^transport_events_total\\{event="payment.callback",outcome="${outcome}"\\} [1-9]\\d*$`, 'm'),
      );
    expect(res.text).toMatch(/^transport_pending_transactions\{older_than_seconds="0"\} [1-9]\d*$/m);
    expect(res.text).toMatch(
      /^http_request_duration_seconds_count\{method="POST",route="\/payment\/callback\/:token",status_code="200"\} [1-9]\d*$/m,
    );
    // The job queue's depth, from pg-boss's cached counts, per queue.
    expect(res.text).toMatch(/^transport_job_queue_jobs\{queue="[^"]+",state="ready"\} \d+$/m);
    // Not on the API's own port, whatever the key.
    await http().get('/metrics').set('Authorization', f.keys.admin).expect(404);
  });

  it('applies exactly once when the same callback arrives several times at once', async () => {
    const { tx, token } = await requestAndToken('PAY-30');
    const results = await Promise.all(Array.from({ length: 5 }, () => post(token, callback(tx, '2001'))));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(results.map((r) => r.body.outcome).sort()).toEqual([
      'applied',
      'duplicate',
      'duplicate',
      'duplicate',
      'duplicate',
    ]);
    const audit = await running.database.prisma.auditEntry.findMany({ where: { entityId: tx._id as string } });
    expect(audit.filter((a) => a.action === 'TransactionFailed')).toHaveLength(1);
  });
  it('lets a merchant retry a failed payment under its reference, as the original did: every attempt kept, operation 9 answers the retry', async () => {
    const check = async () =>
      (await merchant(f.keys.merchantA).get('/payment/check_transaction?reference=PAY-RETRY').expect(200)).body;
    const first = await requestAndToken('PAY-RETRY');
    await post(first.token, callback(first.tx, '2001')).expect(200);
    expect(await check()).toMatchObject({ _id: first.tx._id, status: 'failed' });
    // The retry is a new payment under the same reference (201), not the failed one answered again.
    const retry = await requestAndToken('PAY-RETRY');
    expect(retry.tx._id).not.toBe(first.tx._id);
    expect(await check()).toMatchObject({ _id: retry.tx._id, status: 'pending' });
    await post(retry.token, callback(retry.tx)).expect(200);
    expect(await check()).toMatchObject({ _id: retry.tx._id, status: 'success' });
    // The reference is held again: the same request answers the success, a different one is a conflict.
    const again = await merchant(f.keys.merchantA).post('/payment/request', body('PAY-RETRY')).expect(200);
    expect(again.body._id).toBe(retry.tx._id);
    await merchant(f.keys.merchantA)
      .post('/payment/request', body('PAY-RETRY', { amount: 30 }))
      .expect(409);
    const kept = await running.database.prisma.transaction.findMany({
      where: { reference: 'PAY-RETRY' },
      orderBy: { createdAt: 'asc' },
    });
    expect(kept.map((t) => [t.id, t.status])).toEqual([
      [first.tx._id, 'failed'],
      [retry.tx._id, 'success'],
    ]);
  });
});
