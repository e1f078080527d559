import { Inject, Injectable } from '@nestjs/common';
import {
  CommonErrors,
  DomainError,
  eventEntriesFor,
  isOpen,
  parseCallbackPayload,
  SYSTEM_ACTOR,
  type ApplyOutcome,
  type CallbackPayload,
  type CallbackToConfirm,
  type Clock,
  type IdGenerator,
  type Transaction,
  type TransactionState,
  type WorkContext,
} from '@transport/domain';
import { sha256Hex } from '../core/platform/secrets';
import { CLOCK, ID_GENERATOR } from '../core/tokens';
import { settleNoticeOf } from './notice-settlement';
import { PAYMENT_SETTINGS, QUEUES, type PaymentSettings } from './payment-settings';
import { toTransactionResponse } from './payments.dto';

/** What the callback tokens table keeps of a token: its SHA-256, never the token itself. */
export const callbackTokenHash = (token: string) => sha256Hex(token);

export type ParsedCallback = { payload: CallbackPayload } | { error: DomainError };

export function parseStoredCallback(body: string): ParsedCallback {
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
 * The one way a provider message (request answer, callback or status answer) moves a transaction on, shared by the
 * requests, the callbacks and reconciliation: the domain decides, and what the new state calls for is scheduled in the
 * same unit of work.
 */
@Injectable()
export class TransactionProgress {
  constructor(
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    @Inject(PAYMENT_SETTINGS) private readonly settings: PaymentSettings,
  ) {}

  /**
   * Applies a provider message to a transaction inside the caller's unit of work: the domain decides, the change is
   * saved with its audit entries (the events only: bounded, whatever a message carried), and what the new state calls
   * for is scheduled (a final state: the merchant notification and the callback token's expiry; an open one that now
   * needs the provider's word: a status check, unless the caller is that status check and retries by itself).
   */
  async applyProviderMessage(
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
    if (finished) {
      // A notice payment settles its notice here, in this unit of work; it has no merchant endpoint to notify.
      if (await settleNoticeOf(ctx, after, this.clock.now())) await this.expireToken(ctx, after);
      else await this.scheduleNotification(ctx, after);
    } else if (nowNeedsCheck && options.scheduleStatusCheck) {
      await ctx.followUps.enqueue(QUEUES.reconcile, { transactionId: after.id });
    }
    return { result: outcome.result, transaction: saved };
  }

  /** A transaction's callbacks kept for the status API to confirm, as the domain reads them. */
  async waitingCallbacks(ctx: WorkContext, transactionId: string): Promise<CallbackToConfirm[]> {
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
    await this.expireToken(ctx, state);
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

  /** A final state's callback token opens nothing once its grace period is over. */
  private async expireToken(ctx: WorkContext, state: TransactionState): Promise<void> {
    const until = new Date(this.clock.now().getTime() + this.settings.tokenGraceHours * 3_600_000);
    await ctx.callbackTokens.expire(state.id, until);
  }
}
