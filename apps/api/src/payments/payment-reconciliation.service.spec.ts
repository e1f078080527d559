import { QUEUES, RetryLater } from './payment-settings';
import { attempt, callback, later, MERCHANT, paymentsOnFakes, post, requested, TX1 } from './payments.testing';

describe('PaymentReconciliationService on fakes', () => {
  it('settles a pending transaction from a paid answer and queues the notification', async () => {
    const ctx = paymentsOnFakes();
    const { transaction } = await requested(ctx);
    ctx.provider.status = { state: 'paid', amount: 25.5, clientReference: TX1, raw: { status: 'Paid' } };
    await ctx.reconciliation.reconcile(transaction.id, attempt());
    const settled = await ctx.views.ownTransaction(MERCHANT, 'REF-1');
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
    const ctx = paymentsOnFakes();
    const { transaction } = await requested(ctx);
    ctx.provider.status = { state: 'failed', raw: {} };
    await ctx.reconciliation.reconcile(transaction.id, attempt());
    expect((await ctx.views.ownTransaction(MERCHANT, 'REF-1')).status).toBe('failed');
  });

  it('asks again later (RetryLater) while the provider says pending, without scheduling a second check', async () => {
    const ctx = paymentsOnFakes();
    const { transaction } = await requested(ctx);
    ctx.uow.followUps.take(QUEUES.reconcile);
    await expect(ctx.reconciliation.reconcile(transaction.id, attempt())).rejects.toBeInstanceOf(RetryLater);
    expect(ctx.uow.followUps.jobs).toEqual([]);
  });

  it('gives up with an error line once the retries are spent', async () => {
    const ctx = paymentsOnFakes();
    const { transaction } = await requested(ctx);
    await ctx.reconciliation.reconcile(transaction.id, attempt(5, 5));
    expect(ctx.events.lines).toContainEqual(
      expect.objectContaining({ level: 'error', event: 'payment.reconcile_gave_up' }),
    );
  });

  it('does nothing for a transaction that is already final or unknown', async () => {
    const ctx = paymentsOnFakes();
    const { transaction, token } = await requested(ctx);
    await post(ctx, token, callback('0000'));
    ctx.provider.status = { state: 'failed', raw: {} };
    await ctx.reconciliation.reconcile(transaction.id, attempt());
    await ctx.reconciliation.reconcile('ffffffffffffffffffffffff', attempt());
    expect((await ctx.views.ownTransaction(MERCHANT, 'REF-1')).status).toBe('success');
  });

  it('backstop: asks again about open transactions unchanged for a while, one status check each per period', async () => {
    const ctx = paymentsOnFakes();
    const { transaction } = await requested(ctx);
    ctx.uow.followUps.take(QUEUES.reconcile);
    expect(await ctx.reconciliation.backstop()).toBe(0);
    later(ctx, 31 * 60_000);
    expect(await ctx.reconciliation.backstop()).toBe(1);
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
