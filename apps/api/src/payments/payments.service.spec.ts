import type {
  CallbackPayload,
  PaymentProvider,
  PaymentRequest,
  RequestInfo,
  StatusCheckResult,
} from '@transport/domain';
import { FixedClock, InMemoryUnitOfWork, SeededRandomSource, SequentialIdGenerator } from '@transport/domain/testing';
import type { EventLog, PaymentMetricsSource, WebhookSender } from '../core/ports';
import { Webhook } from 'standardwebhooks';
import { verifyNotification } from './notification-signature';
import { PaymentsService, QUEUES, RetryLater, validProviderSignature, type PaymentSettings } from './payments.service';

const MERCHANT = '65a1b2c3d4e5f60718293a4b';
const SECRET = `whsec_${Buffer.from('a test signing secret of 32 bytes').toString('base64')}`;

/** The provider as the service sees it: answers requests with 0001 and status checks as told. */
class FakeProvider implements PaymentProvider {
  readonly requests: PaymentRequest[] = [];
  requestAnswer: RequestInfo = {
    Message: 'Transaction pending',
    ResponseCode: '0001',
    Data: { TransactionId: 'tx-1' },
  };
  status: StatusCheckResult = { state: 'pending', raw: {} };
  failRequests = false;
  async requestPayment(request: PaymentRequest): Promise<RequestInfo> {
    if (this.failRequests) throw new Error('provider unreachable');
    this.requests.push(request);
    return this.requestAnswer;
  }
  async checkStatus(): Promise<StatusCheckResult> {
    return this.status;
  }
}

class FakeWebhooks implements WebhookSender {
  readonly sent: Array<{ url: string; headers: Record<string, string>; body: string }> = [];
  answers: Array<number | Error> = [];
  async send(url: string, headers: Record<string, string>, body: string): Promise<number> {
    this.sent.push({ url, headers, body });
    const answer = this.answers.shift() ?? 200;
    if (answer instanceof Error) throw answer;
    return answer;
  }
}

class RecordingEvents implements EventLog {
  readonly lines: Array<{ level: string; event: string; fields: Record<string, unknown> }> = [];
  info = (event: string, fields: Record<string, unknown>) => void this.lines.push({ level: 'info', event, fields });
  warn = (event: string, fields: Record<string, unknown>) => void this.lines.push({ level: 'warn', event, fields });
  error = (event: string, fields: Record<string, unknown>) => void this.lines.push({ level: 'error', event, fields });
}

const metricsSource: PaymentMetricsSource = {
  callbacksByOutcome: async () => [
    { outcome: 'applied', count: 3 },
    { outcome: null, count: 1 },
  ],
  pendingOlderThan: async (cutoff) => (cutoff.getTime() >= Date.parse('2026-11-22T09:59:00Z') ? 2 : 0),
  attemptsByOutcome: async () => [{ outcome: 'delivered', count: 4 }],
  notificationsByStatus: async () => [{ status: 'pending', count: 1 }],
};

function setup(settings: Partial<PaymentSettings> = {}) {
  const uow = new InMemoryUnitOfWork();
  const clock = new FixedClock(new Date('2026-11-22T10:00:00Z'));
  const provider = new FakeProvider();
  const webhooks = new FakeWebhooks();
  const events = new RecordingEvents();
  const refusedUrls: string[] = [];
  const service = new PaymentsService(
    uow,
    uow.stores,
    provider,
    clock,
    new SequentialIdGenerator(),
    new SeededRandomSource(7),
    (url) => {
      if (url.includes('internal')) {
        refusedUrls.push(url);
        throw new Error('refused');
      }
    },
    webhooks,
    metricsSource,
    events,
    { callbackBase: 'https://pay.example.com', reconcileAfterSeconds: 300, ...settings },
  );
  return { uow, clock, provider, webhooks, events, service, refusedUrls };
}

const request = (reference = 'REF-1', amount = 2550) => ({
  merchantId: MERCHANT,
  amount,
  description: 'Trip payment',
  reference,
  callBackUrl: 'https://merchant.example.com/hook',
  customerPhone: '0244987654',
  requestType: 'mobile_money',
});
const merchant = { role: 'merchant' as const, id: MERCHANT };

