import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { Clock } from '@transport/domain';
import type { AppConfig } from '../config';
import type { EventLog, JobWorkers, StaleRegistrations } from '../core/ports';
import { APP_CONFIG, CLOCK, EVENT_LOG, JOB_WORKERS, STALE_REGISTRATIONS } from '../core/tokens';
import { ACTIVATION_KEY_QUEUE } from './activation-texts';
import { DriversService } from './drivers.service';
import { scheduledJob } from '../core/scheduled-job';

/** The scheduled deletion of registrations nobody activated (UNACTIVATED_PURGE_CRON). */
export const STALE_REGISTRATIONS_QUEUE = 'drivers-stale-registrations';
/** Registrations deleted per transaction. */
const BATCH = 200;

/**
 * The drivers' background work: activation keys held by the quiet hours, sent when they end (one job per driver), and
 * the deletion of registrations not activated within UNACTIVATED_DRIVER_DAYS (pg-boss cron, once across all instances).
 */
@Injectable()
export class DriverWorkers implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(
    private readonly drivers: DriversService,
    @Inject(STALE_REGISTRATIONS) private readonly stale: StaleRegistrations,
    @Inject(JOB_WORKERS) private readonly workers: JobWorkers,
    @Inject(EVENT_LOG) private readonly events: EventLog,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.workers.start([
      {
        name: ACTIVATION_KEY_QUEUE,
        concurrency: 2,
        // stately with a key per driver: one queued held key per driver, however often it is asked for.
        options: { policy: 'stately', retryLimit: 3, retryDelay: 300, retryBackoff: true, expireInSeconds: 300 },
        handle: async (data: { driverId: string }) => this.sendHeldKey(data.driverId),
      },
      scheduledJob(
        STALE_REGISTRATIONS_QUEUE,
        this.config.messaging.purgeCron,
        async () => void (await this.deleteStaleRegistrations()),
      ),
    ]);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.workers.stop();
  }

  /** One held key's job. */
  async sendHeldKey(driverId: string): Promise<void> {
    const outcome = await this.drivers.sendHeldActivationKey(driverId);
    this.events.info('driver.held_activation_key', { outcome, driver: driverId });
  }

  /** Deletes every registration older than UNACTIVATED_DRIVER_DAYS that was never activated; answers how many. */
  async deleteStaleRegistrations(): Promise<number> {
    const now = this.clock.now();
    const before = new Date(now.getTime() - this.config.messaging.unactivatedDays * 86_400_000);
    let total = 0;
    for (;;) {
      const ids = await this.stale.deleteUnactivated(before, now, BATCH);
      total += ids.length;
      if (ids.length < BATCH) break;
    }
    if (total > 0) this.events.info('driver.stale_registrations_deleted', { deleted: total });
    return total;
  }
}
