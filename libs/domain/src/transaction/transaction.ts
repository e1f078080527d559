import { normalizeEmail, normalizePhone, requireText } from '../shared/contact';
import { DomainError } from '../shared/domain-error';
import type { DomainEvent } from '../shared/events';
import { assertObjectId, type IdGenerator } from '../shared/id-generator';
import { oneOf } from '../shared/identity';
import {
  assertMoney,
  isWholePesewas,
  MAX_MONEY,
  moneyToCedis,
  reportedMoney,
  sameReportedAmount,
} from '../shared/money';
import {
  mobileMoneyChannel,
  RESPONSE_PENDING,
  responseVerdict,
  type CallbackPayload,
  type RequestInfo,
  type StatusCheckResult,
} from './provider-messages';
import type { Mutable } from '../shared/mutable';

export const REQUEST_TYPES = ['mobile_money', 'online_checkout'] as const;
export type RequestType = (typeof REQUEST_TYPES)[number];
/**
 * `requesting`: stored, the provider not yet answered (or could not be reached: reconciliation asks its status API);
 * `pending`: the provider accepted it, its final state is awaited; `success` and `failed` are final.
 */
export const TRANSACTION_STATUSES = ['requesting', 'pending', 'success', 'failed'] as const;
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];
export type FinalStatus = Extract<TransactionStatus, 'success' | 'failed'>;
/** Still waiting for the provider's word: reconciliation, the backstop and the callbacks may move it on. */
export type OpenStatus = Exclude<TransactionStatus, FinalStatus>;

export function isFinal(status: TransactionStatus): status is FinalStatus {
  return status === 'success' || status === 'failed';
}

export function isOpen(status: TransactionStatus): status is OpenStatus {
  return !isFinal(status);
}

/** Kept per transaction for review; the oldest are dropped past this many. */
export const MAX_ANOMALIES = 50;
/** An anomaly's detail is cut to this many characters (it quotes values a caller sent). */
export const MAX_ANOMALY_DETAIL = 200;
/**
 * How long after the request the provider's "Unpaid" (or "no such payment", for a request it may never have received)
 * becomes a failure. Hubtel sends the final callback within about 30 seconds and asks for a status check only after
 * five minutes; a USSD prompt expires well before this.
 */
export const UNPAID_IS_FINAL_AFTER_MS = 15 * 60_000;

export interface TransactionAnomaly {
  readonly at: Date;
  readonly source: 'request' | 'callback' | 'status_check';
  readonly reason:
    | 'reference_mismatch'
    | 'provider_id_mismatch'
    | 'amount_mismatch'
    | 'conflicting_final_state'
    | 'conflicting_callback';
  readonly detail: string;
}

export interface PaymentRequestInput {
  merchantId: string;
  /** Millionths of a cedi (shared/money.ts); a new payment is a whole number of pesewas. */
  amount: number;
  description: string;
  reference: string;
  callBackUrl: string;
  customerName?: string;
  customerPhone: string;
  customerEmail?: string;
  requestType: string;
}

