import { DomainError } from '../shared/domain-error';

/** Provider response codes (Hubtel-style): 0000 success, 0001 pending (callback to follow), 0005 state unknown. */
export const RESPONSE_SUCCESS = '0000';
export const RESPONSE_PENDING = '0001';
export const RESPONSE_UNKNOWN = '0005';

/**
 * What a provider response code means for a payment:
 * - `success`: paid;
 * - `failed`: a documented failure (the customer's wallet, PIN, network or limits refused it);
 * - `ask`: not final: accepted and pending (0001), state unknown (0005), or a code the documents do not list. The
 *   transaction stays pending and the provider's status API decides: an unknown code is never taken as a failure
 *   (the customer may have paid).
 */
export type ResponseVerdict = 'success' | 'failed' | 'ask';

/**
 * The codes Hubtel's "Response Codes" reference of the Sales (receive money) API documents
 * (https://hubtel.readme.io/reference/response-codes): 0000 success, 0001 accepted (callback to follow), 0005 state
 * unknown, and the rest failed transactions. A code outside this list is undocumented.
 */
export const DOCUMENTED_RESPONSE_CODES = [
  RESPONSE_SUCCESS,
  RESPONSE_PENDING,
  RESPONSE_UNKNOWN,
  '2001',
  '2050',
  '2051',
  '2100',
  '2101',
  '2102',
  '2103',
  '2152',
  '2153',
  '2154',
  '2200',
  '2201',
  '3008',
  '4000',
  '4070',
  '4101',
  '4103',
] as const;
export type DocumentedResponseCode = (typeof DOCUMENTED_RESPONSE_CODES)[number];

function isDocumented(code: string): code is DocumentedResponseCode {
  return (DOCUMENTED_RESPONSE_CODES as readonly string[]).includes(code);
}

/**
 * The one place a response code is interpreted. An undocumented code is never taken as a failure: the customer may
 * have paid, so the status API decides.
 */
export function responseVerdict(code: string): ResponseVerdict {
  return isDocumented(code) ? documentedVerdict(code) : 'ask';
}

// Exhaustive on purpose (no default): a code added to DOCUMENTED_RESPONSE_CODES without a case here does not compile.
function documentedVerdict(code: DocumentedResponseCode): ResponseVerdict {
  switch (code) {
    case RESPONSE_SUCCESS:
      return 'success';
    case RESPONSE_PENDING:
    case RESPONSE_UNKNOWN:
      return 'ask';
    case '2001': // the payment processor refused it (no or wrong PIN, USSD timeout, unparsable request)
    case '2050': // MTN Mobile Money: insufficient funds
    case '2051': // MTN Mobile Money: number not registered
    case '2100': // the customer's phone is switched off
    case '2101': // Airtel Money: wrong PIN
    case '2102': // Airtel Money: insufficient funds
    case '2103': // Airtel Money: number not registered
    case '2152': // Tigo Cash: number not registered
    case '2153': // Tigo Cash: above the maximum amount
    case '2154': // Tigo Cash: above the daily limit
    case '2200': // Vodafone Cash: recipient not registered
    case '2201': // Vodafone Cash: customer not registered
    case '3008': // Vodafone Cash: customer not registered (payment channel)
    case '4000': // validation errors in the request
    case '4070': // fees not set for this amount (below the minimum): nothing was charged
    case '4101': // the business or its API keys are not set up to receive money: nothing was charged
    case '4103': // the account may not transact on this channel: nothing was charged
      return 'failed';
  }
}

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

/**
 * The provider's final-state callback (Hubtel's "Receive Money Callback"). The fields the service reads are checked;
 * every other field the provider sends (PaymentDate, and whatever it adds later) is kept as received.
 */
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
    readonly [field: string]: unknown;
  };
  readonly [field: string]: unknown;
}

/**
 * The provider's status API, reduced to what reconciliation needs; `raw` is kept for review. Hubtel's statuses are
 * Paid, Unpaid and Refunded; `not_found` is an answer that it has no payment under the reference, `unknown` any
 * answer that says nothing (an error, an unreadable body).
 */
export interface StatusCheckResult {
  state: 'paid' | 'unpaid' | 'refunded' | 'failed' | 'pending' | 'not_found' | 'unknown';
  /** Cedis, when the provider reports it. */
  amount?: number;
  clientReference?: string;
  /** The provider's own id of the payment, when it reports it. */
  transactionId?: string;
  raw: Record<string, unknown>;
}

/** Hubtel's receive-money channels, by mobile network. */
export const MOBILE_MONEY_CHANNELS = ['mtn-gh', 'vodafone-gh', 'tigo-gh'] as const;
export type MobileMoneyChannel = (typeof MOBILE_MONEY_CHANNELS)[number];

/** Ghana's mobile prefixes (after 233) by network: MTN, Telecel (the former Vodafone) and AirtelTigo. */
const NETWORK_PREFIXES: Record<string, MobileMoneyChannel> = {
  '24': 'mtn-gh',
  '25': 'mtn-gh',
  '53': 'mtn-gh',
  '54': 'mtn-gh',
  '55': 'mtn-gh',
  '59': 'mtn-gh',
  '20': 'vodafone-gh',
  '50': 'vodafone-gh',
  '26': 'tigo-gh',
  '27': 'tigo-gh',
  '56': 'tigo-gh',
  '57': 'tigo-gh',
};

/**
 * The mobile-money channel of a normalised phone number (+233XXXXXXXXX), from its network prefix; undefined for a
 * number outside Ghana's mobile ranges. (A number ported to another network keeps its prefix: the provider then
 * refuses the request with 2001, and the transaction fails without a charge.)
 */
export function mobileMoneyChannel(phone: string): MobileMoneyChannel | undefined {
  const match = /^\+233(\d{2})\d{7}$/.exec(phone);
  return match ? NETWORK_PREFIXES[match[1]] : undefined;
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
  if (typeof body.ResponseCode !== 'string' || !/^\d{4}$/.test(body.ResponseCode))
    throw bad('ResponseCode must be a four-digit string');
  const data = body.Data;
  if (!data || typeof data !== 'object' || Array.isArray(data)) throw bad('Data must be an object');
  if (typeof data.ClientReference !== 'string' || data.ClientReference === '')
    throw bad('Data.ClientReference is required');
  // Everything received is kept; the fields read are checked and normalised over it.
  const out = {
    ...body,
    ResponseCode: body.ResponseCode,
    Message: typeof body.Message === 'string' ? body.Message : '',
    Data: { ...data },
  } as CallbackPayload;
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
