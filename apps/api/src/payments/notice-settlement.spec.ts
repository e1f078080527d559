import { Notice, OffenceCatalogue } from '@transport/domain';
import { NOTICE_RECEIPT_QUEUE } from './notice-settlement';
import { QUEUES } from './payment-settings';
import { callback, merchant, paymentsOnFakes, post, request, type PaymentsOnFakes } from './payments.testing';

const ASSEMBLY = '65a0000000000000000000a1';
const VEHICLE = '65a0000000000000000000b1';
const OFFICER = '65a0000000000000000000e1';

/** A notice of GHS 25.50 (the fakes' request amount) and a payment asked for it, linked in the intent's unit of work. */
async function noticePayment(ctx: PaymentsOnFakes) {
  const terms = {
    code: 'TF-01',
    description: 'No sticker',
    bylaw: 's. 12',
    fine: 2_550,
    daysToPay: 14,
    surcharge: 500,
  };
  const at = ctx.clock.now();
  const catalogue = OffenceCatalogue.publish(ASSEMBLY, [terms], undefined, OFFICER, at);
  const notice = Notice.issue(
    { catalogue, codes: ['TF-01'], vehicleId: VEHICLE, officerId: OFFICER, madeAt: at },
    { next: () => '65a0000000000000000000f1' },
    at,
  );
  ctx.uow.notices.put(notice);
  const { transaction } = await ctx.requests.request(request('notice.1'), merchant, {
    noWebhook: true,
    withIntent: (work, t) =>
      work.notices.addPayment({ transactionId: t.id, noticeId: notice.id, amount: 2_550, createdAt: at }),
  });
  const url = ctx.provider.requests.at(-1)!.providerCallbackUrl;
  return { notice, transaction, token: url.slice(url.lastIndexOf('/') + 1) };
}

const stateOf = async (ctx: PaymentsOnFakes, noticeId: string, transactionId: string) =>
  ctx.uow.run(async (work) => ({
    notice: (await work.notices.findNotice(noticeId))!.toState(),
    payment: (await work.notices.paymentFor(transactionId))!,
    transaction: (await work.transactions.findById(transactionId))!.status,
  }));

describe('a notice payment settles its notice in the unit of work of its final state', () => {
  it('pays the notice with the callback that makes the payment a success, once: no merchant notification, a receipt job', async () => {
    const ctx = paymentsOnFakes();
    const { notice, transaction, token } = await noticePayment(ctx);
    expect((await stateOf(ctx, notice.id, transaction.id)).payment.settledAt).toBeUndefined();
    await post(ctx, token, callback('0000'));
    await post(ctx, token, callback('0000'));
    const after = await stateOf(ctx, notice.id, transaction.id);
    expect(after.transaction).toBe('success');
    expect(after.notice).toMatchObject({ status: 'paid', paid: 2_550, refundDue: 0 });
    expect(after.payment).toMatchObject({ applied: 2_550, excess: 0 });
    expect(ctx.uow.notifications.all).toEqual([]);
    expect(ctx.uow.followUps.jobs.map((j) => j.queue)).toEqual([QUEUES.reconcile, NOTICE_RECEIPT_QUEUE]);
    const paid = ctx.uow.audit.entries.filter((e) => e.action === 'NoticePaid');
    expect(paid.map((e) => e.entity)).toEqual(['notice', 'vehicle']);
  });

  it('keeps neither the success nor the payment when the notice cannot be written; the sweep applies both later', async () => {
    const ctx = paymentsOnFakes();
    const { notice, transaction, token } = await noticePayment(ctx);
    const update = ctx.uow.notices.updateNotice.bind(ctx.uow.notices);
    ctx.uow.notices.updateNotice = async () => {
      throw new Error('the database went away');
    };
    await expect(post(ctx, token, callback('0000'))).rejects.toThrow('the database went away');
    const crashed = await stateOf(ctx, notice.id, transaction.id);
    expect([crashed.transaction, crashed.notice.status, crashed.payment.settledAt]).toEqual([
      'pending',
      'issued',
      undefined,
    ]);
    expect(ctx.uow.followUps.jobs.map((j) => j.queue)).toEqual([QUEUES.reconcile]);
    ctx.uow.notices.updateNotice = update;
    expect(await ctx.callbacks.sweepStoredCallbacks(0)).toBe(1);
    const swept = await stateOf(ctx, notice.id, transaction.id);
    expect([swept.transaction, swept.notice.status, swept.payment.applied]).toEqual(['success', 'paid', 2_550]);
  });

  it('settles a failed payment without touching the notice, and queues no receipt', async () => {
    const ctx = paymentsOnFakes();
    const { notice, transaction, token } = await noticePayment(ctx);
    await post(ctx, token, callback('2001'));
    const after = await stateOf(ctx, notice.id, transaction.id);
    expect([after.transaction, after.notice.status, after.payment.applied]).toEqual(['failed', 'issued', 0]);
    expect(ctx.uow.followUps.jobs.map((j) => j.queue)).toEqual([QUEUES.reconcile]);
    // The notice may be paid again: nothing is open.
    expect(await ctx.uow.run((work) => work.notices.openPayment(notice.id))).toBeUndefined();
  });
});