const callback = (code: string, amount = 25.5, reference = 'REF-1'): CallbackPayload => ({
  ResponseCode: code,
  Message: code === '0000' ? 'success' : 'failed',
  Data: {
    Amount: amount,
    Charges: 0,
    AmountAfterCharges: amount,
    AmountCharged: amount,
    Description: '',
    ClientReference: reference,
    TransactionId: 'tx-1',
    ExternalTransactionId: 'ext-1',
    OrderId: 'order-1',
  },
});

/** Requests a payment and returns the callback token the provider was given. */
async function requested(ctx: ReturnType<typeof setup>, reference = 'REF-1') {
  const { transaction } = await ctx.service.request(request(reference), merchant);
  const url = ctx.provider.requests.at(-1)!.providerCallbackUrl;
  return { transaction, token: url.slice(url.lastIndexOf('/') + 1) };
}

const attempt = (retryCount = 0, retryLimit = 5) => ({ retryCount, retryLimit });

describe('PaymentsService on fakes', () => {
  describe('request', () => {
    it('asks the provider, then stores the pending transaction, its callback token, its audit entry and a status check, together', async () => {
      const ctx = setup();
      const { transaction, token } = await requested(ctx);
      expect(transaction.status).toBe('pending');
      expect(ctx.provider.requests[0]).toMatchObject({
        reference: 'REF-1',
        amount: 2550,
        providerCallbackUrl: expect.stringMatching(
          /^https:\/\/pay\.example\.com\/payment\/callback\/[A-Za-z0-9_-]{43}$/,
        ),
      });
      expect(await ctx.uow.stores.callbackTokens.findTransactionId('not-a-hash')).toBeUndefined();
      expect(ctx.uow.audit.entries.map((e) => [e.entity, e.action, e.actor.id])).toEqual([
        ['transaction', 'TransactionRequested', MERCHANT],
      ]);
      expect(ctx.uow.followUps.jobs).toEqual([
        { queue: QUEUES.reconcile, data: { transactionId: transaction.id }, options: { startAfterSeconds: 300 } },
      ]);
      expect(token).not.toEqual('');
    });

    it('answers a repeated request with the stored transaction and asks the provider only once', async () => {
      const ctx = setup();
      const first = await ctx.service.request(request(), merchant);
      const again = await ctx.service.request(request(), merchant);
      expect(again).toEqual({ transaction: expect.objectContaining({ id: first.transaction.id }), created: false });
      expect(ctx.provider.requests).toHaveLength(1);
    });

    it('refuses a different request under a used reference (TRANSACTION_REFERENCE_CONFLICT)', async () => {
      const ctx = setup();
      await ctx.service.request(request(), merchant);
      await expect(ctx.service.request(request('REF-1', 9999), merchant)).rejects.toMatchObject({
        code: 'TRANSACTION_REFERENCE_CONFLICT',
      });
    });

    it('starts failed when the provider refuses, and schedules the merchant notification at once', async () => {
      const ctx = setup();
      ctx.provider.requestAnswer = { Message: 'Insufficient funds', ResponseCode: '2001', Data: {} };
      const { transaction } = await ctx.service.request(request(), merchant);
      expect(transaction.status).toBe('failed');
      expect(ctx.uow.notifications.all).toHaveLength(1);
      expect(ctx.uow.followUps.jobs.map((j) => j.queue)).toEqual([QUEUES.notify]);
    });

    it('stores nothing when the provider cannot be reached, or when the callBackUrl is refused', async () => {
      const ctx = setup();
      ctx.provider.failRequests = true;
      await expect(ctx.service.request(request(), merchant)).rejects.toThrow('provider unreachable');
      await expect(
        ctx.service.request({ ...request('REF-2'), callBackUrl: 'https://internal.example/hook' }, merchant),
      ).rejects.toThrow('refused');
      expect(await ctx.uow.stores.transactions.findByMerchantReference(MERCHANT, 'REF-1')).toBeUndefined();
      expect(ctx.uow.audit.entries).toEqual([]);
      expect(ctx.refusedUrls).toEqual(['https://internal.example/hook']);
    });
  });

  describe('receiveCallback', () => {
    it('stores the raw callback, applies 0000 once, and queues the signed notification', async () => {
      const ctx = setup();
      const { transaction, token } = await requested(ctx);
      const result = await ctx.service.receiveCallback(token, JSON.stringify(callback('0000')), {
        'content-type': 'application/json',
      });
      expect(result).toEqual({ outcome: 'applied' });
      expect((await ctx.service.ownTransaction(MERCHANT, 'REF-1')).status).toBe('success');
      expect(ctx.uow.callbacks.all).toMatchObject([
        { transactionId: transaction.id, outcome: 'applied', headers: { 'content-type': 'application/json' } },
      ]);
      expect(ctx.uow.notifications.all).toHaveLength(1);
      expect(JSON.parse(ctx.uow.notifications.all[0].body)).toMatchObject({
        _id: transaction.id,
        status: 'success',
        amount: 25.5,
      });
    });

    it('applies duplicates and late 0005s as duplicates: one final state, one audit entry, one notification', async () => {
      const ctx = setup();
      const { token } = await requested(ctx);
      const outcomes = [];
      for (const body of [callback('0000'), callback('0000'), callback('0005')])
        outcomes.push((await ctx.service.receiveCallback(token, JSON.stringify(body), {})).outcome);
      expect(outcomes).toEqual(['applied', 'duplicate', 'duplicate']);
      expect(ctx.uow.audit.entries.filter((e) => e.action === 'TransactionSucceeded')).toHaveLength(1);
      expect(ctx.uow.notifications.all).toHaveLength(1);
      expect(ctx.uow.callbacks.all).toHaveLength(3);
    });

    it('defers on 0005 (state unknown) and asks the status API at once', async () => {
      const ctx = setup();
      const { transaction, token } = await requested(ctx);
      ctx.uow.followUps.take(QUEUES.reconcile);
      expect((await ctx.service.receiveCallback(token, JSON.stringify(callback('0005')), {})).outcome).toBe('deferred');
      expect(ctx.uow.followUps.jobs).toEqual([
        { queue: QUEUES.reconcile, data: { transactionId: transaction.id }, options: {} },
      ]);
    });

    it('keeps a wrong amount as an anomaly: status unchanged, no notification, a status check scheduled', async () => {
      const ctx = setup();
      const { token } = await requested(ctx);
      ctx.uow.followUps.take(QUEUES.reconcile);
      expect((await ctx.service.receiveCallback(token, JSON.stringify(callback('0000', 1)), {})).outcome).toBe(
        'anomaly',
      );
      const stored = await ctx.service.ownTransaction(MERCHANT, 'REF-1');
      expect(stored.status).toBe('pending');
      expect(stored.toState().anomalies).toMatchObject([{ reason: 'amount_mismatch' }]);
      expect(ctx.uow.notifications.all).toEqual([]);
      expect(ctx.uow.followUps.jobs.map((j) => j.queue)).toEqual([QUEUES.reconcile]);
    });

    it('records a contradicting late callback as an anomaly and keeps the first final state', async () => {
      const ctx = setup();
      const { token } = await requested(ctx);
      await ctx.service.receiveCallback(token, JSON.stringify(callback('0000')), {});
      expect((await ctx.service.receiveCallback(token, JSON.stringify(callback('2001')), {})).outcome).toBe('anomaly');
      expect((await ctx.service.ownTransaction(MERCHANT, 'REF-1')).status).toBe('success');
    });

    it('answers an unknown token NOT_FOUND and stores nothing', async () => {
      const ctx = setup();
      await requested(ctx);
      await expect(
        ctx.service.receiveCallback('A'.repeat(43), JSON.stringify(callback('0000')), {}),
      ).rejects.toMatchObject({ code: 'NOT_FOUND' });
      await expect(ctx.service.receiveCallback('bad token!', '{}', {})).rejects.toMatchObject({ code: 'NOT_FOUND' });
      expect(ctx.uow.callbacks.all).toEqual([]);
    });

    it('stores a body that is not a callback as malformed, then refuses it (INVALID_CALLBACK)', async () => {
      const ctx = setup();
      const { token } = await requested(ctx);
      await expect(ctx.service.receiveCallback(token, 'not json', {})).rejects.toMatchObject({
        code: 'INVALID_CALLBACK',
      });
      await expect(ctx.service.receiveCallback(token, '{"ResponseCode":"0000"}', {})).rejects.toMatchObject({
        code: 'INVALID_CALLBACK',
      });
      expect(ctx.uow.callbacks.all.map((c) => c.outcome)).toEqual(['malformed', 'malformed']);
      expect((await ctx.service.ownTransaction(MERCHANT, 'REF-1')).status).toBe('pending');
    });

    it('with a callback secret, refuses a missing or wrong signature (INVALID_SIGNATURE) and stores nothing', async () => {
      const ctx = setup({ callbackSecret: 'provider-secret' });
      const { token } = await requested(ctx);
      const body = JSON.stringify(callback('0000'));
      await expect(ctx.service.receiveCallback(token, body, {})).rejects.toMatchObject({
        code: 'INVALID_SIGNATURE',
        status: 401,
      });
      await expect(
        ctx.service.receiveCallback(token, body, { 'x-provider-signature': 'sha256=00' }),
      ).rejects.toMatchObject({ code: 'INVALID_SIGNATURE' });
      expect(ctx.uow.callbacks.all).toEqual([]);
      const { createHmac } = await import('node:crypto');
      const signature = `sha256=${createHmac('sha256', 'provider-secret').update(body).digest('hex')}`;
      expect(validProviderSignature('provider-secret', body, signature)).toBe(true);
      expect(await ctx.service.receiveCallback(token, body, { 'x-provider-signature': signature })).toEqual({
        outcome: 'applied',
      });
    });

    it('rolls the whole change back when a write fails half-way (nothing applied, the inbox row stays unprocessed)', async () => {
      const ctx = setup();
      const { token } = await requested(ctx);
      const auditBefore = ctx.uow.audit.entries.length;
      const append = ctx.uow.audit.append.bind(ctx.uow.audit);
      ctx.uow.audit.append = async () => {
        throw new Error('disk full');
      };
      await expect(ctx.service.receiveCallback(token, JSON.stringify(callback('0000')), {})).rejects.toThrow(
        'disk full',
      );
      ctx.uow.audit.append = append;
      expect((await ctx.service.ownTransaction(MERCHANT, 'REF-1')).status).toBe('pending');
      expect(ctx.uow.audit.entries).toHaveLength(auditBefore);
      expect(ctx.uow.notifications.all).toEqual([]);
      expect(ctx.uow.callbacks.all.map((c) => c.processedAt)).toEqual([null]);
      // The recovery sweep applies it later, once.
      expect(await ctx.service.sweepStoredCallbacks(0)).toBe(1);
      expect(await ctx.service.sweepStoredCallbacks(0)).toBe(0);
      expect((await ctx.service.ownTransaction(MERCHANT, 'REF-1')).status).toBe('success');
      expect(ctx.events.lines.filter((l) => l.event === 'payment.callback_recovered')).toHaveLength(1);
    });
  });

  describe('processStoredCallback', () => {
    it('applies a stored callback at most once, however often it is processed', async () => {
      const ctx = setup();
      const { transaction } = await requested(ctx);
      const stored = await ctx.uow.stores.callbacks.store({
        transactionId: transaction.id,
        receivedAt: ctx.clock.now(),
        headers: {},
        body: JSON.stringify(callback('0000')),
      });
      expect(await ctx.service.processStoredCallback(stored)).toBe('applied');
      expect(await ctx.service.processStoredCallback(stored)).toBeUndefined();
      expect(ctx.uow.audit.entries.filter((e) => e.action === 'TransactionSucceeded')).toHaveLength(1);
    });

    it('reorders safely: a 0005 stored before the final callback but applied after it is a duplicate', async () => {
      const ctx = setup();
      const { transaction } = await requested(ctx);
      const store = (code: string) =>
        ctx.uow.stores.callbacks.store({
          transactionId: transaction.id,
          receivedAt: ctx.clock.now(),
          headers: {},
          body: JSON.stringify(callback(code)),
        });
      const early = await store('0005');
      const final = await store('0000');
      expect(await ctx.service.processStoredCallback(final)).toBe('applied');
      expect(await ctx.service.processStoredCallback(early)).toBe('duplicate');
      expect((await ctx.service.ownTransaction(MERCHANT, 'REF-1')).status).toBe('success');
    });
  });

  describe('reconcile', () => {
    it('settles a pending transaction from a paid answer and queues the notification', async () => {
      const ctx = setup();
      const { transaction } = await requested(ctx);
      ctx.provider.status = { state: 'paid', amount: 25.5, clientReference: 'REF-1', raw: { status: 'Paid' } };
      await ctx.service.reconcile(transaction.id, attempt());
      const settled = await ctx.service.ownTransaction(MERCHANT, 'REF-1');
      expect(settled.status).toBe('success');
      expect(settled.toState().statusCheckInfo).toEqual({ status: 'Paid' });
      expect(ctx.uow.followUps.jobs.map((j) => j.queue)).toEqual([QUEUES.reconcile, QUEUES.notify]);
      expect(ctx.events.lines).toContainEqual(
        expect.objectContaining({
          event: 'payment.status_check',
          fields: expect.objectContaining({ outcome: 'applied', status: 'success' }),
        }),
      );
    });

    it('fails a transaction the provider reports failed', async () => {
      const ctx = setup();
      const { transaction } = await requested(ctx);
      ctx.provider.status = { state: 'failed', raw: {} };
      await ctx.service.reconcile(transaction.id, attempt());
      expect((await ctx.service.ownTransaction(MERCHANT, 'REF-1')).status).toBe('failed');
    });

    it('asks again later (RetryLater) while the provider says pending, without scheduling a second check', async () => {
      const ctx = setup();
      const { transaction } = await requested(ctx);
      ctx.uow.followUps.take(QUEUES.reconcile);
      await expect(ctx.service.reconcile(transaction.id, attempt())).rejects.toBeInstanceOf(RetryLater);
      expect(ctx.uow.followUps.jobs).toEqual([]);
    });

    it('gives up with an error line once the retries are spent', async () => {
      const ctx = setup();
      const { transaction } = await requested(ctx);
      await ctx.service.reconcile(transaction.id, attempt(5, 5));
      expect(ctx.events.lines).toContainEqual(
        expect.objectContaining({ level: 'error', event: 'payment.reconcile_gave_up' }),
      );
    });

    it('does nothing for a transaction that is already final or unknown', async () => {
      const ctx = setup();
      const { transaction, token } = await requested(ctx);
      await ctx.service.receiveCallback(token, JSON.stringify(callback('0000')), {});
      ctx.provider.status = { state: 'failed', raw: {} };
      await ctx.service.reconcile(transaction.id, attempt());
      await ctx.service.reconcile('ffffffffffffffffffffffff', attempt());
      expect((await ctx.service.ownTransaction(MERCHANT, 'REF-1')).status).toBe('success');
    });
  });

  describe('deliverNotification', () => {
    async function finished(ctx: ReturnType<typeof setup>) {
      const { transaction, token } = await requested(ctx);
      await ctx.service.receiveCallback(token, JSON.stringify(callback('0000')), {});
      const notification = ctx.uow.notifications.all[0];
      ctx.uow.notifications.setMerchant(transaction.id, { reference: 'REF-1', signingSecret: SECRET });
      return notification.id;
    }

    it('sends the stored body signed with the merchant secret, and records the delivery', async () => {
      const ctx = setup();
      const id = await finished(ctx);
      await ctx.service.deliverNotification(id, attempt());
      const [sent] = ctx.webhooks.sent;
      expect(sent.url).toBe('https://merchant.example.com/hook');
      expect(sent.headers['idempotency-key']).toBe(id);
      expect(verifyNotification(SECRET, sent.headers, sent.body, ctx.clock.now().getTime())).toBe(true);
      expect(ctx.uow.notifications.all[0]).toMatchObject({
        status: 'delivered',
        attempts: 1,
        attemptLog: [{ outcome: 'delivered', statusCode: 200 }],
      });
    });

    it('signs as Standard Webhooks: the standardwebhooks library verifies it, and a replay under another id or a changed body fails', async () => {
      const ctx = setup();
      const id = await finished(ctx);
      await ctx.service.deliverNotification(id, attempt());
      const [sent] = ctx.webhooks.sent;
      jest.spyOn(Date, 'now').mockReturnValue(ctx.clock.now().getTime());
      try {
        const webhook = new Webhook(SECRET);
        expect(webhook.verify(sent.body, sent.headers)).toMatchObject({ reference: 'REF-1', status: 'success' });
        expect(sent.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
        expect(() => webhook.verify(sent.body, { ...sent.headers, 'webhook-id': 'another-id' })).toThrow(
          /No matching signature/,
        );
        expect(() => webhook.verify(sent.body.replace('success', 'failed'), sent.headers)).toThrow(
          /No matching signature/,
        );
        expect(() =>
          new Webhook(`whsec_${Buffer.from('someone else').toString('base64')}`).verify(sent.body, sent.headers),
        ).toThrow(/No matching signature/);
        expect(
          verifyNotification(
            SECRET,
            { ...sent.headers, 'webhook-id': 'another-id' },
            sent.body,
            ctx.clock.now().getTime(),
          ),
        ).toBe(false);
      } finally {
        jest.restoreAllMocks();
      }
    });

    it('retries a failing endpoint with the same id, then gives up after the last attempt', async () => {
      const ctx = setup();
      const id = await finished(ctx);
      ctx.webhooks.answers = [503, new Error('connect ECONNREFUSED'), 500];
      await expect(ctx.service.deliverNotification(id, attempt(0, 2))).rejects.toBeInstanceOf(RetryLater);
      await expect(ctx.service.deliverNotification(id, attempt(1, 2))).rejects.toBeInstanceOf(RetryLater);
      await ctx.service.deliverNotification(id, attempt(2, 2));
      expect(ctx.webhooks.sent.map((s) => s.headers['idempotency-key'])).toEqual([id, id, id]);
      expect(ctx.uow.notifications.all[0]).toMatchObject({ status: 'failed', attempts: 3 });
      expect(ctx.uow.notifications.all[0].attemptLog.map((a) => [a.outcome, a.statusCode])).toEqual([
        ['retry', 503],
        ['retry', null],
        ['failed', 500],
      ]);
      await ctx.service.deliverNotification(id, attempt(3, 2));
      expect(ctx.webhooks.sent).toHaveLength(3);
    });

    it('lists every attempt for the merchant that owns the transaction, and hides it from others', async () => {
      const ctx = setup();
      const id = await finished(ctx);
      await ctx.service.deliverNotification(id, attempt());
      const deliveries = await ctx.service.deliveries(MERCHANT, 'REF-1');
      expect(deliveries).toMatchObject({
        reference: 'REF-1',
        notification: { id, status: 'delivered' },
        attempts: [{ attempt: 1, outcome: 'delivered' }],
      });
      await expect(ctx.service.deliveries('65a1b2c3d4e5f60718293a4c', 'REF-1')).rejects.toMatchObject({
        code: 'NOT_FOUND',
      });
      expect((await ctx.service.deliveries(MERCHANT, 'REF-1')).attempts).toHaveLength(1);
    });

    it('shows no notification while the transaction is pending', async () => {
      const ctx = setup();
      await requested(ctx);
      expect(await ctx.service.deliveries(MERCHANT, 'REF-1')).toMatchObject({ notification: null, attempts: [] });
    });
  });

  it('renders the metrics in Prometheus text from the counts', async () => {
    const text = await setup().service.metrics();
    expect(text).toContain('transport_payment_callbacks_total{outcome="applied"} 3');
    expect(text).toContain('transport_payment_callbacks_total{outcome="unprocessed"} 1');
    expect(text).toContain('transport_pending_transactions{older_than_seconds="0"} 2');
    expect(text).toContain('transport_pending_transactions{older_than_seconds="86400"} 0');
    expect(text).toContain('transport_notification_attempts_total{outcome="delivered"} 4');
    expect(text).toContain('transport_notifications{status="pending"} 1');
  });
});
