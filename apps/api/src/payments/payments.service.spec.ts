import type {
  CallbackPayload,
  PaymentProvider,
  PaymentRequest,
  RequestInfo,
  StatusCheckResult,
} from '@transport/domain';
import { FixedClock, InMemoryUnitOfWork, SeededRandomSource, SequentialIdGenerator } from '@transport/domain/testing';
import { createHmac } from 'node:crypto';
import type { EventLog, WebhookSender } from '../core/ports';
import { CountingRateLimits, InMemoryMerchants } from '../core/testing/fixtures';
import { Webhook } from 'standardwebhooks';
import { verifyNotification } from './notification-signature';
import { PaymentsService, QUEUES, RetryLater, validProviderSignature, type PaymentSettings } from './payments.service';

const MERCHANT = '65a1b2c3d4e5f60718293a4b';
const OTHER_MERCHANT = '65a1b2c3d4e5f60718293a4c';
/** The first transaction of a setup (a fresh id generator each time): its id is its ClientReference at the provider. */
const TX1 = new SequentialIdGenerator().next();
const PROVIDER_SECRET = 'provider-secret';
const ADDRESS = '203.0.113.7';
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

function setup(settings: Partial<PaymentSettings> = {}, limits: Record<string, number> = {}) {
  const uow = new InMemoryUnitOfWork();
  const rateLimits = new CountingRateLimits(limits);
  const merchants = new InMemoryMerchants();
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
    events,
    rateLimits,
    merchants,
    {
      callbackBase: 'https://pay.example.com',
      reconcileAfterSeconds: 300,
      callbackSecret: PROVIDER_SECRET,
      tokenGraceHours: 168,
      maxCallbacksPerTransaction: 20,
      deadLetterRetentionDays: 7,
      notifyPauseAfterHours: 12,
      backstopAfterMinutes: 30,
      unpaidFinalAfterSeconds: 900,
      ...settings,
    },
  );
  return { uow, clock, provider, webhooks, events, service, refusedUrls, rateLimits, merchants, settings };
}

/** Posts a callback as the provider does: signed when the service expects signatures. */
function post(ctx: ReturnType<typeof setup>, token: string, payload: unknown, headers: Record<string, string> = {}) {
  const body = typeof payload === 'string' ? payload : JSON.stringify(payload);
  const secret = 'callbackSecret' in ctx.settings ? ctx.settings.callbackSecret : PROVIDER_SECRET;
  const signed = secret
    ? { ...headers, 'x-provider-signature': `sha256=${createHmac('sha256', secret).update(body).digest('hex')}` }
    : headers;
  return ctx.service.receiveCallback(token, body, signed, ADDRESS);
}

const later = (ctx: ReturnType<typeof setup>, ms: number) => ctx.clock.set(new Date(ctx.clock.now().getTime() + ms));

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

