import { setTimeout as sleep } from 'node:timers/promises';
import {
  mobileMoneyChannel,
  moneyToCedis,
  type PaymentProvider,
  type PaymentRequest,
  type RequestInfo,
  type StatusCheckResult,
} from '@transport/domain';
import type { ProviderConfig } from '../config';
import { AppError } from '../core/errors';
import { describeFetchError } from './fetch-error';

/** A provider answer larger than this is no answer (its documented bodies are a few hundred bytes). */
export const MAX_ANSWER_BYTES = 64 * 1024;

/**
 * The body of an answer as text, read no further than `limit` bytes: a larger body is cancelled and read as
 * undefined, so a broken or hostile endpoint cannot make us buffer without bound.
 */
async function readCapped(response: Response, limit: number): Promise<string | undefined> {
  const reader = response.body?.getReader();
  if (!reader) return undefined;
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Hubtel's Sales API over HTTP, field for field as its "Direct Receive Money" and "Transaction Status Check"
 * documents describe them (the simulator in libs/provider-simulator follows the same documents):
 *
 *   POST {url}/merchantaccount/merchants/{POS Sales ID}/receive/mobilemoney
 *        { CustomerName, CustomerMsisdn (233XXXXXXXXX), CustomerEmail, Channel (mtn-gh | vodafone-gh | tigo-gh),
 *          Amount (cedis, 2 decimals), PrimaryCallbackUrl, Description, ClientReference (alphanumeric, <= 36) }
 *        -> { Message, ResponseCode, Data: { TransactionId, ClientReference, Amount, Charges, ... } }
 *   GET  {statusUrl}/transactions/{POS Sales ID}/status?clientReference=...
 *        -> { message, responseCode, data: { status: Paid | Unpaid | Refunded, transactionId, clientReference, amount, ... } }
 *
 * Basic authentication with the API id and key. The payment request is sent once: a request that got no answer may
 * still have reached the provider, and Hubtel requires a ClientReference never to be used twice, so the status API
 * (reconciliation) finds out instead. Status checks that fail before any answer arrives (connection refused or
 * reset, DNS failure, timeout) are retried a few times with a short backoff.
 */
export class HttpPaymentProvider implements PaymentProvider {
  private readonly auth: string;

  constructor(private readonly config: ProviderConfig & { url: string }) {
    this.auth = `Basic ${Buffer.from(`${config.clientId}:${config.clientSecret}`).toString('base64')}`;
  }

  async requestPayment(request: PaymentRequest): Promise<RequestInfo> {
    const url = `${this.config.url}/merchantaccount/merchants/${encodeURIComponent(this.config.account)}/receive/mobilemoney`;
    const channel = mobileMoneyChannel(request.customerPhone);
    if (!channel)
      throw new AppError('PROVIDER_ERROR', 'The customer phone is on no mobile-money network the provider serves');
    const { status, body } = await this.call(
      url,
      {
        method: 'POST',
        body: JSON.stringify({
          CustomerName: request.customerName,
          CustomerMsisdn: request.customerPhone.replace(/^\+/, ''),
          CustomerEmail: request.customerEmail,
          Channel: channel,
          Amount: moneyToCedis(request.amount),
          PrimaryCallbackUrl: request.providerCallbackUrl,
          Description: request.description,
          ClientReference: request.reference,
        }),
      },
      0,
    );
    const info = body as Partial<RequestInfo> | undefined;
    if (!info || typeof info.ResponseCode !== 'string') {
      throw new AppError('PROVIDER_ERROR', `The payment provider answered HTTP ${status} without a response code`);
    }
    // Refusals (4xx with a response code) are kept as the provider's answer: the transaction starts failed.
    return {
      Message: String(info.Message ?? ''),
      ResponseCode: info.ResponseCode,
      Data: (info.Data ?? {}) as RequestInfo['Data'],
    };
  }

  async checkStatus(reference: string): Promise<StatusCheckResult> {
    const base = this.config.statusUrl ?? this.config.url;
    const url = `${base}/transactions/${encodeURIComponent(this.config.account)}/status?clientReference=${encodeURIComponent(reference)}`;
    const { status, body } = await this.call(url, { method: 'GET' }, this.config.retries);
    const raw = (body && typeof body === 'object' ? body : { httpStatus: status }) as Record<string, unknown>;
    const data = (raw.data ?? {}) as {
      status?: unknown;
      amount?: unknown;
      clientReference?: unknown;
      transactionId?: unknown;
    };
    if (status >= 500) throw new Error(`status API answered HTTP ${status}`);
    // No payment under this reference (the provider never received the request).
    if (status === 404) return { state: 'not_found', raw };
    if (raw.responseCode !== '0000' || typeof data.status !== 'string') return { state: 'unknown', raw };
    const state = STATES[data.status.toLowerCase()] ?? 'unknown';
    return {
      state,
      raw,
      ...(typeof data.amount === 'number' ? { amount: data.amount } : {}),
      ...(typeof data.clientReference === 'string' ? { clientReference: data.clientReference } : {}),
      ...(typeof data.transactionId === 'string' && data.transactionId ? { transactionId: data.transactionId } : {}),
    };
  }

  private async call(
    url: string,
    init: { method: string; body?: string },
    retries: number,
  ): Promise<{ status: number; body: unknown }> {
    for (let attempt = 0; ; attempt++) {
      try {
        const response = await fetch(url, {
          ...init,
          headers: {
            authorization: this.auth,
            accept: 'application/json',
            ...(init.body ? { 'content-type': 'application/json' } : {}),
          },
          signal: AbortSignal.timeout(this.config.timeoutMs),
        });
        const text = await readCapped(response, MAX_ANSWER_BYTES);
        let body: unknown;
        try {
          body = text ? JSON.parse(text) : undefined;
        } catch {
          body = undefined;
        }
        return { status: response.status, body };
      } catch (error) {
        if (attempt >= retries) {
          throw new AppError(
            'PROVIDER_UNREACHABLE',
            `The payment provider could not be reached (${describeFetchError(error)})`,
          );
        }
        await sleep(200 * 2 ** attempt);
      }
    }
  }
}

/** The statuses Hubtel's status check documents: Paid, Unpaid and Refunded. Any other is unknown (asked again). */
const STATES: Record<string, StatusCheckResult['state']> = {
  paid: 'paid',
  unpaid: 'unpaid',
  refunded: 'refunded',
};
