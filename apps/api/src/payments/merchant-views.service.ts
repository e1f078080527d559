import { Inject, Injectable } from '@nestjs/common';
import {
  CommonErrors,
  type DataStores,
  type MerchantTransactionFilter,
  type Page,
  type PageRequest,
  type Transaction,
} from '@transport/domain';
import { STORES } from '../core/tokens';
import {
  toDeliveriesResponse,
  toTransactionResponse,
  type DeliveriesResponse,
  type TransactionResponse,
} from './payments.dto';

/** What a merchant reads of its own payments: nobody else's, and another merchant's reference is not found. */
@Injectable()
export class MerchantViewsService {
  constructor(@Inject(STORES) private readonly stores: DataStores) {}

  /** A merchant's own transactions, newest first (nobody else's: the merchant is the key's). */
  async listOwn(
    merchantId: string,
    filter: MerchantTransactionFilter,
    page: PageRequest,
  ): Promise<Page<TransactionResponse>> {
    const found = await this.stores.transactions.listForMerchant(merchantId, filter, page);
    return { ...found, items: found.items.map((t) => toTransactionResponse(t.toState())) };
  }

  /** The caller's own transaction; another merchant's reference is not found, exactly like an unknown one. */
  async ownTransaction(merchantId: string, reference: string): Promise<Transaction> {
    const transaction = await this.stores.transactions.findByMerchantReference(merchantId, reference);
    if (!transaction) throw CommonErrors.notFound('transaction', `reference ${reference}`);
    return transaction;
  }

  /** Every notification attempt for one of the caller's transactions. */
  async deliveries(merchantId: string, reference: string): Promise<DeliveriesResponse> {
    const transaction = await this.ownTransaction(merchantId, reference);
    return toDeliveriesResponse(
      reference,
      transaction.id,
      await this.stores.notifications.findByTransaction(transaction.id),
    );
  }
}
