import { normalizeEmail, normalizePhone, requireText } from '../shared/contact';
import { DomainError } from '../shared/domain-error';
import type { DomainEvent } from '../shared/events';
import { assertObjectId, type IdGenerator } from '../shared/id-generator';
import { oneOf } from '../shared/identity';
import { assertPesewas } from '../shared/money';
import {
  RESPONSE_PENDING,
  responseVerdict,
  type CallbackPayload,
  type RequestInfo,
  type StatusCheckResult,
} from './provider-messages';
import type { Mutable } from '../shared/mutable';

export const REQUEST_TYPES = ['mobile_money', 'online_checkout'] as const;
export type RequestType = (typeof REQUEST_TYPES)[number];
export const TRANSACTION_STATUSES = ['pending', 'success', 'failed'] as const;
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];
export type FinalStatus = Exclude<TransactionStatus, 'pending'>;

/** Kept per transaction for review; the oldest are dropped past this many. */
export const MAX_ANOMALIES = 50;

export interface TransactionAnomaly {
  readonly at: Date;
  readonly source: 'callback' | 'status_check';
  readonly reason: 'reference_mismatch' | 'amount_mismatch' | 'conflicting_final_state';
  readonly detail: string;
}

export interface PaymentRequestInput {
  merchantId: string;
  /** Pesewas. */
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
  readonly amount: number;
  readonly fees: number;
  readonly status: TransactionStatus;
  readonly requestType: RequestType;
  readonly description: string;
  readonly reference: string;
  readonly callBackUrl: string;
  readonly customerEmail: string;
  readonly customerName: string;
  readonly customerPhone: string;
  readonly requestInfo: RequestInfo;
  readonly callBackInfo?: CallbackPayload;
  readonly callBackTime?: Date;
  readonly statusCheckInfo?: Record<string, unknown>;
  readonly statusCheckTime?: Date;
  /** Set when the provider said the state is unknown (0005) or reported something suspicious: reconcile it. */
  readonly needsStatusCheck: boolean;
  readonly anomalies: readonly TransactionAnomaly[];
  readonly version: number;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** What applying a provider message did: values to log and count, never exceptions. */
export type ApplyOutcome =
  | { readonly result: 'applied'; readonly status: FinalStatus }
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
  const amount = assertPesewas(input.amount, 'amount');
  if (amount === 0) throw invalid('amount', 'amount must be more than zero');
  return {
    merchantId: assertObjectId(input.merchantId, 'merchant'),
    amount,
    description,
    reference,
    callBackUrl,
    customerName,
    customerPhone: normalizePhone(input.customerPhone, 'customerPhone'),
    customerEmail: input.customerEmail ? normalizeEmail(input.customerEmail, 'customerEmail') : '',
    requestType: oneOf(REQUEST_TYPES, input.requestType, 'requestType'),
  };
}

/**
 * A mobile-money or online-checkout payment. Pending until the provider's final callback (or the status API) says
 * success or failure; a final status never changes again. Duplicates are no-ops; contradictions are anomalies.
 */
export class Transaction {
  private events: DomainEvent[] = [];

  private constructor(private state: Mutable<TransactionState>) {}

  /**
   * The provider's answer decides the start: 0000 success at once, a documented failure failed, 0001 pending (a
   * callback follows); any other code leaves it pending with the status API to ask (never a guessed failure).
   */
  static request(input: PaymentRequestInput, requestInfo: RequestInfo, ids: IdGenerator, at: Date): Transaction {
    const fields = checkRequest(input);
    const code = requestInfo.ResponseCode;
    const verdict = responseVerdict(code);
    const status: TransactionStatus = verdict === 'ask' ? 'pending' : verdict;
    const charges = requestInfo.Data?.Charges;
    const fees = typeof charges === 'number' && Number.isFinite(charges) && charges >= 0 ? reportedPesewas(charges) : 0;
    const tx = new Transaction({
      id: ids.next(),
      ...fields,
      fees,
      status,
      requestInfo,
      needsStatusCheck: verdict === 'ask' && code !== RESPONSE_PENDING,
      anomalies: [],
      version: 0,
      createdAt: at,
      updatedAt: at,
    });
    tx.record('TransactionRequested', at, { status, responseCode: code });
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

  applyCallback(payload: CallbackPayload, at: Date): ApplyOutcome {
    const s = this.state;
    if (payload.Data.ClientReference !== s.reference) {
      return this.anomaly('callback', 'reference_mismatch', `callback for ${payload.Data.ClientReference}`, at);
    }
    const verdict = responseVerdict(payload.ResponseCode);
    if (s.status !== 'pending') return this.afterFinal('callback', verdict === 'ask' ? undefined : verdict, at);
    // Not final (pending, unknown, undocumented): the status API decides.
    if (verdict === 'ask') return this.defer(at);
    if (verdict === 'success' && reportedPesewas(payload.Data.Amount) !== s.amount) {
      return this.anomaly(
        'callback',
        'amount_mismatch',
        `callback reports ${payload.Data.Amount}, expected ${s.amount / 100}`,
        at,
      );
    }
    s.callBackInfo = payload;
    s.callBackTime = at;
    return this.finish(verdict, 'callback', at);
  }

  /** The provider's status API, asked during reconciliation; same rules as a callback. */
  applyStatusCheck(result: StatusCheckResult, at: Date): ApplyOutcome {
    const s = this.state;
    if (result.clientReference !== undefined && result.clientReference !== s.reference) {
      return this.anomaly('status_check', 'reference_mismatch', `status for ${result.clientReference}`, at);
    }
    const implied: FinalStatus | undefined =
      result.state === 'paid' ? 'success' : result.state === 'failed' ? 'failed' : undefined;
    if (s.status !== 'pending') return this.afterFinal('status_check', implied, at);
    if (!implied) return this.defer(at);
    if (implied === 'success' && result.amount !== undefined && reportedPesewas(result.amount) !== s.amount) {
      return this.anomaly(
        'status_check',
        'amount_mismatch',
        `status reports ${result.amount}, expected ${s.amount / 100}`,
        at,
      );
    }
    s.statusCheckInfo = result.raw;
    s.statusCheckTime = at;
    return this.finish(implied, 'status_check', at);
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
    detail: string,
    at: Date,
  ): ApplyOutcome {
    const s = this.state;
    s.anomalies = [...s.anomalies, { at, source, reason, detail }].slice(-MAX_ANOMALIES);
    // A suspicious message on a pending payment is resolved by asking the provider, never by trusting the message.
    if (s.status === 'pending') s.needsStatusCheck = true;
    s.updatedAt = at;
    this.record('TransactionAnomaly', at, { source, reason, detail });
    return { result: 'anomaly', reason };
  }

  private record(type: string, at: Date, data?: Record<string, unknown>): void {
    this.events.push({ type, aggregateId: this.state.id, at, data });
  }
}

/** Amounts reported by the provider, in cedis, compared to the pesewa (providers send floats such as 25.499999). */
function reportedPesewas(cedis: number): number {
  return Math.round(cedis * 100);
}
