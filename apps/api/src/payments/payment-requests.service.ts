import { Inject, Injectable } from '@nestjs/common';
import {
  DomainError,
  eventEntriesFor,
  holdsReference,
  Transaction,
  type Actor,
  type Clock,
  type DataStores,
  type IdGenerator,
  type PaymentProvider,
  type PaymentRequestInput,
  type RandomSource,
  type RequestInfo,
  type UnitOfWork,
  type WorkContext,
} from '@transport/domain';
import type { CallbackUrlCheck, EventLog, RateLimits } from '../core/ports';
import { randomToken, sha256Hex } from '../core/platform/secrets';
import {
  CALLBACK_URL_CHECK,
  CLOCK,
  EVENT_LOG,
  ID_GENERATOR,
  PAYMENT_PROVIDER,
  RANDOM_SOURCE,
  RATE_LIMITS,
  STORES,
  UNIT_OF_WORK,
} from '../core/tokens';
import { describeFetchError } from './fetch-error';
import { PAYMENT_SETTINGS, QUEUES, type PaymentSettings } from './payment-settings';
import { callbackTokenHash, retryOnConcurrentUpdate, TransactionProgress } from './transaction-progress';

const referenceConflict = () =>
  new DomainError(
    'TRANSACTION_REFERENCE_CONFLICT',
    'This reference was already used for a different payment request',
    'reference',
  );

/** What a payment the service asks for itself (a notice's) adds to a merchant's request. */
export interface IntentOptions {
  /**
   * Written in the intent's own unit of work (a notice payment's link to its notice): if it throws, nothing is stored
   * and the provider is never asked.
   */
  withIntent?: (ctx: WorkContext, transaction: Transaction) => Promise<void>;
  /** No merchant webhook is ever sent for it (a notice payment settles its notice instead): the URL is not checked. */
  noWebhook?: boolean;
}

/** Payment requests: stored before the provider is asked, idempotent on the merchant's reference. */
@Injectable()
export class PaymentRequestsService {
  constructor(
    @Inject(UNIT_OF_WORK) private readonly uow: UnitOfWork,
    @Inject(STORES) private readonly stores: DataStores,
    @Inject(PAYMENT_PROVIDER) private readonly provider: PaymentProvider,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    @Inject(RANDOM_SOURCE) private readonly random: RandomSource,
    @Inject(CALLBACK_URL_CHECK) private readonly checkCallbackUrl: CallbackUrlCheck,
    @Inject(EVENT_LOG) private readonly events: EventLog,
    @Inject(RATE_LIMITS) private readonly limits: RateLimits,
    @Inject(PAYMENT_SETTINGS) private readonly settings: PaymentSettings,
    private readonly progress: TransactionProgress,
  ) {}

  /**
   * Requests a payment. Idempotent on (merchant, reference): the same request again returns the stored transaction
   * (`created: false`); a different one under the same reference is a conflict. Once the payment under a reference
   * failed, the reference is free: a request under it is a new attempt, and every attempt is kept. Intent first: the transaction
   * (`requesting`), its callback token, its audit entry and a status check are written before the provider is asked,
   * so a payment the provider starts is never without a record; the provider's answer then moves it on. When the
   * answer is lost (unreachable provider, a failed write), the queued status check settles it.
   */
  async request(
    input: PaymentRequestInput,
    actor: Actor,
    options: IntentOptions = {},
  ): Promise<{ transaction: Transaction; created: boolean }> {
    const checked = Transaction.checkRequest(input);
    if (!options.noWebhook) this.checkCallbackUrl(checked.callBackUrl);
    const existing = await this.stores.transactions.findByMerchantReference(checked.merchantId, checked.reference);
    // A reference whose payment failed is free again: a retry is a new attempt, as the original service made it.
    if (existing && holdsReference(existing.status)) {
      if (!existing.matchesRequest(input)) throw referenceConflict();
      return { transaction: existing, created: false };
    }
    await this.limits.consume('payment-merchant', checked.merchantId);
    // Per merchant and phone: one merchant prompting a customer too often must not block that customer for others.
    await this.limits.consume('payment-phone', sha256Hex(`${checked.merchantId}:${checked.customerPhone}`));
    const token = randomToken(32, this.random);
    const now = this.clock.now();
    const intent = Transaction.intend(input, this.ids, now);
    let stored: Transaction;
    try {
      stored = await this.uow.run(async (ctx) => {
        const saved = await ctx.transactions.add(intent);
        await ctx.callbackTokens.add(callbackTokenHash(token), saved.id, now);
        await ctx.audit.append(eventEntriesFor('transaction', intent.pullEvents(), actor));
        await ctx.followUps.enqueue(
          QUEUES.reconcile,
          { transactionId: saved.id },
          { startAfterSeconds: this.settings.reconcileAfterSeconds },
        );
        await options.withIntent?.(ctx, saved);
        return saved;
      });
    } catch (error) {
      // Two identical requests raced: the loser answers like a repeat.
      if ((error as { code?: string }).code === 'TRANSACTION_REFERENCE_TAKEN') {
        const winner = await this.stores.transactions.findByMerchantReference(checked.merchantId, checked.reference);
        if (winner && holdsReference(winner.status) && winner.matchesRequest(input))
          return { transaction: winner, created: false };
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
          this.progress.applyProviderMessage(
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
}
