import type { Page, PageRequest } from '../shared/page';
import type { Transaction, TransactionStatus } from './transaction';

/** A merchant's transactions: by state and by creation time (from inclusive, to exclusive). */
export interface MerchantTransactionFilter {
  status?: TransactionStatus;
  from?: Date;
  to?: Date;
}

/**
 * Port: where payment transactions are kept. At most one attempt that has not failed holds a (merchant, reference)
 * (`TRANSACTION_REFERENCE_TAKEN`; a retry after a failure is another attempt, see reference-attempts.ts); `update` is
 * optimistic on `version`.
 */
export interface TransactionRepository {
  add(transaction: Transaction): Promise<Transaction>;
  update(transaction: Transaction): Promise<Transaction>;
  findById(id: string): Promise<Transaction | undefined>;
  /** The attempt under the reference that a status check answers (`answeringAttempt`), if any. */
  findByMerchantReference(merchantId: string, reference: string): Promise<Transaction | undefined>;
  /**
   * Ids of transactions still open (requesting or pending) and unchanged since `before`, oldest first: the backstop
   * that finds payments whose follow-up was lost.
   */
  listOpenUnchangedSince(before: Date, limit: number): Promise<string[]>;
  /** One merchant's transactions, newest first, keyset-paged. */
  listForMerchant(merchantId: string, filter: MerchantTransactionFilter, page: PageRequest): Promise<Page<Transaction>>;
}
