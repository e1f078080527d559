import { createHmac } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import {
  CommonErrors,
  type CallbackOutcome,
  type Clock,
  type DataStores,
  type StoredCallback,
  type UnitOfWork,
} from '@transport/domain';
import { AppError } from '../core/errors';
import type { EventLog, RateLimits } from '../core/ports';
import { sameSecret } from '../core/platform/secrets';
import { CLOCK, EVENT_LOG, RATE_LIMITS, STORES, UNIT_OF_WORK } from '../core/tokens';
import { PAYMENT_SETTINGS, type PaymentSettings } from './payment-settings';
import {
  callbackTokenHash,
  parseStoredCallback,
  retryOnConcurrentUpdate,
  TransactionProgress,
  type ParsedCallback,
} from './transaction-progress';

/**
 * The largest callback body accepted (413 past it), so also the most a dead letter can hold: a real provider callback
 * is about 1 kB.
 */
export const CALLBACK_BODY_LIMIT_BYTES = 16 * 1024;

/** Headers of provider callbacks: the signature, when the provider is configured with a secret. */
export const PROVIDER_SIGNATURE_HEADER = 'x-provider-signature';

/** `sha256=<hex HMAC-SHA256(secret, raw body)>`, compared in constant time. */
export function validProviderSignature(secret: string, rawBody: string, given: string | undefined): boolean {
  return sameSecret(given ?? '', `sha256=${createHmac('sha256', secret).update(rawBody, 'utf8').digest('hex')}`);
}

/**
 * Provider callbacks: stored raw in the inbox first, then applied once through the domain; the recovery sweep for
 * those whose applying was cut short, and the dead-letter table for those that open nothing.
 */
@Injectable()
export class PaymentCallbacksService {
  constructor(
    @Inject(UNIT_OF_WORK) private readonly uow: UnitOfWork,
    @Inject(STORES) private readonly stores: DataStores,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(EVENT_LOG) private readonly events: EventLog,
    @Inject(RATE_LIMITS) private readonly limits: RateLimits,
    @Inject(PAYMENT_SETTINGS) private readonly settings: PaymentSettings,
    private readonly progress: TransactionProgress,
  ) {}

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
      ? await this.stores.callbackTokens.find(callbackTokenHash(token))
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
          !authenticated && inbox.transactionId ? await this.progress.waitingCallbacks(ctx, inbox.transactionId) : [];
        const outcome: CallbackOutcome =
          'payload' in parsed && inbox.transactionId
            ? (
                await this.progress.applyProviderMessage(
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
}
