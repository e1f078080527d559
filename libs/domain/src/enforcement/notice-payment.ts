import { DomainError } from '../shared/domain-error';
import type { TransactionState } from '../transaction/transaction';
import type { Notice } from './notice';

/**
 * A mobile-money payment asked for a notice (issue 47): the transaction that carries it (the assembly's merchant
 * record is its merchant) and the amount due when it was asked (pesewas). Once the payment is final it is settled into
 * the notice, in the same unit of work as the payment's final state: what the notice took and what is owed back.
 */
export interface NoticePaymentRecord {
  readonly transactionId: string;
  readonly noticeId: string;
  readonly amount: number;
  readonly createdAt: Date;
  readonly settledAt?: Date;
  readonly applied?: number;
  readonly excess?: number;
}

export interface NoticeSettlement {
  readonly settledAt: Date;
  readonly applied: number;
  readonly excess: number;
}

/**
 * Port: notices inside a unit of work, and the payments asked for them. At most one payment per notice is unsettled
 * (`addPayment` throws NOTICE_PAYMENT_OPEN for a second); `updateNotice` is optimistic on the notice's version.
 */
export interface NoticeLedger {
  findNotice(id: string): Promise<Notice | undefined>;
  updateNotice(notice: Notice): Promise<Notice>;
  addPayment(payment: NoticePaymentRecord): Promise<void>;
  /** The notice's unsettled payment, if any. */
  openPayment(noticeId: string): Promise<NoticePaymentRecord | undefined>;
  paymentFor(transactionId: string): Promise<NoticePaymentRecord | undefined>;
  /** The notice's payments, newest first (at most `limit`). */
  paymentsOf(noticeId: string, limit: number): Promise<NoticePaymentRecord[]>;
  settle(transactionId: string, settlement: NoticeSettlement): Promise<void>;
}

export const noticePaymentOpen = () =>
  new DomainError('NOTICE_PAYMENT_OPEN', 'A payment of this notice is already waiting for approval');

/** A transaction's amount (millionths of a cedi) in pesewas; a payment asked for a notice is whole pesewas. */
function pesewasOf(amount: number): number {
  if (!Number.isSafeInteger(amount) || amount % 10_000 !== 0)
    throw new DomainError('INVALID_AMOUNT', 'A notice payment is a whole number of pesewas', 'amount');
  return amount / 10_000;
}

/**
 * What a payment's final state does to its notice: a success is recorded as the notice's payment of the amount the
 * provider confirmed (the notice's rules: a part payment leaves the rest owed, more than owed is excess to refund);
 * a failure changes nothing. Settled once: a settled payment is never applied again.
 */
export function settleNoticePayment(
  notice: Notice,
  payment: NoticePaymentRecord,
  transaction: Pick<TransactionState, 'id' | 'status' | 'amount'>,
  at: Date,
): NoticeSettlement {
  if (payment.transactionId !== transaction.id || payment.noticeId !== notice.id)
    throw new DomainError('INVALID_VALUE', 'The payment is not of this notice and transaction', 'transaction');
  if (payment.settledAt !== undefined)
    throw new DomainError('NOTICE_PAYMENT_SETTLED', 'The payment was already settled into its notice');
  if (transaction.status === 'failed') return { settledAt: at, applied: 0, excess: 0 };
  if (transaction.status !== 'success')
    throw new DomainError('INVALID_VALUE', 'Only a final payment is settled into its notice', 'transaction');
  const { applied, excess } = notice.recordPayment(pesewasOf(transaction.amount), at);
  return { settledAt: at, applied, excess };
}
