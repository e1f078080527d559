import {
  settleNoticePayment,
  SYSTEM_ACTOR,
  CommonErrors,
  type TransactionState,
  type WorkContext,
} from '@transport/domain';
import { noticeAuditEntries } from '../enforcement/offences.service';

/** The queue of receipt SMS: one job per settled notice payment, run after the settlement committed. */
export const NOTICE_RECEIPT_QUEUE = 'notice-receipt';

/**
 * A notice payment's final state settles its notice, inside the caller's unit of work (the one that moves the
 * transaction to that state), so a crash can leave neither a successful payment with an unpaid notice nor the other
 * way round. The domain decides (`settleNoticePayment`: the notice's `recordPayment` for a success, nothing for a
 * failure); the notice's change is audited on the notice and in its vehicle's history, and a success queues its receipt
 * SMS (sent by the job once this commits, never inside the transaction). False when the transaction is no notice's.
 */
export async function settleNoticeOf(ctx: WorkContext, state: TransactionState, at: Date): Promise<boolean> {
  const payment = await ctx.notices.paymentFor(state.id);
  if (!payment) return false;
  // Settled once: a final state is reached once, and a repeat of this unit of work finds it settled.
  if (payment.settledAt) return true;
  const notice = await ctx.notices.findNotice(payment.noticeId);
  if (!notice) throw CommonErrors.notFound('notice', payment.noticeId);
  const before = notice.toState();
  const settlement = settleNoticePayment(notice, payment, state, at);
  await ctx.notices.settle(state.id, settlement);
  if (state.status !== 'success') return true;
  const saved = await ctx.notices.updateNotice(notice);
  await ctx.audit.append(noticeAuditEntries(notice.pullEvents(), SYSTEM_ACTOR, before, saved.toState()));
  await ctx.followUps.enqueue(
    NOTICE_RECEIPT_QUEUE,
    { transactionId: state.id },
    { singletonKey: `notice-receipt:${state.id}` },
  );
  return true;
}
