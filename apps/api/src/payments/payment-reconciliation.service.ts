import { Inject, Injectable } from '@nestjs/common';
import { isOpen, type Clock, type DataStores, type PaymentProvider, type UnitOfWork } from '@transport/domain';
import type { EventLog } from '../core/ports';
import { CLOCK, EVENT_LOG, PAYMENT_PROVIDER, STORES, UNIT_OF_WORK } from '../core/tokens';
import { PAYMENT_SETTINGS, QUEUES, RetryLater, type AttemptInfo, type PaymentSettings } from './payment-settings';
import { retryOnConcurrentUpdate, TransactionProgress } from './transaction-progress';

/** Reconciliation against the provider's status API, and the backstop that asks again about forgotten transactions. */
@Injectable()
export class PaymentReconciliationService {
  constructor(
    @Inject(UNIT_OF_WORK) private readonly uow: UnitOfWork,
    @Inject(STORES) private readonly stores: DataStores,
    @Inject(PAYMENT_PROVIDER) private readonly provider: PaymentProvider,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(EVENT_LOG) private readonly events: EventLog,
    @Inject(PAYMENT_SETTINGS) private readonly settings: PaymentSettings,
    private readonly progress: TransactionProgress,
  ) {}

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
        this.progress.applyProviderMessage(
          ctx,
          transactionId,
          async (t) =>
            t.applyStatusCheck(
              answer,
              this.clock.now(),
              this.settings.unpaidFinalAfterSeconds * 1000,
              // The callbacks kept for confirmation: the one the provider's answer confirms becomes callBackInfo.
              await this.progress.waitingCallbacks(ctx, transactionId),
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
}
