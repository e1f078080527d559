import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import {
  CommonErrors,
  DomainError,
  parseCallbackPayload,
  SYSTEM_ACTOR,
  Transaction,
  eventEntriesFor,
  isOpen,
  type Actor,
  type ApplyOutcome,
  type CallbackOutcome,
  type CallbackPayload,
  type CallbackToConfirm,
  type Clock,
  type DataStores,
  type IdGenerator,
  type MerchantTransactionFilter,
  type Page,
  type PageRequest,
  type PaymentProvider,
  type PaymentRequestInput,
  type RandomSource,
  type RequestInfo,
  type StoredCallback,
  type TransactionState,
  type UnitOfWork,
  type WorkContext,
} from '@transport/domain';
import { AppError } from '../core/errors';
import type { CallbackUrlCheck, EventLog, MerchantRegistry, RateLimits, WebhookSender } from '../core/ports';
import { newSigningSecret } from '../core/platform/secrets';
import {
  CALLBACK_URL_CHECK,
  CLOCK,
  EVENT_LOG,
  ID_GENERATOR,
  MERCHANTS,
  PAYMENT_PROVIDER,
  RANDOM_SOURCE,
  RATE_LIMITS,
  STORES,
  UNIT_OF_WORK,
  WEBHOOK_SENDER,
} from '../core/tokens';
import { describeFetchError } from './fetch-error';
import { SIGNATURE_HEADERS, signatureHeader } from './notification-signature';
import {
  toDeliveriesResponse,
  toTransactionResponse,
  type DeliveriesResponse,
  type TransactionResponse,
} from './payments.dto';

/** What the payment use cases take from the configuration (bound in payments.module.ts). */
export interface PaymentSettings {
  /** Base of the callback URLs handed to the provider, e.g. https://pay.example.com (no trailing slash). */
  callbackBase: string;
  /** A pending transaction is checked against the provider's status API this long after it was requested. */
  reconcileAfterSeconds: number;
  /**
   * When set, provider callbacks must carry a valid X-Provider-Signature, and a signed final callback is final at
   * once. Unset, the URL token is the only credential: a final callback is confirmed with the status API first.
   */
  callbackSecret?: string;
  /** A callback token opens nothing this long after its transaction's final state. */
  tokenGraceHours: number;
  /** Callbacks stored per transaction, at most. */
  maxCallbacksPerTransaction: number;
  /** Dead-lettered callbacks are deleted this many days after they arrived. */
  deadLetterRetentionDays: number;
  /** A merchant whose notifications have failed for this long is paused. */
  notifyPauseAfterHours: number;
  /** The backstop asks about open transactions unchanged for this long. */
  backstopAfterMinutes: number;
  /** The provider's "Unpaid" becomes a failure once a payment is this old (its prompt long expired). */
  unpaidFinalAfterSeconds: number;
}
export const PAYMENT_SETTINGS = Symbol('PAYMENT_SETTINGS');

export const QUEUES = {
  notify: 'payment-notify',
  reconcile: 'payment-reconcile',
  sweep: 'payment-callback-sweep',
  backstop: 'payment-backstop',
  pruneDeadLetters: 'payment-dead-letter-prune',
} as const;

/**
 * The largest callback body accepted (413 past it), so also the most a dead letter can hold: a real provider callback
 * is about 1 kB.
 */