export interface TransactionState {
  readonly id: string;
  readonly merchantId: string;
  /** Millionths of a cedi (shared/money.ts): exact, to six decimals. */
  readonly amount: number;
  /**
   * Millionths of a cedi: the provider's charges. Absent when not known: a transaction imported from the original
   * service whose fee could not be kept exactly (more than six decimals) is kept without it, never with a made-up one.
   */
  readonly fees?: number;
  readonly status: TransactionStatus;
  readonly requestType: RequestType;
  readonly description: string;
  readonly reference: string;
  /**
   * The ClientReference the provider is given: unique across the platform (the transaction's id), so two merchants'
   * references can never name one provider payment.
   */
  readonly providerReference: string;
  /** The provider's TransactionId, once it named one; every later callback and status answer must carry the same. */
  readonly providerTransactionId?: string;
  readonly callBackUrl: string;
  readonly customerEmail: string;
  readonly customerName: string;
  readonly customerPhone: string;
  /** The provider's answer to the request; absent while `requesting`. */
  readonly requestInfo?: RequestInfo;
  readonly callBackInfo?: CallbackPayload;
  readonly callBackTime?: Date;
  readonly statusCheckInfo?: Record<string, unknown>;
  readonly statusCheckTime?: Date;
  /**
   * Set when the provider's status API must decide: the state is unknown (0005), the request went unanswered, a
   * callback reported a final state that is not authenticated (it is confirmed first), or something was suspicious.
   */
  readonly needsStatusCheck: boolean;
  readonly anomalies: readonly TransactionAnomaly[];
  /**
   * A transaction moved from the original service: the values it stored where they were folded into this domain's
   * (a `requestType` of `direct` is `mobile_money` here). See `answeredValue`.
   */
  readonly originalValues?: OriginalValues;
  readonly version: number;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** Per field, what the original service stored and what it was folded to on import. */
export type OriginalValues = Readonly<Partial<Record<'status' | 'requestType', OriginalValue>>>;
export interface OriginalValue {
  readonly original: string;
  readonly normalised: string;
}

/**
 * The value to answer for a field of a transaction: the original service's spelling while the field still holds what
 * that spelling was folded to (its clients compare against the original's values), this domain's value once the
 * transaction has moved on (a `Pending` imported one that is now `success` answers `success`).
 */
export function answeredValue(state: TransactionState, field: keyof OriginalValues): string {
  const kept = state.originalValues?.[field];
  return kept !== undefined && kept.normalised === state[field] ? kept.original : state[field];
}

/**
 * A callback kept in the inbox and waiting for the status API to confirm it (its content is not the provider's word
 * until then, so it is never shown as callBackInfo before).
 */
export interface CallbackToConfirm {
  readonly payload: CallbackPayload;
  readonly receivedAt: Date;
}

/** What applying a provider message did: values to log and count, never exceptions. */
export type ApplyOutcome =
  | { readonly result: 'applied'; readonly status: FinalStatus }
  | { readonly result: 'accepted' }
  | { readonly result: 'duplicate' }
  | { readonly result: 'deferred' }
  | { readonly result: 'anomaly'; readonly reason: TransactionAnomaly['reason'] };

const invalid = (field: string, message: string) => new DomainError('INVALID_PAYMENT_REQUEST', message, field);

function checkRequest(input: PaymentRequestInput) {
  const reference = typeof input.reference === 'string' ? input.reference.trim() : '';
  if (!/^[A-Za-z0-9._:-]{1,64}$/.test(reference)) {
    throw invalid('reference', 'reference must be 1 to 64 letters, digits, dots, underscores, colons or hyphens');
  }
  const description = requireText(input.description, 'description', 200);
  const callBackUrl = typeof input.callBackUrl === 'string' ? input.callBackUrl.trim() : '';
  if (callBackUrl.length > 2048 || !/^https?:\/\/[^\s/?#]+[^\s]*$/i.test(callBackUrl)) {
    throw invalid('callBackUrl', 'callBackUrl must be an http or https URL of at most 2048 characters');
  }
  // The customer's name may be empty (the interface says so); when given it is plain text like any name.
  const customerName = input.customerName?.trim() ? requireText(input.customerName, 'customerName', 120) : '';
  const amount = assertMoney(input.amount, 'amount');
  if (amount === 0) throw invalid('amount', 'amount must be more than zero');
  // A provider charges whole pesewas; a third decimal belongs to history (imports), never to a new request.
  if (!isWholePesewas(amount)) throw invalid('amount', 'amount must have at most two decimals');
  const requestType = oneOf(REQUEST_TYPES, input.requestType, 'requestType');
  const customerPhone = normalizePhone(input.customerPhone, 'customerPhone');
  if (requestType === 'mobile_money' && !mobileMoneyChannel(customerPhone)) {
    throw invalid(
      'customerPhone',
      'customerPhone must be a Ghanaian mobile-money number (MTN, Telecel or AirtelTigo), such as 0244123456',
    );
  }
  return {
    merchantId: assertObjectId(input.merchantId, 'merchant'),
    amount,
    description,
    reference,
    callBackUrl,
    customerName,
    customerPhone,
    customerEmail: input.customerEmail ? normalizeEmail(input.customerEmail, 'customerEmail') : '',
    requestType,
  };
}

/**
 * A mobile-money or online-checkout payment. Stored `requesting` before the provider is asked (so nothing the provider
 * does can be left without a record), `pending` once the provider accepted it, until an authenticated message (a
 * signed callback, or the provider's status API) says success or failure; a final status never changes again.
 * Duplicates are no-ops; contradictions are anomalies that the status API settles.
 */
export class Transaction {
  private events: DomainEvent[] = [];

  private constructor(private state: Mutable<TransactionState>) {}

  /** The intent, stored before the provider is asked. Its id is the ClientReference the provider will be given. */
  static intend(input: PaymentRequestInput, ids: IdGenerator, at: Date): Transaction {
    const fields = checkRequest(input);
    const id = ids.next();
    const tx = new Transaction({
      id,
      ...fields,
      providerReference: id,
      fees: 0,
      status: 'requesting',
      needsStatusCheck: false,
      anomalies: [],
      version: 0,
      createdAt: at,
      updatedAt: at,
    });
    tx.record('TransactionRequested', at, { status: 'requesting' });
    return tx;
  }

  /** The intent and the provider's answer in one step (tests, imports). */
  static request(input: PaymentRequestInput, requestInfo: RequestInfo, ids: IdGenerator, at: Date): Transaction {
    const tx = Transaction.intend(input, ids, at);
    tx.applyRequestAnswer(requestInfo, at);
    return tx;
  }

  static restore(state: TransactionState): Transaction {
    return new Transaction({ ...state, anomalies: [...state.anomalies] });
  }

  /** Validates a request without a provider call (the service checks idempotency before asking the provider). */
  static checkRequest(input: PaymentRequestInput): ReturnType<typeof checkRequest> {
    return checkRequest(input);
  }

  get id(): string {
    return this.state.id;
  }
  get status(): TransactionStatus {
    return this.state.status;
  }
  get version(): number {
    return this.state.version;
  }

  toState(): TransactionState {
    return { ...this.state, anomalies: [...this.state.anomalies] };
  }

  pullEvents(): DomainEvent[] {
    const out = this.events;
    this.events = [];
    return out;
  }

  /** Whether a repeated request (same merchant and reference) asks for exactly the same payment. */
  matchesRequest(input: PaymentRequestInput): boolean {
    const f = checkRequest(input);
    const s = this.state;
    return (
      f.merchantId === s.merchantId &&
      f.amount === s.amount &&
      f.description === s.description &&
      f.reference === s.reference &&
      f.callBackUrl === s.callBackUrl &&
      f.customerName === s.customerName &&
      f.customerPhone === s.customerPhone &&
      f.customerEmail === s.customerEmail &&
      f.requestType === s.requestType
    );
  }

  /**
   * The provider's answer to the request (over its authenticated API): 0000 success at once, a documented failure
   * failed, 0001 pending (a callback follows); any other code pending with the status API to ask (never a guessed
   * failure). An answer that arrives after a callback or status check already moved the transaction is kept, and
   * changes nothing else.
   */
  applyRequestAnswer(info: RequestInfo, at: Date): ApplyOutcome {
    const s = this.state;
    if (s.requestInfo) return { result: 'duplicate' };
    s.requestInfo = info;
    s.updatedAt = at;
    const charges = info.Data?.Charges;
    if (typeof charges === 'number' && charges >= 0 && reportedMoney(charges) <= MAX_MONEY) {
      s.fees = reportedMoney(charges);
    }
    const code = info.ResponseCode;
    this.record('TransactionProviderAnswered', at, { responseCode: code });
    const echoed = info.Data?.ClientReference;
    if (echoed !== undefined && echoed !== s.providerReference) {
      if (s.status === 'requesting') s.status = 'pending';
      return this.anomaly('request', 'reference_mismatch', `answer for ${echoed}`, at);
    }
    const mismatch = this.adoptProviderId(info.Data?.TransactionId, 'request', at);
    if (mismatch) return mismatch;
    if (s.status !== 'requesting') return { result: 'accepted' };
    const verdict = responseVerdict(code);
    if (verdict !== 'ask') return this.finish(verdict, 'request', at);
    s.status = 'pending';
    if (code !== RESPONSE_PENDING) s.needsStatusCheck = true;
    return { result: 'accepted' };
  }

  /** The provider could not be reached, or its answer was unreadable: its status API will tell (reconciliation). */
  requestUnanswered(at: Date, reason: string): ApplyOutcome {
    const s = this.state;
    if (s.status !== 'requesting' || s.needsStatusCheck) return { result: 'duplicate' };
    s.needsStatusCheck = true;
    s.updatedAt = at;
    this.record('TransactionRequestUnanswered', at, { reason: bounded(reason) });
    return { result: 'deferred' };
  }

  /**
   * A provider callback. `authenticated`: its signature was verified (required, and only `true` counts: a caller that
   * does not say is not trusted, fail closed). An unauthenticated final state is not the
   * provider's word: it stays in the inbox (never callBackInfo) and the provider's status API is asked before anything
   * is final; `waiting` are the earlier such callbacks of this transaction, which decide whether this one repeats or
   * contradicts them.
   */
  applyCallback(
    payload: CallbackPayload,
    at: Date,
    authenticated: boolean,
    waiting: readonly CallbackToConfirm[] = [],
  ): ApplyOutcome {
    const s = this.state;
    if (payload.Data.ClientReference !== s.providerReference) {
      return this.anomaly('callback', 'reference_mismatch', `callback for ${payload.Data.ClientReference}`, at);
    }
    const given = payload.Data.TransactionId;
    if (given && s.providerTransactionId && given !== s.providerTransactionId) {
      return this.anomaly('callback', 'provider_id_mismatch', `callback names provider transaction ${given}`, at);
    }
    const verdict = responseVerdict(payload.ResponseCode);
    if (isFinal(s.status)) return this.afterFinal('callback', verdict === 'ask' ? undefined : verdict, at);
    // Not final (pending, unknown, undocumented): the status API decides.
    if (verdict === 'ask') return this.defer(at);
    if (verdict === 'success' && !sameReportedAmount(payload.Data.Amount, s.amount)) {
      return this.anomaly(
        'callback',
        'amount_mismatch',
        `callback reports ${payload.Data.Amount}, expected ${moneyToCedis(s.amount)}`,
        at,
      );
    }
    if (authenticated !== true) return this.awaitConfirmation(payload, verdict, at, waiting);
    if (given && !s.providerTransactionId) s.providerTransactionId = given;
    s.callBackInfo = payload;
    s.callBackTime = at;
    return this.finish(verdict, 'callback', at);
  }

  /**
   * The provider's status API, asked during reconciliation: authenticated, so it decides (with the same checks).
   * `unpaidIsFinalAfterMs`: how old a payment must be before Unpaid (or, for one still requesting, "not found") is
   * a failure. `waiting`: unauthenticated callbacks kept for confirmation; the latest that says what the status API
   * says (same final state, same provider id, and for a success the same amount) is now the provider's word and
   * becomes callBackInfo.
   */
  applyStatusCheck(
    result: StatusCheckResult,
    at: Date,
    unpaidIsFinalAfterMs = UNPAID_IS_FINAL_AFTER_MS,
    waiting: readonly CallbackToConfirm[] = [],
  ): ApplyOutcome {
    const s = this.state;
    if (result.clientReference !== undefined && result.clientReference !== s.providerReference) {
      return this.anomaly('status_check', 'reference_mismatch', `status for ${result.clientReference}`, at);
    }
    const mismatch = this.adoptProviderId(result.transactionId, 'status_check', at);
    if (mismatch) return mismatch;
    const implied = this.impliedByStatus(result.state, at.getTime() - s.createdAt.getTime() >= unpaidIsFinalAfterMs);
    if (isFinal(s.status)) return this.afterFinal('status_check', implied, at);
    if (!implied) {
      // The provider has it (pending or not yet paid): no longer just requested.
      if (s.status === 'requesting' && (result.state === 'pending' || result.state === 'unpaid')) {
        s.status = 'pending';
        s.updatedAt = at;
        this.record('TransactionAccepted', at, { source: 'status_check' });
        return { result: 'accepted' };
      }
      return this.defer(at);
    }
    if (implied === 'success' && result.amount !== undefined && !sameReportedAmount(result.amount, s.amount)) {
      return this.anomaly(
        'status_check',
        'amount_mismatch',
        `status reports ${result.amount}, expected ${moneyToCedis(s.amount)}`,
        at,
      );
    }
    s.statusCheckInfo = result.raw;
    s.statusCheckTime = at;
    const confirmed = waiting.findLast((w) => this.confirms(w.payload, implied));
    if (confirmed) {
      s.callBackInfo = confirmed.payload;
      s.callBackTime = confirmed.receivedAt;
    }
    return this.finish(implied, 'status_check', at);
  }

  private impliedByStatus(state: StatusCheckResult['state'], old: boolean): FinalStatus | undefined {
    switch (state) {
      case 'paid':
        return 'success';
      case 'failed':
      case 'refunded':
        return 'failed';
      case 'unpaid':
        return old ? 'failed' : undefined;
      case 'not_found':
        // Only a request the provider may never have received: one it accepted is never failed for being unfound.
        return old && this.state.status === 'requesting' ? 'failed' : undefined;
      default:
        return undefined;
    }
  }

  /** Records the provider's TransactionId the first time one is named; a different one later is an anomaly. */
  private adoptProviderId(
    given: string | undefined,
    source: TransactionAnomaly['source'],
    at: Date,
  ): ApplyOutcome | undefined {
    const s = this.state;
    if (!given) return undefined;
    if (!s.providerTransactionId) {
      s.providerTransactionId = given;
      s.updatedAt = at;
      return undefined;
    }
    if (given === s.providerTransactionId) return undefined;
    return this.anomaly(source, 'provider_id_mismatch', `${source} names provider transaction ${given}`, at);
  }

  /** An unauthenticated final callback: left in the inbox, and confirmed with the status API before anything is final. */
  private awaitConfirmation(
    payload: CallbackPayload,
    verdict: FinalStatus,
    at: Date,
    waiting: readonly CallbackToConfirm[],
  ): ApplyOutcome {
    const s = this.state;
    const earlier = waiting.map((w) => responseVerdict(w.payload.ResponseCode)).find((v) => v !== 'ask');
    if (earlier === verdict) return { result: 'duplicate' };
    if (earlier !== undefined) {
      return this.anomaly(
        'callback',
        'conflicting_callback',
        `callback says ${verdict} after one that said otherwise`,
        at,
      );
    }
    s.needsStatusCheck = true;
    s.updatedAt = at;
    this.record('TransactionCallbackToConfirm', at, { responseCode: payload.ResponseCode });
    return { result: 'deferred' };
  }

  /** Whether a callback kept for confirmation says what the authenticated verdict says, about this payment. */
  private confirms(payload: CallbackPayload, verdict: FinalStatus): boolean {
    const s = this.state;
    const given = payload.Data.TransactionId;
    return (
      responseVerdict(payload.ResponseCode) === verdict &&
      payload.Data.ClientReference === s.providerReference &&
      (!given || !s.providerTransactionId || given === s.providerTransactionId) &&
      (verdict !== 'success' || sameReportedAmount(payload.Data.Amount, s.amount))
    );
  }

  private finish(status: FinalStatus, source: string, at: Date): ApplyOutcome {
    const s = this.state;
    s.status = status;
    s.needsStatusCheck = false;
    s.updatedAt = at;
    this.record(status === 'success' ? 'TransactionSucceeded' : 'TransactionFailed', at, { source });
    return { result: 'applied', status };
  }

  /** A late or repeated message after the final state: the same verdict is a duplicate, a different one an anomaly. */
  private afterFinal(source: TransactionAnomaly['source'], implied: FinalStatus | undefined, at: Date): ApplyOutcome {
    if (implied === undefined || implied === this.state.status) return { result: 'duplicate' };
    return this.anomaly(source, 'conflicting_final_state', `${source} says ${implied} after ${this.state.status}`, at);
  }

  private defer(at: Date): ApplyOutcome {
    if (this.state.needsStatusCheck) return { result: 'duplicate' };
    this.state.needsStatusCheck = true;
    this.state.updatedAt = at;
    this.record('TransactionStateUnknown', at);
    return { result: 'deferred' };
  }

  private anomaly(
    source: TransactionAnomaly['source'],
    reason: TransactionAnomaly['reason'],
    text: string,
    at: Date,
  ): ApplyOutcome {
    const s = this.state;
    const detail = bounded(text);
    s.anomalies = [...s.anomalies, { at, source, reason, detail }].slice(-MAX_ANOMALIES);
    // A suspicious message on an open payment is resolved by asking the provider, never by trusting the message.
    if (!isFinal(s.status)) s.needsStatusCheck = true;
    s.updatedAt = at;
    this.record('TransactionAnomaly', at, { source, reason, detail });
    return { result: 'anomaly', reason };
  }

  private record(type: string, at: Date, data?: Record<string, unknown>): void {
    this.events.push({ type, aggregateId: this.state.id, at, data });
  }
}

function bounded(text: string): string {
  return text.length > MAX_ANOMALY_DETAIL ? `${text.slice(0, MAX_ANOMALY_DETAIL - 1)}…` : text;
}
