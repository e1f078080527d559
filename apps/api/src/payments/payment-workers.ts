import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { DataStores } from '@transport/domain';
import type { AppConfig } from '../config';
import type { EventLog, JobDefinition, JobWorkers } from '../core/ports';
import { APP_CONFIG, EVENT_LOG, JOB_WORKERS, STORES } from '../core/tokens';
import { retriesFor } from './retry-window';
import { MerchantNotificationsService } from './merchant-notifications.service';
import { PaymentCallbacksService } from './payment-callbacks.service';
import { PaymentReconciliationService } from './payment-reconciliation.service';
import { QUEUES, RetryLater, type AttemptInfo } from './payment-settings';

/** How often the callback recovery sweep runs (one sweep job at a time across all instances). */
const SWEEP_EVERY_SECONDS = 15;
/** Running jobs report in this often; pg-boss's minimum. */
const HEARTBEAT_SECONDS = 10;

/**
 * The payment pipeline's durable background work, started with the app and stopped before the database closes:
 * merchant notifications, reconciliation against the provider's status API, and the stored-callback recovery sweep.
 */
@Injectable()
export class PaymentWorkers implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(
    private readonly notifications: MerchantNotificationsService,
    private readonly reconciliation: PaymentReconciliationService,
    private readonly callbacks: PaymentCallbacksService,
    @Inject(JOB_WORKERS) private readonly workers: JobWorkers,
    @Inject(STORES) private readonly stores: DataStores,
    @Inject(EVENT_LOG) private readonly events: EventLog,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const c = this.config.jobs;
    const expire = (seconds: number) => Math.max(30, Math.ceil(seconds));
    const queues: JobDefinition[] = [
      this.definition<{ notificationId: string }>({
        name: QUEUES.notify,
        concurrency: c.notifyConcurrency,
        // One merchant's slow or dead endpoint holds at most this many of each instance's slots.
        groupConcurrency: c.notifyPerMerchant,
        options: {
          retryLimit: retriesFor(c.notifyForHours, c.notifyRetrySeconds, c.notifyMaxDelaySeconds),
          retryDelay: c.notifyRetrySeconds,
          retryBackoff: true,
          retryDelayMax: c.notifyMaxDelaySeconds,
          expireInSeconds: expire((c.notifyTimeoutMs / 1000) * 3),
          retentionSeconds: (c.notifyForHours + 24) * 3600,
          // A job whose instance died (kill -9) is taken up again by another after about this long.
          heartbeatSeconds: HEARTBEAT_SECONDS,
        },
        handle: (data, attempt) => this.notifications.deliverNotification(data.notificationId, attempt),
      }),
      this.definition<{ transactionId: string }>({
        name: QUEUES.reconcile,
        concurrency: c.reconcileConcurrency,
        options: {
          retryLimit: retriesFor(c.reconcileForHours, c.reconcileRetrySeconds, c.reconcileMaxDelaySeconds),
          retryDelay: c.reconcileRetrySeconds,
          retryBackoff: true,
          retryDelayMax: c.reconcileMaxDelaySeconds,
          expireInSeconds: expire((this.config.provider.timeoutMs / 1000) * (this.config.provider.retries + 2)),
          retentionSeconds: (c.reconcileForHours + 24) * 3600,
          heartbeatSeconds: HEARTBEAT_SECONDS,
        },
        handle: (data, attempt) => this.reconciliation.reconcile(data.transactionId, attempt),
      }),
      this.definition<Record<string, never>>({
        name: QUEUES.sweep,
        concurrency: 1,
        // Each sweep queues the next one 15 s later; a sweep that fails for good would end that chain, so pg-boss's
        // scheduler also starts one every minute: the sweep cannot die.
        cron: '* * * * *',
        // stately: at most one queued and one running sweep, however many instances ask for one.
        options: { policy: 'stately', retryLimit: 3, retryDelay: 5, expireInSeconds: 300 },
        handle: async () => {
          const recovered = await this.callbacks.sweepStoredCallbacks(c.callbackSweepAfterSeconds);
          if (recovered > 0) this.events.info('payment.callback_sweep', { recovered });
          await this.stores.followUps.enqueue(
            QUEUES.sweep,
            {},
            { startAfterSeconds: SWEEP_EVERY_SECONDS, singletonKey: 'sweep' },
          );
        },
      }),
      this.definition<Record<string, never>>({
        name: QUEUES.backstop,
        concurrency: 1,
        // Every ten minutes, once across all instances: open transactions whose follow-up was lost are asked about.
        cron: '*/10 * * * *',
        options: { policy: 'stately', retryLimit: 2, retryDelay: 30, expireInSeconds: 300 },
        handle: async () => void (await this.reconciliation.backstop()),
      }),
      this.definition<Record<string, never>>({
        name: QUEUES.pruneDeadLetters,
        concurrency: 1,
        // Hourly, once across all instances: dead letters past DEAD_LETTER_RETENTION_DAYS are deleted.
        cron: '23 * * * *',
        options: { policy: 'stately', retryLimit: 2, retryDelay: 60, expireInSeconds: 300 },
        handle: async () => void (await this.callbacks.pruneDeadLetters()),
      }),
    ];
    await this.workers.start(queues);
    if (c.workers) await this.stores.followUps.enqueue(QUEUES.sweep, {}, { singletonKey: 'sweep' });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.workers.stop();
  }

  /** A failed attempt is logged (unless it only asks to be retried later) and rethrown so the queue retries it. */
  private definition<T extends object>(queue: {
    name: string;
    concurrency: number;
    groupConcurrency?: number;
    cron?: string;
    options: Record<string, unknown>;
    handle: (data: T, attempt: AttemptInfo & { id: string }) => Promise<void>;
  }): JobDefinition {
    return {
      ...queue,
      handle: async (data: never, attempt) => {
        try {
          await queue.handle(data as T, attempt);
        } catch (error) {
          const fields = {
            queue: queue.name,
            job: attempt.id,
            attempt: attempt.retryCount + 1,
            data,
            error: (error as Error).message,
          };
          // The last attempt failed: nothing retries it any more, so an operator must hear of it.
          if (attempt.retryCount >= attempt.retryLimit) this.events.error('job.gave_up', fields);
          else if (!(error instanceof RetryLater)) this.events.warn('job.failed', fields);
          throw error;
        }
      },
    };
  }
}
