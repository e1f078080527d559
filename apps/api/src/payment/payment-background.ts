import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { reconcileTransaction, RetryLater, sweepStoredCallbacks } from '../application/payment-jobs';
import { QUEUES, type PaymentServices } from '../application/payment-use-cases';
import { APP_CONFIG, PAYMENT_SERVICES } from '../api/tokens';
import type { AppConfig } from '../config';
import { retriesFor, type QueueDefinition } from '../jobs/job-queue';
import { MerchantNotifier } from './merchant-notifier';

const logger = new Logger('PaymentJobs');

/** How often the callback recovery sweep runs (one sweep job at a time across all instances). */
const SWEEP_EVERY_SECONDS = 15;
/** Running jobs report in this often; pg-boss's minimum. */
const HEARTBEAT_SECONDS = 10;

/**
 * The payment pipeline's durable background work, started with the app and stopped before the database closes:
 * merchant notifications, reconciliation against the provider's status API, and the stored-callback recovery sweep.
 */
@Injectable()
export class PaymentBackgroundWork implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(
    @Inject(PAYMENT_SERVICES) private readonly deps: PaymentServices,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const c = this.config.jobs;
    const deps = this.deps;
    const notifier = new MerchantNotifier(deps.prisma, deps.clock, {
      timeoutMs: c.notifyTimeoutMs,
      allowPrivate: this.config.development,
      allowlist: this.config.callbackUrlAllowlist,
    });
    const expire = (seconds: number) => Math.max(30, Math.ceil(seconds));
    const queues: QueueDefinition<never>[] = [
      definition<{ notificationId: string }>({
        name: QUEUES.notify,
        concurrency: c.notifyConcurrency,
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
        handle: (data, attempt) => notifier.deliver(data.notificationId, attempt),
      }),
      definition<{ transactionId: string }>({
        name: QUEUES.reconcile,
        concurrency: 4,
        options: {
          retryLimit: retriesFor(c.reconcileForHours, c.reconcileRetrySeconds, c.reconcileMaxDelaySeconds),
          retryDelay: c.reconcileRetrySeconds,
          retryBackoff: true,
          retryDelayMax: c.reconcileMaxDelaySeconds,
          expireInSeconds: expire((this.config.provider.timeoutMs / 1000) * (this.config.provider.retries + 2)),
          retentionSeconds: (c.reconcileForHours + 24) * 3600,
          heartbeatSeconds: HEARTBEAT_SECONDS,
        },
        handle: (data, attempt) => reconcileTransaction(deps, data.transactionId, attempt),
      }),
      definition<Record<string, never>>({
        name: QUEUES.sweep,
        concurrency: 1,
        // stately: at most one queued and one running sweep, however many instances ask for one.
        options: { policy: 'stately', retryLimit: 3, retryDelay: 5, expireInSeconds: 300 },
        handle: async () => {
          const recovered = await sweepStoredCallbacks(deps, c.callbackSweepAfterSeconds);
          if (recovered > 0) logger.log(JSON.stringify({ event: 'payment.callback_sweep', recovered }));
          await this.deps.jobs.send(QUEUES.sweep, {}, { startAfterSeconds: SWEEP_EVERY_SECONDS, singletonKey: 'sweep' });
        },
      }),
    ];
    await this.deps.jobs.start(queues);
    if (c.workers) await this.deps.jobs.send(QUEUES.sweep, {}, { singletonKey: 'sweep' });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.deps.jobs.stop();
  }
}

function definition<T extends object>(queue: QueueDefinition<T>): QueueDefinition<never> {
  return {
    ...queue,
    handle: async (data, attempt) => {
      try {
        await queue.handle(data as T, attempt);
      } catch (error) {
        if (!(error instanceof RetryLater)) logger.warn(`${queue.name} job ${attempt.id} failed (attempt ${attempt.retryCount + 1}): ${(error as Error).message}`);
        throw error;
      }
    },
  } as QueueDefinition<never>;
}
