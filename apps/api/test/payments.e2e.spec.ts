import request from 'supertest';
import type { RunningApp } from '../src/app';
import { PAYMENT_PROVIDER } from '../src/core/tokens';
import { loadApiFixture, type ApiFixture } from './support/api-fixtures';
import { describeOnEachTier, openTierStore, startTestApp, type TierStore } from './support/test-app';

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
const callback = (reference: string, code = '0000', amount = 25.5) => ({
  ResponseCode: code,
  Message: code === '0000' ? 'success' : 'failed',
  Data: {
    Amount: amount,
    Charges: 0.26,
    AmountAfterCharges: amount - 0.26,
    AmountCharged: amount,
    Description: 'The Mobile Money payment has been approved and processed successfully.',
    ClientReference: reference,
    TransactionId: 't-1',
    ExternalTransactionId: 'e-1',
    OrderId: 'o-1',
  },
});

describeOnEachTier('payment request and provider callback', (tier) => {
  let store: TierStore;
  let running: RunningApp;
  let f: ApiFixture;
  const http = () => request(running.app.getHttpServer());
  const merchant = (key: string) => ({
    post: (path: string, b: object) => http().post(path).set('Authorization', key).send(b),
    get: (path: string) => http().get(path).set('Authorization', key),
  });

  beforeAll(async () => {
    store = await openTierStore(tier);
    running = await startTestApp(store.config());
    f = await loadApiFixture(running.database.prisma);
  });
  afterAll(async () => {
    await running?.close();
    await store?.dispose();
  });

  /** The callback URL the provider was given: the service keeps only the token's hash, so tests capture it here. */
  async function requestAndToken(reference: string): Promise<{ tx: Record<string, unknown>; token: string }> {
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
      const tx = (await merchant(f.keys.merchantA).post('/payment/request', body(reference)).expect(201)).body;
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
      requestInfo: { ResponseCode: '0001', Data: { ClientReference: 'PAY-1', Amount: 25.5 } },
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

  it('applies the final callback: operation 9 then shows callBackInfo 0000 and callBackTime; duplicates change nothing', async () => {
    const { tx, token } = await requestAndToken('PAY-10');
    const res = await http().post(`/payment/callback/${token}`).send(callback('PAY-10')).expect(200);
    expect(res.body).toEqual({ received: true, outcome: 'applied' });
    const status = (await merchant(f.keys.merchantA).get('/payment/check_transaction?reference=PAY-10').expect(200))
      .body;
    expect(status).toMatchObject({
      _id: tx._id,
      status: 'success',
      requestInfo: { ResponseCode: '0001' },
      callBackInfo: { ResponseCode: '0000', Data: { Amount: 25.5, ClientReference: 'PAY-10' } },
    });
    expect(status.callBackTime).toMatch(/Z$/);
    expect((await http().post(`/payment/callback/${token}`).send(callback('PAY-10')).expect(200)).body.outcome).toBe(
      'duplicate',
    );
    const after = (await merchant(f.keys.merchantA).get('/payment/check_transaction?reference=PAY-10').expect(200))
      .body;
    expect({ v: after.__v, u: after.updatedAt }).toEqual({ v: status.__v, u: status.updatedAt });
    const inbox = await running.database.prisma.paymentCallback.findMany({
      where: { transactionId: tx._id as string },
      orderBy: { id: 'asc' },
    });
    expect(inbox.map((c) => c.outcome)).toEqual(['applied', 'duplicate']);
    expect(JSON.parse(inbox[0].body)).toEqual(callback('PAY-10'));
  });

  it('refuses unknown tokens (404, nothing stored), stores malformed bodies (400), and never moves a tampered amount to success', async () => {
    const before = await running.database.prisma.paymentCallback.count();
    await http()
      .post(`/payment/callback/${'x'.repeat(43)}`)
      .send(callback('PAY-10'))
      .expect(404);
    await http().post('/payment/callback/short').send(callback('PAY-10')).expect(404);
    expect(await running.database.prisma.paymentCallback.count()).toBe(before);

    const { tx, token } = await requestAndToken('PAY-20');
    const malformed = await http()
      .post(`/payment/callback/${token}`)
      .set('Content-Type', 'application/json')
      .send('{"ResponseCode": "0000",')
      .expect(400);
    expect(malformed.headers['content-type']).toMatch(/problem\+json/);
    await http()
      .post(`/payment/callback/${token}`)
      .set('Content-Type', 'text/plain')
      .send('not json at all')
      .expect(400);
    const tampered = await http()
      .post(`/payment/callback/${token}`)
      .send(callback('PAY-20', '0000', 2.55))
      .expect(200);
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

  it('exposes callback outcomes and pending transactions in Prometheus text', async () => {
    const res = await http()
      .get('/metrics')
      .set('Authorization', f.keys.admin)
      .expect(200)
      .expect('content-type', /text\/plain/);
    expect(res.text).toMatch(/^transport_payment_callbacks_total\{outcome="applied"\} [1-9]\d*$/m);
    expect(res.text).toMatch(/^transport_payment_callbacks_total\{outcome="malformed"\} [1-9]\d*$/m);
    expect(res.text).toMatch(/^transport_payment_callbacks_total\{outcome="anomaly"\} [1-9]\d*$/m);
    expect(res.text).toMatch(/^transport_pending_transactions\{older_than_seconds="0"\} [1-9]\d*$/m);
    await http().get('/metrics').set('Authorization', f.keys.merchantA).expect(403);
  });

  it('applies exactly once when the same callback arrives several times at once', async () => {
    const { tx, token } = await requestAndToken('PAY-30');
    const results = await Promise.all(
      Array.from({ length: 5 }, () => http().post(`/payment/callback/${token}`).send(callback('PAY-30', '2001'))),
    );
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
});