const callback = (code: string, amount = 25.5, reference = TX1): CallbackPayload => ({
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
    it('stores the intent (transaction, token, audit entry, status check) first, then asks the provider under the transaction id', async () => {
      const ctx = setup();
      const { transaction, token } = await requested(ctx);
      expect(transaction.status).toBe('pending');
      expect(ctx.provider.requests[0]).toMatchObject({
        reference: transaction.id,
        amount: 2550,
        providerCallbackUrl: expect.stringMatching(
          /^https:\/\/pay\.example\.com\/payment\/callback\/[A-Za-z0-9_-]{43}$/,
        ),
      });
      expect(transaction.toState()).toMatchObject({ providerReference: transaction.id, providerTransactionId: 'tx-1' });
      expect(await ctx.uow.stores.callbackTokens.find('not-a-hash')).toBeUndefined();
      expect(ctx.uow.audit.entries.map((e) => [e.entity, e.action, e.actor.id])).toEqual([
        ['transaction', 'TransactionRequested', MERCHANT],
        ['transaction', 'TransactionProviderAnswered', 'system'],
      ]);
      // Events only: the audit log never copies a whole state (or a provider's message) into itself.
      expect(ctx.uow.audit.entries.map((e) => [e.before, e.after])).toEqual([
        [null, { status: 'requesting' }],
        [null, { responseCode: '0001' }],
      ]);
      expect(ctx.uow.followUps.jobs).toEqual([
        { queue: QUEUES.reconcile, data: { transactionId: transaction.id }, options: { startAfterSeconds: 300 } },
      ]);
      expect(token).not.toEqual('');
    });

    it("names two merchants' payments under the same reference apart at the provider, and one callback cannot settle the other", async () => {
      const ctx = setup();
      const a = await requested(ctx);
      const b = await ctx.service.request({ ...request(), merchantId: OTHER_MERCHANT }, merchant);
      const [first, second] = ctx.provider.requests.map((r) => r.reference);
      expect(first).not.toEqual(second);
      expect([first, second]).toEqual([a.transaction.id, b.transaction.id]);
      // A's successful callback, replayed on B's callback URL: an anomaly, never B's success.
      const bUrl = ctx.provider.requests[1].providerCallbackUrl;
      const bToken = bUrl.slice(bUrl.lastIndexOf('/') + 1);
      expect((await post(ctx, bToken, callback('0000', 25.5, a.transaction.id))).outcome).toBe('anomaly');
      expect((await ctx.service.ownTransaction(OTHER_MERCHANT, 'REF-1')).status).toBe('pending');
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
      expect(ctx.uow.followUps.jobs.map((j) => j.queue)).toEqual([QUEUES.reconcile, QUEUES.notify]);
      expect(ctx.uow.followUps.jobs[1].options).toEqual({ group: MERCHANT });
    });

    it('keeps a requesting transaction when the provider cannot be reached; its status check settles it', async () => {
      const ctx = setup();
      ctx.provider.failRequests = true;
      const { transaction, created } = await ctx.service.request(request(), merchant);
      expect({ created, status: transaction.status }).toEqual({ created: true, status: 'requesting' });
      expect(transaction.toState()).toMatchObject({ needsStatusCheck: true });
      expect(transaction.toState()).not.toHaveProperty('requestInfo');
      expect(ctx.events.lines).toContainEqual(expect.objectContaining({ event: 'payment.request_unanswered' }));
      // A repeat of the same request reads it; it does not ask the provider again.
      expect((await ctx.service.request(request(), merchant)).created).toBe(false);
      ctx.provider.status = { state: 'paid', amount: 25.5, clientReference: TX1, transactionId: 'tx-9', raw: {} };
      await ctx.service.reconcile(transaction.id, attempt());
      expect((await ctx.service.ownTransaction(MERCHANT, 'REF-1')).toState()).toMatchObject({
        status: 'success',
        providerTransactionId: 'tx-9',
      });
    });

    it('leaves a transaction reconciliation settles when the provider answered but the answer could not be written', async () => {
      const ctx = setup();
      const update = ctx.uow.repositories.transactions.update;
      ctx.uow.repositories.transactions.update = async () => {
        throw new Error('database gone');
      };
      const { transaction, created } = await ctx.service.request(request(), merchant);
      ctx.uow.repositories.transactions.update = update;
      expect({ created, status: transaction.status }).toEqual({ created: true, status: 'requesting' });
      expect(ctx.provider.requests).toHaveLength(1);
      expect(ctx.events.lines).toContainEqual(
        expect.objectContaining({ level: 'error', event: 'payment.answer_not_recorded' }),
      );
      expect(ctx.uow.followUps.jobs.map((j) => j.queue)).toEqual([QUEUES.reconcile]);
      ctx.provider.status = { state: 'unpaid', raw: {} };
      later(ctx, 16 * 60_000);
      await ctx.service.reconcile(transaction.id, attempt());
      expect((await ctx.service.ownTransaction(MERCHANT, 'REF-1')).status).toBe('failed');
    });

    it('stores nothing when the callBackUrl is refused', async () => {
      const ctx = setup();
      await expect(
        ctx.service.request({ ...request('REF-2'), callBackUrl: 'https://internal.example/hook' }, merchant),
      ).rejects.toThrow('refused');
      expect(await ctx.uow.stores.transactions.findByMerchantReference(MERCHANT, 'REF-2')).toBeUndefined();
      expect(ctx.uow.audit.entries).toEqual([]);
      expect(ctx.refusedUrls).toEqual(['https://internal.example/hook']);
    });

    it('limits prompts per customer phone and requests per merchant (429), keyed without the phone number itself', async () => {
      const ctx = setup({}, { 'payment-phone': 1, 'payment-merchant': 3 });
      await ctx.service.request(request('REF-1'), merchant);
      await expect(ctx.service.request(request('REF-2'), merchant)).rejects.toMatchObject({
        code: 'RATE_LIMITED',
        status: 429,
      });
      expect(await ctx.uow.stores.transactions.findByMerchantReference(MERCHANT, 'REF-2')).toBeUndefined();
      await ctx.service.request({ ...request('REF-3'), customerPhone: '0241234567' }, merchant);
      await expect(
        ctx.service.request({ ...request('REF-4'), customerPhone: '0207654321' }, merchant),
      ).rejects.toMatchObject({ code: 'RATE_LIMITED' });
      expect([...ctx.rateLimits.used.keys()].join(' ')).not.toMatch(/244987654/);
      // A repeat of a stored request is a read, and counts against nothing.
      const used = [...ctx.rateLimits.used.values()];
      await ctx.service.request(request('REF-1'), merchant);
      expect([...ctx.rateLimits.used.values()]).toEqual(used);
    });
  });

  describe('receiveCallback', () => {
    it('stores the raw callback, applies 0000 once, and queues the signed notification', async () => {
      const ctx = setup();
      const { transaction, token } = await requested(ctx);
      const result = await post(ctx, token, callback('0000'), {
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
        outcomes.push((await post(ctx, token, body)).outcome);
      expect(outcomes).toEqual(['applied', 'duplicate', 'duplicate']);
      // Each callback is one counted event with its outcome (transport_events_total in the metrics).
      expect(ctx.events.lines.filter((l) => l.event === 'payment.callback').map((l) => l.fields.outcome)).toEqual([
        'applied',
        'duplicate',
        'duplicate',
      ]);
      expect(ctx.uow.audit.entries.filter((e) => e.action === 'TransactionSucceeded')).toHaveLength(1);
      expect(ctx.uow.notifications.all).toHaveLength(1);
      expect(ctx.uow.callbacks.all).toHaveLength(3);
    });

    it('defers on 0005 (state unknown) and asks the status API at once', async () => {
      const ctx = setup();
      const { transaction, token } = await requested(ctx);
      ctx.uow.followUps.take(QUEUES.reconcile);
      expect((await post(ctx, token, callback('0005'))).outcome).toBe('deferred');
      expect(ctx.uow.followUps.jobs).toEqual([
        { queue: QUEUES.reconcile, data: { transactionId: transaction.id }, options: {} },
      ]);
    });

    it('keeps a wrong amount as an anomaly: status unchanged, no notification, a status check scheduled', async () => {
      const ctx = setup();
      const { token } = await requested(ctx);
      ctx.uow.followUps.take(QUEUES.reconcile);
      expect((await post(ctx, token, callback('0000', 1))).outcome).toBe('anomaly');
      const stored = await ctx.service.ownTransaction(MERCHANT, 'REF-1');
      expect(stored.status).toBe('pending');
      expect(stored.toState().anomalies).toMatchObject([{ reason: 'amount_mismatch' }]);
      expect(ctx.uow.notifications.all).toEqual([]);
      expect(ctx.uow.followUps.jobs.map((j) => j.queue)).toEqual([QUEUES.reconcile]);
    });

    it('records a contradicting late callback as an anomaly and keeps the first final state', async () => {
      const ctx = setup();
      const { token } = await requested(ctx);
      await post(ctx, token, callback('0000'));
      expect((await post(ctx, token, callback('2001'))).outcome).toBe('anomaly');
      expect((await ctx.service.ownTransaction(MERCHANT, 'REF-1')).status).toBe('success');
    });

    it('answers an unknown token NOT_FOUND, keeping the callback in the dead-letter table up to the per-address limit', async () => {
      const ctx = setup({}, { 'callback-stray-address': 2 });
      await requested(ctx);
      await expect(post(ctx, 'A'.repeat(43), callback('0000'))).rejects.toMatchObject({ code: 'NOT_FOUND' });
      await expect(post(ctx, 'bad token!', 'x'.repeat(100))).rejects.toMatchObject({ code: 'NOT_FOUND' });
      await expect(post(ctx, 'B'.repeat(43), callback('0000'))).rejects.toMatchObject({ code: 'RATE_LIMITED' });
      expect(ctx.uow.callbacks.all).toEqual([]);
      expect(ctx.rateLimits.used.get(`callback-stray-address:${ADDRESS}`)).toBe(3);
      expect(ctx.events.lines.map((l) => [l.level, l.event, l.fields.outcome])).toContainEqual([
        'warn',
        'payment.callback',
        'unknown_token',
      ]);
      expect(ctx.uow.callbacks.deadLettered.map((d) => [d.reason, d.transactionId, d.body])).toEqual([
        ['unknown_token', null, JSON.stringify(callback('0000'))],
        ['unknown_token', null, 'x'.repeat(100)],
      ]);
    });

    it('with a callback secret, keeps nothing at all for an unsigned callback, whatever its token', async () => {
      const ctx = setup();
      await requested(ctx);
      await expect(
        ctx.service.receiveCallback('A'.repeat(43), JSON.stringify(callback('0000')), {}, ADDRESS),
      ).rejects.toMatchObject({ code: 'INVALID_SIGNATURE' });
      expect(ctx.uow.callbacks.deadLettered).toEqual([]);
      expect(ctx.rateLimits.used.size).toBe(2); // the payment request's two limits only
    });

    it('prunes dead letters older than the retention period', async () => {
      const ctx = setup({ deadLetterRetentionDays: 7 });
      const letter = (daysAgo: number) => ({
        receivedAt: new Date(ctx.clock.now().getTime() - daysAgo * 86_400_000),
        reason: 'unknown_token' as const,
        transactionId: null,
        headers: {},
        body: String(daysAgo),
      });
      for (const days of [8, 7.01, 6]) await ctx.uow.stores.callbacks.deadLetter(letter(days));
      expect(await ctx.service.pruneDeadLetters()).toBe(2);
      expect(ctx.uow.callbacks.deadLettered.map((d) => d.body)).toEqual(['6']);
      expect(await ctx.service.pruneDeadLetters()).toBe(0);
      expect(ctx.events.lines.filter((l) => l.event === 'payment.dead_letters_pruned')).toHaveLength(1);
    });

    it('expires a token a grace period after the final state: later callbacks are dead letters (410)', async () => {
      const ctx = setup();
      const { transaction, token } = await requested(ctx);
      await post(ctx, token, callback('0000'));
      later(ctx, 167 * 3_600_000);
      expect((await post(ctx, token, callback('0000'))).outcome).toBe('duplicate');
      later(ctx, 2 * 3_600_000);
      await expect(post(ctx, token, callback('0000'))).rejects.toMatchObject({
        code: 'CALLBACK_TOKEN_EXPIRED',
        status: 410,
      });
      expect(ctx.uow.callbacks.deadLettered).toMatchObject([
        { reason: 'expired_token', transactionId: transaction.id },
      ]);
    });

    it('keeps at most the configured number of callbacks per transaction (429 past it, nothing stored)', async () => {
      const ctx = setup({ maxCallbacksPerTransaction: 2 });
      const { token } = await requested(ctx);
      await post(ctx, token, callback('0005'));
      await post(ctx, token, callback('0005'));
      await expect(post(ctx, token, callback('0000'))).rejects.toMatchObject({ code: 'TOO_MANY_CALLBACKS' });
      expect(ctx.uow.callbacks.all).toHaveLength(2);
    });

    it('without a provider secret, confirms a final callback with the status API: a forged 0000 never ends in success', async () => {
      const ctx = setup({ callbackSecret: undefined });
      const { transaction, token } = await requested(ctx);
      ctx.uow.followUps.take(QUEUES.reconcile);
      expect((await post(ctx, token, callback('0000'))).outcome).toBe('deferred');
      const waiting = await ctx.service.ownTransaction(MERCHANT, 'REF-1');
      expect(waiting.toState()).toMatchObject({ status: 'pending', needsStatusCheck: true });
      // Kept in the inbox only until the provider's status API confirms it.
      expect(waiting.toState()).not.toHaveProperty('callBackInfo');
      expect(ctx.uow.followUps.jobs).toEqual([
        { queue: QUEUES.reconcile, data: { transactionId: transaction.id }, options: {} },
      ]);
      ctx.provider.status = { state: 'refunded', clientReference: TX1, transactionId: 'tx-1', raw: {} };
      await ctx.service.reconcile(transaction.id, attempt());
      expect((await ctx.service.ownTransaction(MERCHANT, 'REF-1')).toState()).toMatchObject({ status: 'failed' });
      expect((await ctx.service.ownTransaction(MERCHANT, 'REF-1')).toState()).not.toHaveProperty('callBackInfo');

      const genuine = setup({ callbackSecret: undefined });
      const g = await requested(genuine);
      await post(genuine, g.token, callback('0000'));
      genuine.provider.status = { state: 'paid', amount: 25.5, clientReference: TX1, transactionId: 'tx-1', raw: {} };
      await genuine.service.reconcile(g.transaction.id, attempt());
      expect((await genuine.service.ownTransaction(MERCHANT, 'REF-1')).toState()).toMatchObject({
        status: 'success',
        callBackInfo: callback('0000'),
      });
    });

    it('keeps audit entries small whatever a callback carries, and keeps every field the provider sent', async () => {
      const ctx = setup();
      const { token } = await requested(ctx);
      const big = {
        ...callback('0000'),
        Data: { ...callback('0000').Data, PaymentDate: '2026-11-22', Note: 'n'.repeat(90_000) },
      };
      await post(ctx, token, big);
      const stored = (await ctx.service.ownTransaction(MERCHANT, 'REF-1')).toState();
      expect(stored.callBackInfo?.Data).toMatchObject({ PaymentDate: '2026-11-22' });
      for (const entry of ctx.uow.audit.entries) expect(JSON.stringify(entry).length).toBeLessThan(1000);
    });

    it('stores a body that is not a callback as malformed, then refuses it (INVALID_CALLBACK)', async () => {
      const ctx = setup();
      const { token } = await requested(ctx);
      await expect(post(ctx, token, 'not json')).rejects.toMatchObject({
        code: 'INVALID_CALLBACK',
      });
      await expect(post(ctx, token, '{"ResponseCode":"0000"}')).rejects.toMatchObject({
        code: 'INVALID_CALLBACK',
      });
      expect(ctx.uow.callbacks.all.map((c) => c.outcome)).toEqual(['malformed', 'malformed']);
      expect(ctx.events.lines.filter((l) => l.event === 'payment.callback').map((l) => l.fields.outcome)).toEqual([
        'malformed',
        'malformed',
      ]);
      expect((await ctx.service.ownTransaction(MERCHANT, 'REF-1')).status).toBe('pending');
    });

    it('with a callback secret, refuses a missing or wrong signature (INVALID_SIGNATURE) and stores nothing', async () => {
      const ctx = setup();
      const { token } = await requested(ctx);
      const body = JSON.stringify(callback('0000'));
      await expect(ctx.service.receiveCallback(token, body, {}, ADDRESS)).rejects.toMatchObject({
        code: 'INVALID_SIGNATURE',
        status: 401,
      });
      await expect(
        ctx.service.receiveCallback(token, body, { 'x-provider-signature': 'sha256=00' }, ADDRESS),
      ).rejects.toMatchObject({ code: 'INVALID_SIGNATURE' });
      expect(ctx.uow.callbacks.all).toEqual([]);
      const signature = `sha256=${createHmac('sha256', 'provider-secret').update(body).digest('hex')}`;
      expect(validProviderSignature('provider-secret', body, signature)).toBe(true);
      expect(await ctx.service.receiveCallback(token, body, { 'x-provider-signature': signature }, ADDRESS)).toEqual({
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
      await expect(post(ctx, token, callback('0000'))).rejects.toThrow('disk full');
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
      ctx.provider.status = { state: 'paid', amount: 25.5, clientReference: TX1, raw: { status: 'Paid' } };
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

    it('fails a transaction the provider reports failed, or Unpaid once its prompt has long expired', async () => {
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
      await post(ctx, token, callback('0000'));
      ctx.provider.status = { state: 'failed', raw: {} };
      await ctx.service.reconcile(transaction.id, attempt());
      await ctx.service.reconcile('ffffffffffffffffffffffff', attempt());
      expect((await ctx.service.ownTransaction(MERCHANT, 'REF-1')).status).toBe('success');
    });
  });

  describe('deliverNotification', () => {
    async function finished(ctx: ReturnType<typeof setup>) {
      const { transaction, token } = await requested(ctx);
      await post(ctx, token, callback('0000'));
      const notification = ctx.uow.notifications.all[0];
      ctx.uow.notifications.setMerchant(transaction.id, {
        reference: 'REF-1',
        merchantId: MERCHANT,
        signingSecrets: [SECRET],
      });
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

    it('signs with both secrets during a rotation overlap: a verifier with either one accepts the delivery', async () => {
      const ctx = setup();
      const { transaction, token } = await requested(ctx);
      await post(ctx, token, callback('0000'));
      const NEW = `whsec_${Buffer.from('the new secret of the merchant!!').toString('base64')}`;
      ctx.uow.notifications.setMerchant(transaction.id, {
        reference: 'REF-1',
        merchantId: MERCHANT,
        signingSecrets: [NEW, SECRET],
      });
      await ctx.service.deliverNotification(ctx.uow.notifications.all[0].id, attempt());
      const [sent] = ctx.webhooks.sent;
      expect(sent.headers['webhook-signature'].split(' ')).toHaveLength(2);
      jest.spyOn(Date, 'now').mockReturnValue(ctx.clock.now().getTime());
      try {
        expect(new Webhook(NEW).verify(sent.body, sent.headers)).toMatchObject({ status: 'success' });
        expect(new Webhook(SECRET).verify(sent.body, sent.headers)).toMatchObject({ status: 'success' });
      } finally {
        jest.restoreAllMocks();
      }
    });

    it('rotates a merchant secret with an overlap, shown once; an unknown merchant is NOT_FOUND', async () => {
      const ctx = setup();
      await ctx.merchants.add(
        { id: MERCHANT, name: 'M', signingSecret: SECRET, at: ctx.clock.now() },
        { actor: merchant },
      );
      const rotated = await ctx.service.rotateSigningSecret(MERCHANT, 24, merchant);
      expect(rotated.signingSecret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      expect(rotated.previousSecretValidUntil).toBe('2026-11-23T10:00:00.000Z');
      expect(ctx.merchants.rows[0]).toMatchObject({
        signingSecret: rotated.signingSecret,
        previousSigningSecret: SECRET,
      });
      await expect(ctx.service.rotateSigningSecret(OTHER_MERCHANT, 24, merchant)).rejects.toMatchObject({
        code: 'NOT_FOUND',
      });
    });

    it('pauses a merchant whose endpoint failed for hours, reports it once, and holds its notifications', async () => {
      const ctx = setup({ notifyPauseAfterHours: 2 });
      const id = await finished(ctx);
      ctx.webhooks.answers = [503, 503, 503];
      await expect(ctx.service.deliverNotification(id, attempt(0, 50))).rejects.toBeInstanceOf(RetryLater);
      later(ctx, 3 * 3_600_000);
      // Failing for three hours: this attempt pauses the merchant instead of asking for another retry.
      await ctx.service.deliverNotification(id, attempt(1, 50));
      expect(ctx.uow.notifications.all[0].status).toBe('paused');
      expect(ctx.events.lines.filter((l) => l.event === 'payment.notifications_paused')).toMatchObject([
        { level: 'error', fields: { merchantId: MERCHANT } },
      ]);
      await ctx.service.deliverNotification(id, attempt(2, 50));
      expect(ctx.webhooks.sent).toHaveLength(2);
    });

    it('lets an operator resume a paused merchant and redeliver a failed notification, each audited and queued in the merchant group', async () => {
      const ctx = setup();
      const id = await finished(ctx);
      await ctx.uow.stores.notifications.pause(MERCHANT, id, ctx.clock.now());
      await ctx.merchants.add(
        { id: MERCHANT, name: 'M', signingSecret: SECRET, at: ctx.clock.now() },
        { actor: merchant },
      );
      ctx.uow.followUps.take(QUEUES.notify);
      const admin = { role: 'admin' as const, id: '65a0000000000000000000a0' };
      expect(await ctx.service.resumeNotifications(MERCHANT, admin)).toEqual({ resumed: 1 });
      expect(ctx.uow.followUps.take(QUEUES.notify)).toEqual([
        { queue: QUEUES.notify, data: { notificationId: id }, options: { group: MERCHANT } },
      ]);
      await expect(ctx.service.resumeNotifications(OTHER_MERCHANT, admin)).rejects.toMatchObject({ code: 'NOT_FOUND' });
      ctx.webhooks.answers = [500];
      await ctx.service.deliverNotification(id, attempt(0, 0));
      expect(ctx.uow.notifications.all[0].status).toBe('failed');
      await ctx.service.redeliver(id, admin);
      expect(ctx.uow.notifications.all[0].status).toBe('pending');
      expect(ctx.uow.followUps.take(QUEUES.notify)).toHaveLength(1);
      await expect(ctx.service.redeliver(id, admin)).rejects.toMatchObject({ code: 'NOTIFICATION_NOT_REDELIVERABLE' });
      expect(ctx.uow.audit.entries.filter((e) => e.actor.id === admin.id).map((e) => e.action)).toEqual([
        'MerchantNotificationsResumed',
        'NotificationRedelivered',
      ]);
    });

    it('shows no notification while the transaction is pending', async () => {
      const ctx = setup();
      await requested(ctx);
      expect(await ctx.service.deliveries(MERCHANT, 'REF-1')).toMatchObject({ notification: null, attempts: [] });
    });
  });

  it('backstop: asks again about open transactions unchanged for a while, one status check each per period', async () => {
    const ctx = setup();
    const { transaction } = await requested(ctx);
    ctx.uow.followUps.take(QUEUES.reconcile);
    expect(await ctx.service.backstop()).toBe(0);
    later(ctx, 31 * 60_000);
    expect(await ctx.service.backstop()).toBe(1);
    expect(ctx.uow.followUps.take(QUEUES.reconcile)).toEqual([
      {
        queue: QUEUES.reconcile,
        data: { transactionId: transaction.id },
        options: { singletonKey: `backstop:${transaction.id}`, throttleSeconds: 1800 },
      },
    ]);
    expect(ctx.events.lines).toContainEqual(expect.objectContaining({ event: 'payment.backstop' }));
  });
});
