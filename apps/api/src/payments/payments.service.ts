import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import {
  CommonErrors,
  DomainError,
  parseCallbackPayload,
  SYSTEM_ACTOR,
  Transaction,
  auditEntriesFor,
  type Actor,
  type ApplyOutcome,
  type CallbackOutcome,
  type CallbackPayload,
  type Clock,
  type DataStores,
  type IdGenerator,
  type PaymentProvider,
  type PaymentRequestInput,
  type RandomSource,
  type StoredCallback,
  type TransactionState,
  type UnitOfWork,
  type WorkContext,
} from '@transport/domain';
import { AppError } from '../core/errors';
import type { CallbackUrlCheck, EventLog, PaymentMetricsSource, WebhookSender } from '../core/ports';
import {
  CALLBACK_URL_CHECK,
  CLOCK,
  EVENT_LOG,
  ID_GENERATOR,
  PAYMENT_METRICS,
  PAYMENT_PROVIDER,
  RANDOM_SOURCE,
  STORES,
  UNIT_OF_WORK,
  WEBHOOK_SENDER,
} from '../core/tokens';
import { describeFetchError } from './fetch-error';
import { SIGNATURE_HEADERS, signatureHeader } from './notification-signature';
import { renderPaymentMetrics } from './payment-metrics';
import { toDeliveriesResponse, toTransactionResponse, type DeliveriesResponse } from './payments.dto';

/** What the payment use cases take from the configuration (bound in payments.module.ts). */
export interface PaymentSettings {
  /** Base of the callback URLs handed to the provider, e.g. https://pay.example.com (no trailing slash). */
  callbackBase: string;
  /** A pending transaction is checked against the provider's status API this long after it was requested. */
  reconcileAfterSeconds: number;
  /** When set, provider callbacks must carry a valid X-Provider-Signature. */
  callbackSecret?: string;
}
export const PAYMENT_SETTINGS = Symbol('PAYMENT_SETTINGS');

export const QUEUES = {
  notify: 'payment-notify',
  reconcile: 'payment-reconcile',
  sweep: 'payment-callback-sweep',
} as const;

/** Headers of provider callbacks: the signature, when the provider is configured with a secret. */
export const PROVIDER_SIGNATURE_HEADER = 'x-provider-signature';

/** The attempt being run, as the job queue reports it. */
export interface AttemptInfo {
  retryCount: number;
  retryLimit: number;
}

/** Thrown to have a job retried with backoff; not an error worth a stack trace. */
export class RetryLater extends Error {}

type ParsedCallback = { payload: CallbackPayload } | { error: DomainError };

const tokenHash = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

const referenceConflict = () =>
  new DomainError(
    'TRANSACTION_REFERENCE_CONFLICT',
    'This reference was already used for a different payment request',
    'reference',
  );

