import { pesewasToCedis, type CallbackPayload, type RequestInfo, type TransactionState } from '@transport/domain';

/** The Transaction of the interface (operation 9). Amounts are cedis with at most two decimals. */
export interface TransactionResponse {
  _id: string;
  amount: number;
  fees: number;
  status: string;
  requestType: string;
  merchant: string;
  description: string;
  reference: string;
  callBackUrl: string;
  customerEmail: string;
  customerName: string;
  customerPhone: string;
  requestInfo: RequestInfo;
  callBackInfo?: CallbackPayload;
  callBackTime?: string;
  createdAt: string;
  updatedAt: string;
  __v: number;
}

export function toTransactionResponse(t: TransactionState): TransactionResponse {
  const out: TransactionResponse = {
    _id: t.id,
    amount: pesewasToCedis(t.amount),
    fees: pesewasToCedis(t.fees),
    status: t.status,
    requestType: t.requestType,
    merchant: t.merchantId,
    description: t.description,
    reference: t.reference,
    callBackUrl: t.callBackUrl,
    customerEmail: t.customerEmail,
    customerName: t.customerName,
    customerPhone: t.customerPhone,
    requestInfo: t.requestInfo,
    createdAt: t.createdAt.toISOString(),
    updatedAt: t.updatedAt.toISOString(),
    __v: t.version,
  };
  if (t.callBackInfo) out.callBackInfo = t.callBackInfo;
  if (t.callBackTime) out.callBackTime = t.callBackTime.toISOString();
  return out;
}
