import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { EventLog, JobWorkers } from '../core/ports';
import { scheduledJob } from '../core/scheduled-job';
import { EVENT_LOG, JOB_WORKERS } from '../core/tokens';
import { NoticeDecisionsService } from './notice-decisions.service';

/** The queue of the scheduled job that marks notices overdue. */
export const NOTICE_OVERDUE_QUEUE = 'notice-overdue';
/** Hourly: a notice is due by a time of day, and the surcharge shows on its page from the due time anyway. */
export const NOTICE_OVERDUE_CRON = '7 * * * *';

/**
 * Marks notices past their due time overdue, on a cron schedule that pg-boss runs once across all instances (a stately
 * job); the marking itself is idempotent (a notice already overdue, paid or contested is left as it is).
 */
@Injectable()
export class NoticeOverdueWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(
    private readonly decisions: NoticeDecisionsService,
    @Inject(JOB_WORKERS) private readonly workers: JobWorkers,
    @Inject(EVENT_LOG) private readonly events: EventLog,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.workers.start([
      scheduledJob(NOTICE_OVERDUE_QUEUE, NOTICE_OVERDUE_CRON, async () => {
        const marked = await this.decisions.markOverdue();
        if (marked > 0) this.events.info('notice.overdue', { marked });
      }),
    ]);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.workers.stop();
  }
}
