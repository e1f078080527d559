import { attempt, finished, MERCHANT, paymentsOnFakes, requested } from './payments.testing';

describe('MerchantViewsService on fakes', () => {
  it('lists every attempt for the merchant that owns the transaction, and hides it from others', async () => {
    const ctx = paymentsOnFakes();
    const id = await finished(ctx);
    await ctx.notifications.deliverNotification(id, attempt());
    const deliveries = await ctx.views.deliveries(MERCHANT, 'REF-1');
    expect(deliveries).toMatchObject({
      reference: 'REF-1',
      notification: { id, status: 'delivered' },
      attempts: [{ attempt: 1, outcome: 'delivered' }],
    });
    await expect(ctx.views.deliveries('65a1b2c3d4e5f60718293a4c', 'REF-1')).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    expect((await ctx.views.deliveries(MERCHANT, 'REF-1')).attempts).toHaveLength(1);
  });

  it('shows no notification while the transaction is pending', async () => {
    const ctx = paymentsOnFakes();
    await requested(ctx);
    expect(await ctx.views.deliveries(MERCHANT, 'REF-1')).toMatchObject({ notification: null, attempts: [] });
  });
});
