import type { Transaction } from './transaction';

/**
 * Port: where payment transactions are kept. (merchant, reference) is unique (`TRANSACTION_REFERENCE_TAKEN`);
 * `update` is optimistic on `version`.
 */
export interface TransactionRepository {
  add(transaction: Transaction): Promise<Transaction>;
  update(transaction: Transaction): Promise<Transaction>;
  findById(id: string): Promise<Transaction | undefined>;
  findByMerchantReference(merchantId: string, reference: string): Promise<Transaction | undefined>;
  /**
   * Ids of transactions still open (requesting or pending) and unchanged since `before`, oldest first: the backstop
   * that finds payments whose follow-up was lost.
   */
  listOpenUnchangedSince(before: Date, limit: number): Promise<string[]>;
}
