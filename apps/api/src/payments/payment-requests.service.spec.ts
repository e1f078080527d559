import { QUEUES } from './payment-settings';
import {
  attempt,
  callback,
  later,
  MERCHANT,
  merchant,
  OTHER_MERCHANT,
  paymentsOnFakes,
  post,
  request,
  requested,
  TX1,
} from './payments.testing';

describe('PaymentRequestsService on fakes', () => {
  it('stores the intent (transaction, token, audit entry, status check) first, then asks the provider under the transaction id', async () => {
    const ctx = paymentsOnFakes();
    const { transaction, token } = await requested(ctx);
    expect(transaction.status).toBe('pending');
    expect(ctx.provider.requests[0]).toMatchObject({
      reference: transaction.id,
      amount: 25_500_000,
      providerCallbackUrl: expect.stringMatching(/^https:\/\/pay\.example\.com\/payment\/callback\/[A-Za-z0-9_-]{43}$/),
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
    const ctx = paymentsOnFakes();
    const a = await requested(ctx);
    const b = await ctx.requests.request({ ...request(), merchantId: OTHER_MERCHANT }, merchant);
    const [first, second] = ctx.provider.requests.map((r) => r.reference);
    expect(first).not.toEqual(second);
    expect([first, second]).toEqual([a.transaction.id, b.transaction.id]);
    // A's successful callback, replayed on B's callback URL: an anomaly, never B's success.
    const bUrl = ctx.provider.requests[1].providerCallbackUrl;
    const bToken = bUrl.slice(bUrl.lastIndexOf('/') + 1);
    expect((await post(ctx, bToken, callback('0000', 25.5, a.transaction.id))).outcome).toBe('anomaly');
    expect((await ctx.views.ownTransaction(OTHER_MERCHANT, 'REF-1')).status).toBe('pending');
  });

  it('answers a repeated request with the stored transaction and asks the provider only once', async () => {
    const ctx = paymentsOnFakes();
    const first = await ctx.requests.request(request(), merchant);
    const again = await ctx.requests.request(request(), merchant);
    expect(again).toEqual({ transaction: expect.objectContaining({ id: first.transaction.id }), created: false });
    expect(ctx.provider.requests).toHaveLength(1);
  });

  it('refuses a different request under a used reference (TRANSACTION_REFERENCE_CONFLICT)', async () => {
    const ctx = paymentsOnFakes();
    await ctx.requests.request(request(), merchant);
    await expect(ctx.requests.request(request('REF-1', 99_990_000), merchant)).rejects.toMatchObject({
      code: 'TRANSACTION_REFERENCE_CONFLICT',
    });
  });

  it('starts failed when the provider refuses, and schedules the merchant notification at once', async () => {
    const ctx = paymentsOnFakes();
    ctx.provider.requestAnswer = { Message: 'Insufficient funds', ResponseCode: '2001', Data: {} };
    const { transaction } = await ctx.requests.request(request(), merchant);
    expect(transaction.status).toBe('failed');
    expect(ctx.uow.notifications.all).toHaveLength(1);
    expect(ctx.uow.followUps.jobs.map((j) => j.queue)).toEqual([QUEUES.reconcile, QUEUES.notify]);
    expect(ctx.uow.followUps.jobs[1].options).toEqual({ group: MERCHANT });
  });

  it('keeps a requesting transaction when the provider cannot be reached; its status check settles it', async () => {
    const ctx = paymentsOnFakes();
    ctx.provider.failRequests = true;
    const { transaction, created } = await ctx.requests.request(request(), merchant);
    expect({ created, status: transaction.status }).toEqual({ created: true, status: 'requesting' });
    expect(transaction.toState()).toMatchObject({ needsStatusCheck: true });
    expect(transaction.toState()).not.toHaveProperty('requestInfo');
    expect(ctx.events.lines).toContainEqual(expect.objectContaining({ event: 'payment.request_unanswered' }));
    // A repeat of the same request reads it; it does not ask the provider again.
    expect((await ctx.requests.request(request(), merchant)).created).toBe(false);
    ctx.provider.status = { state: 'paid', amount: 25.5, clientReference: TX1, transactionId: 'tx-9', raw: {} };
    await ctx.reconciliation.reconcile(transaction.id, attempt());
    expect((await ctx.views.ownTransaction(MERCHANT, 'REF-1')).toState()).toMatchObject({
      status: 'success',
      providerTransactionId: 'tx-9',
    });
  });

  it('leaves a transaction reconciliation settles when the provider answered but the answer could not be written', async () => {
    const ctx = paymentsOnFakes();
    const update = ctx.uow.repositories.transactions.update;
    ctx.uow.repositories.transactions.update = async () => {
      throw new Error('database gone');
    };
    const { transaction, created } = await ctx.requests.request(request(), merchant);
    ctx.uow.repositories.transactions.update = update;
    expect({ created, status: transaction.status }).toEqual({ created: true, status: 'requesting' });
    expect(ctx.provider.requests).toHaveLength(1);
    expect(ctx.events.lines).toContainEqual(
      expect.objectContaining({ level: 'error', event: 'payment.answer_not_recorded' }),
    );
    expect(ctx.uow.followUps.jobs.map((j) => j.queue)).toEqual([QUEUES.reconcile]);
    ctx.provider.status = { state: 'unpaid', raw: {} };
    later(ctx, 16 * 60_000);
    await ctx.reconciliation.reconcile(transaction.id, attempt());
    expect((await ctx.views.ownTransaction(MERCHANT, 'REF-1')).status).toBe('failed');
  });

  it('stores nothing when the callBackUrl is refused', async () => {
    const ctx = paymentsOnFakes();
    await expect(
      ctx.requests.request({ ...request('REF-2'), callBackUrl: 'https://internal.example/hook' }, merchant),
    ).rejects.toThrow('refused');
    expect(await ctx.uow.stores.transactions.findByMerchantReference(MERCHANT, 'REF-2')).toBeUndefined();
    expect(ctx.uow.audit.entries).toEqual([]);
    expect(ctx.refusedUrls).toEqual(['https://internal.example/hook']);
  });

  it('limits prompts per customer phone and requests per merchant (429), keyed without the phone number itself', async () => {
    const ctx = paymentsOnFakes({ limits: { 'payment-phone': 1, 'payment-merchant': 3 } });
    await ctx.requests.request(request('REF-1'), merchant);
    await expect(ctx.requests.request(request('REF-2'), merchant)).rejects.toMatchObject({
      code: 'RATE_LIMITED',
      status: 429,
    });
    expect(await ctx.uow.stores.transactions.findByMerchantReference(MERCHANT, 'REF-2')).toBeUndefined();
    await ctx.requests.request({ ...request('REF-3'), customerPhone: '0241234567' }, merchant);
    await expect(
      ctx.requests.request({ ...request('REF-4'), customerPhone: '0207654321' }, merchant),
    ).rejects.toMatchObject({ code: 'RATE_LIMITED' });
    expect([...ctx.rateLimits.used.keys()].join(' ')).not.toMatch(/244987654/);
    // A repeat of a stored request is a read, and counts against nothing.
    const used = [...ctx.rateLimits.used.values()];
    await ctx.requests.request(request('REF-1'), merchant);
    expect([...ctx.rateLimits.used.values()]).toEqual(used);
  });
});
