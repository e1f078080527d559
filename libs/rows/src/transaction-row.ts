import { moneyText, type TransactionState } from '@transport/domain';
import { toJson } from './json';

/**
 * A payment transaction's `transactions` row. A JSON column that is `undefined` is left as it is on an update (and
 * NULL on an insert); `null` sets it to NULL. Money is written as exact decimal text (numeric columns), never a float.
 */
export function transactionRow(s: TransactionState) {
  return {
    id: s.id,
    merchantId: s.merchantId,
    amount: moneyText(s.amount),
    fees: s.fees === undefined ? null : moneyText(s.fees),
    status: s.status,
    requestType: s.requestType,
    description: s.description,
    reference: s.reference,
    providerReference: s.providerReference,
    providerTransactionId: s.providerTransactionId ?? null,
    callBackUrl: s.callBackUrl,
    customerEmail: s.customerEmail,
    customerName: s.customerName,
    customerPhone: s.customerPhone,
    requestInfo: s.requestInfo ? toJson(s.requestInfo) : null,
    callBackInfo: s.callBackInfo ? toJson(s.callBackInfo) : undefined,
    callBackTime: s.callBackTime ?? null,
    statusCheckInfo: s.statusCheckInfo ? toJson(s.statusCheckInfo) : undefined,
    statusCheckTime: s.statusCheckTime ?? null,
    needsStatusCheck: s.needsStatusCheck,
    anomalies: toJson(s.anomalies),
    originalValues: s.originalValues ? toJson(s.originalValues) : null,
    version: s.version,
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
  };
}
