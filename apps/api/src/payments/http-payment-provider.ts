import { setTimeout as sleep } from 'node:timers/promises';
import type { PaymentProvider, PaymentRequest, RequestInfo, StatusCheckResult } from '@transport/domain';
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

/** The provider's channel names for our request types. */
const CHANNELS: Record<string, string> = { mobile_money: 'mobile-money', online_checkout: 'checkout' };

/**
 * A Hubtel-style provider over HTTP (the real one, or the simulator in tools/provider-simulator):
 *
 *   POST {url}/merchantaccount/merchants/{account}/receive/mobilemoney   -> { Message, ResponseCode, Data }
 *   GET  {statusUrl}/transactions/{account}/status?clientReference=...  -> { message, responseCode, data: { status, amount, ... } }
 *
 * Basic authentication with the client id and secret. Calls that fail before any answer arrives (connection refused
 * or reset, DNS failure, timeout) are retried a few times with a short backoff; an HTTP answer, whatever its status,
 * is never retried here. A repeated request is safe: the provider is idempotent on ClientReference.
 */
export class HttpPaymentProvider implements PaymentProvider {
  private readonly auth: string;

  constructor(private readonly config: ProviderConfig & { url: string }) {
    this.auth = `Basic ${Buffer.from(`${config.clientId}:${config.clientSecret}`).toString('base64')}`;
  }

  async requestPayment(request: PaymentRequest): Promise<RequestInfo> {
    const url = `${this.config.url}/merchantaccount/merchants/${encodeURIComponent(this.config.account)}/receive/mobilemoney`;
    const { status, body } = await this.call(url, {
      method: 'POST',
      body: JSON.stringify({
        CustomerName: request.customerName,
        CustomerMsisdn: request.customerPhone,
        CustomerEmail: request.customerEmail,
        Channel: CHANNELS[request.requestType] ?? request.requestType,
        Amount: request.amount / 100,
        PrimaryCallbackUrl: request.providerCallbackUrl,
        Description: request.description,
        ClientReference: request.reference,
      }),
    });
    const info = body as Partial<RequestInfo> | undefined;
    if (!info || typeof info.ResponseCode !== 'string') {
      throw new AppError(
        'PROVIDER_ERROR',
        `The payment provider answered HTTP ${status} without a response code; nothing was charged or stored, try again`,
      );
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
    const { status, body } = await this.call(url, { method: 'GET' });
    const raw = (body && typeof body === 'object' ? body : { httpStatus: status }) as Record<string, unknown>;
    const data = (raw.data ?? {}) as { status?: unknown; amount?: unknown; clientReference?: unknown };
    if (status >= 500) throw new Error(`status API answered HTTP ${status}`);
    if (raw.responseCode !== '0000' || typeof data.status !== 'string') return { state: 'unknown', raw };
    const state = STATES[data.status.toLowerCase()] ?? 'unknown';
    return {
      state,
      raw,
      ...(typeof data.amount === 'number' ? { amount: data.amount } : {}),
      ...(typeof data.clientReference === 'string' ? { clientReference: data.clientReference } : {}),
    };
  }

  private async call(url: string, init: { method: string; body?: string }): Promise<{ status: number; body: unknown }> {
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
        if (attempt >= this.config.retries) {
          throw new AppError(
            'PROVIDER_UNREACHABLE',
            `The payment provider could not be reached (${describeFetchError(error)}); nothing was stored, try again`,
          );
        }
        await sleep(200 * 2 ** attempt);
      }
    }
  }
}

/** Status names of a Hubtel-style status API. */
const STATES: Record<string, StatusCheckResult['state']> = {
  paid: 'paid',
  success: 'paid',
  unpaid: 'pending',
  pending: 'pending',
  failed: 'failed',
  cancelled: 'failed',
  expired: 'failed',
};
