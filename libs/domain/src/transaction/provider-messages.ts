import { DomainError } from '../shared/domain-error';

/** Provider response codes (Hubtel-style): 0000 success, 0001 pending (callback to follow), 0005 state unknown. */
export const RESPONSE_SUCCESS = '0000';
export const RESPONSE_PENDING = '0001';
export const RESPONSE_UNKNOWN = '0005';

/** What the provider answered when the payment was requested, kept as received. */
export interface RequestInfo {
  Message: string;
  ResponseCode: string;
  Data: {
    TransactionId?: string;
    Description?: string;
    ClientReference?: string;
    Amount?: number;
    Charges?: number;
    AmountAfterCharges?: number;
    AmountCharged?: number;
    DeliveryFee?: number;
  };
}

/** The provider's final-state callback. */
export interface CallbackPayload {
  ResponseCode: string;
  Message: string;
  Data: {
    Amount: number;
    Charges: number;
    AmountAfterCharges: number;
    AmountCharged: number;
    Description: string;
    ClientReference: string;
    TransactionId: string;
    ExternalTransactionId: string;
    OrderId: string;
  };
}

/** The provider's status API, reduced to what reconciliation needs; `raw` is kept for review. */
export interface StatusCheckResult {
  state: 'paid' | 'failed' | 'pending' | 'unknown';
  /** Cedis, when the provider reports it. */
  amount?: number;
  clientReference?: string;
  raw: Record<string, unknown>;
}

const NUMBER_FIELDS = ['Amount', 'Charges', 'AmountAfterCharges', 'AmountCharged'] as const;
const STRING_FIELDS = ['Description', 'ClientReference', 'TransactionId', 'ExternalTransactionId', 'OrderId'] as const;

function bad(message: string): DomainError {
  return new DomainError('INVALID_CALLBACK', message, 'callback');
}

/**
 * Checks the shape of a callback body. Numbers must be numbers; missing descriptive strings become empty strings
 * (providers omit them), but the reference and response code are required.
 */
export function parseCallbackPayload(raw: unknown): CallbackPayload {
  const body = raw as { ResponseCode?: unknown; Message?: unknown; Data?: Record<string, unknown> } | null;
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw bad('The callback body must be a JSON object');
  if (typeof body.ResponseCode !== 'string' || !/^\d{4}$/.test(body.ResponseCode)) throw bad('ResponseCode must be a four-digit string');
  const data = body.Data;
  if (!data || typeof data !== 'object' || Array.isArray(data)) throw bad('Data must be an object');
  if (typeof data.ClientReference !== 'string' || data.ClientReference === '') throw bad('Data.ClientReference is required');
  const out = { ResponseCode: body.ResponseCode, Message: typeof body.Message === 'string' ? body.Message : '', Data: {} } as CallbackPayload;
  const target = out.Data as unknown as Record<string, unknown>;
  for (const field of NUMBER_FIELDS) {
    const value = data[field] ?? 0;
    if (typeof value !== 'number' || !Number.isFinite(value)) throw bad(`Data.${field} must be a number`);
    target[field] = value;
  }
  for (const field of STRING_FIELDS) {
    const value = data[field] ?? '';
    if (typeof value !== 'string') throw bad(`Data.${field} must be a string`);
    target[field] = value;
  }
  return out;
}