/** `sha256=<hex HMAC-SHA256(secret, raw body)>`, compared in constant time. */
export function validProviderSignature(secret: string, rawBody: string, given: string | undefined): boolean {
  const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(rawBody, 'utf8').digest('hex')}`);
  const actual = Buffer.from(given ?? '');
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

function parseStoredCallback(body: string): ParsedCallback {
  try {
    return { payload: parseCallbackPayload(JSON.parse(body)) };
  } catch (error) {
    return {
      error:
        error instanceof DomainError
          ? error
          : new DomainError('INVALID_CALLBACK', 'The callback body is not valid JSON', 'callback'),
    };
  }
}

/** Runs a change again when it lost an optimistic-concurrency race (a duplicate arriving at the same moment). */
export async function retryOnConcurrentUpdate<T>(change: () => Promise<T>, attempts = 5): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await change();
    } catch (error) {
      if ((error as { code?: string }).code !== 'CONCURRENT_UPDATE' || attempt >= attempts) throw error;
    }
  }
}

/**
 * The payment use cases: requests, provider callbacks (stored raw, then applied once), reconciliation against the
 * provider's status API, the recovery sweep, and signed merchant notifications. Every change goes through the unit
 * of work with its audit entries and follow-up jobs.
 */
@Injectable()
export class PaymentsService {
  constructor(
    @Inject(UNIT_OF_WORK) private readonly uow: UnitOfWork,
    @Inject(STORES) private readonly stores: DataStores,
    @Inject(PAYMENT_PROVIDER) private readonly provider: PaymentProvider,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    @Inject(RANDOM_SOURCE) private readonly random: RandomSource,
    @Inject(CALLBACK_URL_CHECK) private readonly checkCallbackUrl: CallbackUrlCheck,
    @Inject(WEBHOOK_SENDER) private readonly webhooks: WebhookSender,
    @Inject(PAYMENT_METRICS) private readonly metricsSource: PaymentMetricsSource,
    @Inject(EVENT_LOG) private readonly events: EventLog,
    @Inject(PAYMENT_SETTINGS) private readonly settings: PaymentSettings,
  ) {}

  /**
   * Requests a payment. Idempotent on (merchant, reference): the same request again returns the stored transaction
   * (`created: false`); a different one under the same reference is a conflict. The provider is asked outside any
   * database transaction; the transaction, its callback token, the audit entry and the status check are then
   * written together.
   */
  async request(input: PaymentRequestInput, actor: Actor): Promise<{ transaction: Transaction; created: boolean }> {
    const checked = Transaction.checkRequest(input);
    this.checkCallbackUrl(checked.callBackUrl);
    const existing = await this.stores.transactions.findByMerchantReference(checked.merchantId, checked.reference);
    if (existing) {
      if (!existing.matchesRequest(input)) throw referenceConflict();
      return { transaction: existing, created: false };
    }
    const token = Buffer.from(this.random.bytes(32)).toString('base64url');
    const requestInfo = await this.provider.requestPayment({
      reference: checked.reference,
      amount: checked.amount,
      description: checked.description,
      customerName: checked.customerName,
      customerPhone: checked.customerPhone,
      customerEmail: checked.customerEmail,
      requestType: checked.requestType,
      providerCallbackUrl: `${this.settings.callbackBase}/payment/callback/${token}`,
    });
    const now = this.clock.now();
    const transaction = Transaction.request(input, requestInfo, this.ids, now);
    try {
      const saved = await this.uow.run(async (ctx) => {
        const stored = await ctx.transactions.add(transaction);
        await ctx.callbackTokens.add(tokenHash(token), stored.id, now);
        await ctx.audit.append(auditEntriesFor('transaction', transaction.pullEvents(), actor, null, stored.toState()));
        await this.scheduleFollowUps(ctx, stored.toState(), {
          reconcileAfterSeconds: this.settings.reconcileAfterSeconds,
        });
        return stored;
      });
      return { transaction: saved, created: true };
    } catch (error) {
      // Two identical requests raced: the loser answers like a repeat.
      if ((error as { code?: string }).code === 'TRANSACTION_REFERENCE_TAKEN') {
        const winner = await this.stores.transactions.findByMerchantReference(checked.merchantId, checked.reference);
        if (winner && winner.matchesRequest(input)) return { transaction: winner, created: false };
        throw referenceConflict();
      }
      throw error;
    }
  }

  /**
   * A provider callback: found by its token, stored raw in the inbox first (so nothing received is ever lost), then
   * applied through the domain in one transaction with its audit entry. Unknown tokens store nothing.
   */
  async receiveCallback(
    token: string,
    rawBody: string,
    headers: Record<string, string>,
  ): Promise<{ outcome: CallbackOutcome }> {
    if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) throw CommonErrors.notFound('callback', 'token');
    const transactionId = await this.stores.callbackTokens.findTransactionId(tokenHash(token));
    if (!transactionId) throw CommonErrors.notFound('callback', 'token');
    const secret = this.settings.callbackSecret;
    if (secret !== undefined && !validProviderSignature(secret, rawBody, headers[PROVIDER_SIGNATURE_HEADER])) {
      throw new AppError('INVALID_SIGNATURE', `${PROVIDER_SIGNATURE_HEADER} is missing or does not match the body`);
    }
    const stored = await this.stores.callbacks.store({
      transactionId,
      receivedAt: this.clock.now(),
      headers,
      body: rawBody,
    });
    const parsed = parseStoredCallback(rawBody);
    const outcome = await this.processStoredCallback(stored, parsed);
    if ('error' in parsed) throw parsed.error;
    return { outcome: outcome ?? 'duplicate' };
  }

  /**
   * Applies one stored callback, at most once: the inbox row is claimed (locked) and skipped if another worker
   * already processed it (the request that stored it, or the recovery sweep after a crash). Undefined when it was
   * already done.
   */
  async processStoredCallback(
    inbox: StoredCallback,
    parsed: ParsedCallback = parseStoredCallback(inbox.body),
  ): Promise<CallbackOutcome | undefined> {
    return retryOnConcurrentUpdate(() =>
      this.uow.run(async (ctx) => {
        if (!(await ctx.callbacks.claim(inbox.id))) return undefined;
        const outcome: CallbackOutcome =
          'payload' in parsed && inbox.transactionId
            ? (
                await this.applyProviderMessage(
                  ctx,
                  inbox.transactionId,
                  (t) => t.applyCallback(parsed.payload, inbox.receivedAt),
                  { scheduleStatusCheck: true },
                )
              ).result
            : 'malformed';
        await ctx.callbacks.markProcessed(inbox.id, outcome, this.clock.now());
        return outcome;
      }),
    );
  }

  /**
   * Reconciliation: asks the provider's status API about a transaction that is still pending, and applies the answer
   * through the domain's applyStatusCheck (with audit, and the merchant notification when it reached a final state).
   * Still pending or unknown: RetryLater, so the queue asks again with backoff.
   */
  async reconcile(transactionId: string, attempt: AttemptInfo): Promise<void> {
    const current = await this.stores.transactions.findById(transactionId);
    if (!current || current.status !== 'pending') return;
    const answer = await this.provider.checkStatus(current.toState().reference);
    const outcome = await retryOnConcurrentUpdate(() =>
      // This job retries by itself while the transaction stays pending: no second status check is scheduled.
      this.uow.run((ctx) =>
        this.applyProviderMessage(ctx, transactionId, (t) => t.applyStatusCheck(answer, this.clock.now()), {
          scheduleStatusCheck: false,
        }),
      ),
    );
    this.events.info('payment.status_check', {
      transactionId,
      state: answer.state,
      outcome: outcome.result,
      status: outcome.status,
      attempt: attempt.retryCount + 1,
    });
    if (outcome.status !== 'pending') return;
    if (attempt.retryCount >= attempt.retryLimit) {
      this.events.error('payment.reconcile_gave_up', { transactionId, attempts: attempt.retryCount + 1 });
      return;
    }
    throw new RetryLater(`transaction ${transactionId} is still ${answer.state} at the provider`);
  }

  /**
   * The recovery sweep: callbacks stored but never applied (the process died between storing and applying, or
   * applying failed) are applied now, each at most once.
   */
  async sweepStoredCallbacks(olderThanSeconds: number, batch = 500): Promise<number> {
    const cutoff = new Date(this.clock.now().getTime() - olderThanSeconds * 1000);
    let done = 0;
    for (;;) {
      const rows = await this.stores.callbacks.listUnprocessed(cutoff, batch);
      for (const row of rows) {
        const outcome = await this.processStoredCallback(row);
        if (outcome)
          this.events.info('payment.callback_recovered', {
            callbackId: row.id,
            transactionId: row.transactionId,
            outcome,
          });
        done += 1;
      }
      if (rows.length < batch) return done;
    }
  }

  /**
   * One delivery attempt of a merchant notification: the stored body, signed with the merchant's secret. Every attempt
   * is logged (time, status, latency). A 2xx answer delivers it; anything else is retried with backoff (RetryLater)
   * until the queue's retry window is spent, then it is failed.
   */
  async deliverNotification(notificationId: string, attempt: AttemptInfo): Promise<void> {
    const notification = await this.stores.notifications.findForDelivery(notificationId);
    if (!notification || notification.status !== 'pending') return;
    const started = this.clock.now();
    const t0 = performance.now();
    let statusCode: number | null = null;
    let error: string | null = null;
    try {
      const timestamp = Math.floor(started.getTime() / 1000);
      statusCode = await this.webhooks.send(
        notification.url,
        {
          'content-type': 'application/json',
          'user-agent': 'transport-platform-notifier/1',
          'idempotency-key': notification.id,
          [SIGNATURE_HEADERS.id]: notification.id,
          [SIGNATURE_HEADERS.timestamp]: String(timestamp),
          [SIGNATURE_HEADERS.signature]: signatureHeader(
            [notification.signingSecret],
            notification.id,
            timestamp,
            notification.body,
          ),
        },
        notification.body,
      );
    } catch (caught) {
      error = describeFetchError(caught);
    }
    const latencyMs = Math.round(performance.now() - t0);
    const delivered = statusCode !== null && statusCode >= 200 && statusCode < 300;
    const outcome = delivered ? 'delivered' : attempt.retryCount >= attempt.retryLimit ? 'failed' : 'retry';
    const number = notification.attempts + 1;
    await this.stores.notifications.recordAttempt(
      {
        notificationId,
        attempt: number,
        at: started,
        statusCode,
        latencyMs,
        error: error ?? (delivered ? null : `HTTP ${statusCode}`),
        outcome,
      },
      delivered ? this.clock.now() : null,
    );
    this.events.info('payment.notification', {
      notificationId,
      reference: notification.reference,
      attempt: number,
      outcome,
      statusCode,
      latencyMs,
      error,
    });
    if (outcome === 'retry') throw new RetryLater(`notification ${notificationId}: ${error ?? `HTTP ${statusCode}`}`);
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

  /** The payment pipeline's figures in Prometheus text. */
  metrics(): Promise<string> {
    return renderPaymentMetrics(this.metricsSource, this.clock.now());
  }

  /**
   * Applies a provider message (callback or status answer) to a transaction inside the caller's unit of work: the
   * domain decides, the change is saved with its audit entries, and what the new state calls for is scheduled (a final
   * state: the merchant notification; a pending one that now needs the provider's word: a status check, unless the
   * caller is that status check and retries by itself).
   */
  private async applyProviderMessage(
    ctx: WorkContext,
    transactionId: string,
    apply: (transaction: Transaction) => ApplyOutcome,
    options: { scheduleStatusCheck: boolean },
  ): Promise<{ result: ApplyOutcome['result']; status: TransactionState['status'] }> {
    const transaction = await ctx.transactions.findById(transactionId);
    if (!transaction) throw CommonErrors.notFound('transaction', transactionId);
    const before = transaction.toState();
    const outcome = apply(transaction);
    if (outcome.result !== 'duplicate') {
      const after = (await ctx.transactions.update(transaction)).toState();
      await ctx.audit.append(auditEntriesFor('transaction', transaction.pullEvents(), SYSTEM_ACTOR, before, after));
      const finished = after.status !== before.status;
      const nowNeedsCheck = after.needsStatusCheck && !before.needsStatusCheck;
      if (finished || (nowNeedsCheck && options.scheduleStatusCheck)) await this.scheduleFollowUps(ctx, after);
    }
    return { result: outcome.result, status: transaction.status };
  }

  /**
   * What a transaction's new state calls for, written in the same unit of work as the state: a final state gets its
   * merchant notification (an outbox row, the exact body to sign, and the job that delivers it); a pending one that
   * needs the provider's word gets a status check.
   */
  private async scheduleFollowUps(
    ctx: WorkContext,
    state: TransactionState,
    options: { reconcileAfterSeconds?: number } = {},
  ): Promise<void> {
    if (state.status !== 'pending') {
      if (await ctx.notifications.existsFor(state.id)) return;
      const id = this.ids.next();
      await ctx.notifications.add({
        id,
        transactionId: state.id,
        url: state.callBackUrl,
        body: JSON.stringify(toTransactionResponse(state)),
        createdAt: this.clock.now(),
      });
      await ctx.followUps.enqueue(QUEUES.notify, { notificationId: id });
      return;
    }
    if (options.reconcileAfterSeconds !== undefined) {
      await ctx.followUps.enqueue(
        QUEUES.reconcile,
        { transactionId: state.id },
        { startAfterSeconds: options.reconcileAfterSeconds },
      );
    } else if (state.needsStatusCheck) {
      await ctx.followUps.enqueue(QUEUES.reconcile, { transactionId: state.id });
    }
  }
}