export const CALLBACK_BODY_LIMIT_BYTES = 16 * 1024;

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
 * The payment use cases: requests (stored before the provider is asked), provider callbacks (stored raw, then applied
 * once), reconciliation against the provider's status API, the recovery sweep and the backstop scan, and signed
 * merchant notifications with their operator controls. Every change goes through the unit of work with its audit
 * entries and follow-up jobs.
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
    @Inject(EVENT_LOG) private readonly events: EventLog,
    @Inject(RATE_LIMITS) private readonly limits: RateLimits,
    @Inject(MERCHANTS) private readonly merchants: MerchantRegistry,
    @Inject(PAYMENT_SETTINGS) private readonly settings: PaymentSettings,
  ) {}

  /**
   * Requests a payment. Idempotent on (merchant, reference): the same request again returns the stored transaction
   * (`created: false`); a different one under the same reference is a conflict. Intent first: the transaction
   * (`requesting`), its callback token, its audit entry and a status check are written before the provider is asked,
   * so a payment the provider starts is never without a record; the provider's answer then moves it on. When the
   * answer is lost (unreachable provider, a failed write), the queued status check settles it.
   */
  async request(input: PaymentRequestInput, actor: Actor): Promise<{ transaction: Transaction; created: boolean }> {
    const checked = Transaction.checkRequest(input);
    this.checkCallbackUrl(checked.callBackUrl);
    const existing = await this.stores.transactions.findByMerchantReference(checked.merchantId, checked.reference);
    if (existing) {
      if (!existing.matchesRequest(input)) throw referenceConflict();
      return { transaction: existing, created: false };
    }
    await this.limits.consume('payment-merchant', checked.merchantId);
    // Per merchant and phone: one merchant prompting a customer too often must not block that customer for others.
    await this.limits.consume(
      'payment-phone',
      createHash('sha256').update(`${checked.merchantId}:${checked.customerPhone}`).digest('hex'),
    );
    const token = Buffer.from(this.random.bytes(32)).toString('base64url');
    const now = this.clock.now();
    const intent = Transaction.intend(input, this.ids, now);
    let stored: Transaction;
    try {
      stored = await this.uow.run(async (ctx) => {
        const saved = await ctx.transactions.add(intent);
        await ctx.callbackTokens.add(tokenHash(token), saved.id, now);
        await ctx.audit.append(eventEntriesFor('transaction', intent.pullEvents(), actor));
        await ctx.followUps.enqueue(
          QUEUES.reconcile,
          { transactionId: saved.id },
          { startAfterSeconds: this.settings.reconcileAfterSeconds },
        );
        return saved;
      });
    } catch (error) {
      // Two identical requests raced: the loser answers like a repeat.
      if ((error as { code?: string }).code === 'TRANSACTION_REFERENCE_TAKEN') {
        const winner = await this.stores.transactions.findByMerchantReference(checked.merchantId, checked.reference);
        if (winner && winner.matchesRequest(input)) return { transaction: winner, created: false };
        throw referenceConflict();
      }
      throw error;
    }
    const state = stored.toState();
    let answer: RequestInfo | undefined;
    let failure = '';
    try {
      answer = await this.provider.requestPayment({
        reference: state.providerReference,
        amount: state.amount,
        description: state.description,
        customerName: state.customerName,
        customerPhone: state.customerPhone,
        customerEmail: state.customerEmail,
        requestType: state.requestType,
        providerCallbackUrl: `${this.settings.callbackBase}/payment/callback/${token}`,
      });
    } catch (error) {
      failure = describeFetchError(error);
    }
    try {
      const settled = await retryOnConcurrentUpdate(() =>
        this.uow.run((ctx) =>
          this.applyProviderMessage(
            ctx,
            stored.id,
            (t) =>
              answer ? t.applyRequestAnswer(answer, this.clock.now()) : t.requestUnanswered(this.clock.now(), failure),
            // The status check queued with the intent asks the provider when it is due.
            { scheduleStatusCheck: false },
          ),
        ),
      );
      if (!answer) this.events.warn('payment.request_unanswered', { transactionId: stored.id, error: failure });
      return { transaction: settled.transaction, created: true };
    } catch (error) {
      // The answer could not be recorded: the transaction stays requesting, and the queued status check settles it.
      this.events.error('payment.answer_not_recorded', {
        transactionId: stored.id,
        responseCode: answer?.ResponseCode ?? null,
        error: (error as Error).message,
      });
      return { transaction: stored, created: true };
    }
  }

  /**
   * A provider callback: found by its token, stored raw in the inbox first (so nothing received is ever lost), then
   * applied through the domain in one transaction with its audit entry. With a provider secret, a callback whose
   * signature is missing or wrong is refused before anything is looked up or stored. A token that names no
   * transaction, or whose grace period after the final state is over, opens nothing: the callback goes to the
   * dead-letter table, at most so many per client address (`address`, the per-address limit key) per hour, so nobody
   * can fill that table from outside.
   */
  async receiveCallback(
    token: string,
    rawBody: string,
    headers: Record<string, string>,
    address: string,
  ): Promise<{ outcome: CallbackOutcome }> {
    const now = this.clock.now();
    const secret = this.settings.callbackSecret;
    if (secret !== undefined && !validProviderSignature(secret, rawBody, headers[PROVIDER_SIGNATURE_HEADER])) {
      throw new AppError('INVALID_SIGNATURE', `${PROVIDER_SIGNATURE_HEADER} is missing or does not match the body`);
    }
    const found = /^[A-Za-z0-9_-]{20,100}$/.test(token)
      ? await this.stores.callbackTokens.find(tokenHash(token))
      : undefined;
    const deadLetter = async (reason: 'unknown_token' | 'expired_token', transactionId: string | null) => {
      this.events.warn('payment.callback', { transactionId, outcome: reason });
      await this.limits.consume('callback-stray-address', address);
      await this.stores.callbacks.deadLetter({ receivedAt: now, reason, transactionId, headers, body: rawBody });
    };
    if (!found) {
      await deadLetter('unknown_token', null);
      throw CommonErrors.notFound('callback', 'token');
    }
    const { transactionId } = found;
    if (found.expiresAt && found.expiresAt <= now) {
      await deadLetter('expired_token', transactionId);
      throw new AppError('CALLBACK_TOKEN_EXPIRED', 'This callback URL expired after its transaction was settled');
    }
    if ((await this.stores.callbacks.countFor(transactionId)) >= this.settings.maxCallbacksPerTransaction) {
      throw new AppError(
        'TOO_MANY_CALLBACKS',
        `This transaction already received ${this.settings.maxCallbacksPerTransaction} callbacks; no more are kept`,
      );
    }
    const stored = await this.stores.callbacks.store({ transactionId, receivedAt: now, headers, body: rawBody });
    const parsed = parseStoredCallback(rawBody);
    const outcome = await this.processStoredCallback(stored, parsed);
    this.events.info('payment.callback', {
      transactionId,
      outcome: 'error' in parsed ? 'malformed' : (outcome ?? 'duplicate'),
    });
    if ('error' in parsed) throw parsed.error;
    return { outcome: outcome ?? 'duplicate' };
  }

  /**
   * Applies one stored callback, at most once: the inbox row is claimed (locked) and skipped if another worker
   * already processed it (the request that stored it, or the recovery sweep after a crash). Undefined when it was
   * already done. A callback is authenticated when the provider signs them (the signature was checked before it
   * was stored); otherwise its final state waits for the status API.
   */
  async processStoredCallback(
    inbox: StoredCallback,
    parsed: ParsedCallback = parseStoredCallback(inbox.body),
  ): Promise<CallbackOutcome | undefined> {
    const authenticated = this.settings.callbackSecret !== undefined;
    return retryOnConcurrentUpdate(() =>
      this.uow.run(async (ctx) => {
        if (!(await ctx.callbacks.claim(inbox.id))) return undefined;
        // An unsigned final state is not the provider's word: the earlier ones kept for confirmation live in the inbox.
        const waiting =
          !authenticated && inbox.transactionId ? await this.waitingCallbacks(ctx, inbox.transactionId) : [];
        const outcome: CallbackOutcome =
          'payload' in parsed && inbox.transactionId
            ? (
                await this.applyProviderMessage(
                  ctx,
                  inbox.transactionId,
                  (t) => t.applyCallback(parsed.payload, inbox.receivedAt, authenticated, waiting),
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
   * Reconciliation: asks the provider's status API about a transaction still open (requesting or pending), under
   * its platform ClientReference, and applies the answer through the domain's applyStatusCheck (with audit, and the
   * merchant notification when it reached a final state). Still open: RetryLater, so the queue asks again with
   * backoff; past the retry window it is reported for an operator (and the backstop scan asks again later).
   */
  async reconcile(transactionId: string, attempt: AttemptInfo): Promise<void> {
    const current = await this.stores.transactions.findById(transactionId);
    if (!current || !isOpen(current.status)) return;
    const answer = await this.provider.checkStatus(current.toState().providerReference);
    const outcome = await retryOnConcurrentUpdate(() =>
      // This job retries by itself while the transaction stays open: no second status check is scheduled.
      this.uow.run((ctx) =>
        this.applyProviderMessage(
          ctx,
          transactionId,
          async (t) =>
            t.applyStatusCheck(
              answer,
              this.clock.now(),
              this.settings.unpaidFinalAfterSeconds * 1000,
              // The callbacks kept for confirmation: the one the provider's answer confirms becomes callBackInfo.
              await this.waitingCallbacks(ctx, transactionId),
            ),
          {
            scheduleStatusCheck: false,
          },
        ),
      ),
    );
    this.events.info('payment.status_check', {
      transactionId,
      state: answer.state,
      outcome: outcome.result,
      status: outcome.transaction.status,
      attempt: attempt.retryCount + 1,
    });
    if (!isOpen(outcome.transaction.status)) return;
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

  /** Deletes dead-lettered callbacks older than the retention period (an hourly job); answers how many went. */
  async pruneDeadLetters(): Promise<number> {
    const cutoff = new Date(this.clock.now().getTime() - this.settings.deadLetterRetentionDays * 86_400_000);
    const pruned = await this.stores.callbacks.pruneDeadLetters(cutoff);
    if (pruned > 0) this.events.info('payment.dead_letters_pruned', { pruned });
    return pruned;
  }

  /**
   * The backstop: open transactions unchanged for a while (their status check was lost, or gave up) get a status
   * check queued again, at most one per transaction per scan period.
   */
  async backstop(batch = 500): Promise<number> {
    const cutoff = new Date(this.clock.now().getTime() - this.settings.backstopAfterMinutes * 60_000);
    const ids = await this.stores.transactions.listOpenUnchangedSince(cutoff, batch);
    for (const transactionId of ids) {
      await this.stores.followUps.enqueue(
        QUEUES.reconcile,
        { transactionId },
        { singletonKey: `backstop:${transactionId}`, throttleSeconds: this.settings.backstopAfterMinutes * 60 },
      );
    }
    if (ids.length > 0) this.events.warn('payment.backstop', { queued: ids.length });
    return ids.length;
  }

  /**
   * One delivery attempt of a merchant notification: the stored body, signed with the merchant's secret (and, during
   * a rotation's overlap, its previous one). Every attempt is logged (time, status, latency). A 2xx answer delivers
   * it; anything else is retried with backoff (RetryLater) until the queue's retry window is spent, then it is failed.
   * A merchant whose endpoint has failed for longer than the pause threshold is paused and reported: its
   * notifications wait for an operator to resume them.
   */
  async deliverNotification(notificationId: string, attempt: AttemptInfo): Promise<void> {
    const notification = await this.stores.notifications.findForDelivery(notificationId);
    if (!notification || notification.status !== 'pending') return;
    if (notification.merchantPausedAt) {
      await this.stores.notifications.pause(notification.merchantId, notificationId, this.clock.now());
      return;
    }
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
            notification.signingSecrets,
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
    const failingSince = await this.stores.notifications.recordAttempt(
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
      notification.merchantId,
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
    if (outcome !== 'retry') return;
    const failingFor = failingSince ? started.getTime() - failingSince.getTime() : 0;
    if (failingFor >= this.settings.notifyPauseAfterHours * 3_600_000) {
      if (await this.stores.notifications.pause(notification.merchantId, notificationId, this.clock.now())) {
        this.events.error('payment.notifications_paused', {
          merchantId: notification.merchantId,
          failingSince: failingSince?.toISOString(),
          url: notification.url,
        });
      }
      return;
    }
    throw new RetryLater(`notification ${notificationId}: ${error ?? `HTTP ${statusCode}`}`);
  }

  /** An operator sends a failed or paused notification again (a new delivery run, audited). */
  async redeliver(notificationId: string, actor: Actor): Promise<void> {
    await this.uow.run(async (ctx) => {
      const found = await ctx.notifications.redeliver(notificationId);
      if (!found) {
        throw new AppError(
          'NOTIFICATION_NOT_REDELIVERABLE',
          `No failed or paused notification ${notificationId}: it is unknown, still being delivered, or delivered`,
        );
      }
      await ctx.audit.append([
        operatorEntry('notification', notificationId, 'NotificationRedelivered', actor, this.clock.now()),
      ]);
      await ctx.followUps.enqueue(QUEUES.notify, { notificationId }, { group: found.merchantId });
    });
  }

  /** An operator lifts a merchant's notification pause; its paused notifications are delivered again. */
  async resumeNotifications(merchantId: string, actor: Actor): Promise<{ resumed: number }> {
    if (!(await this.merchants.exists(merchantId))) throw CommonErrors.notFound('merchant', merchantId);
    return this.uow.run(async (ctx) => {
      const ids = await ctx.notifications.resume(merchantId);
      await ctx.audit.append([
        operatorEntry('merchant', merchantId, 'MerchantNotificationsResumed', actor, this.clock.now(), {
          resumed: ids.length,
        }),
      ]);
      for (const notificationId of ids) {
        await ctx.followUps.enqueue(QUEUES.notify, { notificationId }, { group: merchantId });
      }
      return { resumed: ids.length };
    });
  }

  /**
   * A merchant replaces its signing secret; the old one keeps signing beside the new one for `overlapHours`, so the
   * merchant can switch its verifier without missing a delivery. The new secret is shown this once.
   */
  async rotateSigningSecret(
    merchantId: string,
    overlapHours: number,
    actor: Actor,
  ): Promise<{ signingSecret: string; previousSecretValidUntil: string }> {
    const now = this.clock.now();
    const previousUntil = new Date(now.getTime() + overlapHours * 3_600_000);
    const signingSecret = newSigningSecret();
    const done = await this.merchants.rotateSigningSecret(
      { id: merchantId, signingSecret, previousUntil, at: now },
      { actor },
    );
    if (!done) throw CommonErrors.notFound('merchant', merchantId);
    return { signingSecret, previousSecretValidUntil: previousUntil.toISOString() };
  }

  /** The caller's own transaction; another merchant's reference is not found, exactly like an unknown one. */
  /** A merchant's own transactions, newest first (nobody else's: the merchant is the key's). */
  async listOwn(
    merchantId: string,
    filter: MerchantTransactionFilter,
    page: PageRequest,
  ): Promise<Page<TransactionResponse>> {
    const found = await this.stores.transactions.listForMerchant(merchantId, filter, page);
    return { ...found, items: found.items.map((t) => toTransactionResponse(t.toState())) };
  }

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

  /**
   * Applies a provider message (request answer, callback or status answer) to a transaction inside the caller's unit
   * of work: the domain decides, the change is saved with its audit entries (the events only: bounded, whatever a
   * message carried), and what the new state calls for is scheduled (a final state: the merchant notification and
   * the callback token's expiry; an open one that now needs the provider's word: a status check, unless the caller
   * is that status check and retries by itself).
   */
  private async applyProviderMessage(
    ctx: WorkContext,
    transactionId: string,
    apply: (transaction: Transaction) => ApplyOutcome | Promise<ApplyOutcome>,
    options: { scheduleStatusCheck: boolean },
  ): Promise<{ result: ApplyOutcome['result']; transaction: Transaction }> {
    const transaction = await ctx.transactions.findById(transactionId);
    if (!transaction) throw CommonErrors.notFound('transaction', transactionId);
    const before = transaction.toState();
    const outcome = await apply(transaction);
    if (outcome.result === 'duplicate') return { result: outcome.result, transaction };
    const saved = await ctx.transactions.update(transaction);
    const after = saved.toState();
    await ctx.audit.append(eventEntriesFor('transaction', transaction.pullEvents(), SYSTEM_ACTOR));
    const finished = !isOpen(after.status) && isOpen(before.status);
    const nowNeedsCheck = after.needsStatusCheck && !before.needsStatusCheck;
    if (finished) await this.scheduleNotification(ctx, after);
    else if (nowNeedsCheck && options.scheduleStatusCheck) {
      await ctx.followUps.enqueue(QUEUES.reconcile, { transactionId: after.id });
    }
    return { result: outcome.result, transaction: saved };
  }

  /** A transaction's callbacks kept for the status API to confirm, as the domain reads them. */
  private async waitingCallbacks(ctx: WorkContext, transactionId: string): Promise<CallbackToConfirm[]> {
    return (await ctx.callbacks.listDeferred(transactionId)).flatMap((row) => {
      const parsed = parseStoredCallback(row.body);
      return 'payload' in parsed ? [{ payload: parsed.payload, receivedAt: row.receivedAt }] : [];
    });
  }

  /**
   * A final state's follow-ups, in the same unit of work as the state: the merchant notification (an outbox row, the
   * exact body to sign, and the job that delivers it, in the merchant's group), and the callback token's expiry.
   */
  private async scheduleNotification(ctx: WorkContext, state: TransactionState): Promise<void> {
    const now = this.clock.now();
    await ctx.callbackTokens.expire(state.id, new Date(now.getTime() + this.settings.tokenGraceHours * 3_600_000));
    if (await ctx.notifications.existsFor(state.id)) return;
    const id = this.ids.next();
    await ctx.notifications.add({
      id,
      transactionId: state.id,
      url: state.callBackUrl,
      body: JSON.stringify(toTransactionResponse(state)),
      createdAt: now,
    });
    await ctx.followUps.enqueue(QUEUES.notify, { notificationId: id }, { group: state.merchantId });
  }
}

/** An audit entry for an operator's action on the payment pipeline. */
function operatorEntry(
  entity: string,
  entityId: string,
  action: string,
  actor: Actor,
  at: Date,
  after: Record<string, unknown> | null = null,
) {
  return { entity, entityId, action, actor, before: null, after, at };
}
