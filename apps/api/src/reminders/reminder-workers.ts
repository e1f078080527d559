import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { AppConfig } from '../config';
import type { EventLog, JobWorkers } from '../core/ports';
import { APP_CONFIG, EVENT_LOG, JOB_WORKERS } from '../core/tokens';
import { REMINDER_QUEUES, RemindersService } from './reminders.service';
import { scheduledJob } from '../core/scheduled-job';

/**
 * The reminders' background work: a scan on a cron schedule (pg-boss runs it once across all instances; the unique
 * reminder rows make a second scan harmless anyway) and one send job per claimed reminder.
 */
@Injectable()
export class ReminderWorkers implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(
    private readonly reminders: RemindersService,
    @Inject(JOB_WORKERS) private readonly workers: JobWorkers,
    @Inject(EVENT_LOG) private readonly events: EventLog,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const c = this.config.reminders;
    await this.workers.start([
      scheduledJob(REMINDER_QUEUES.scan, c.scanCron, async () => {
        const { claimed, released } = await this.reminders.scan();
        if (claimed + released > 0) this.events.info('reminder.scan', { claimed, released });
      }),
      {
        name: REMINDER_QUEUES.send,
        concurrency: 2,
        // stately with a key per reminder: one queued send job per reminder, whoever queues it.
        options: {
          policy: 'stately',
          retryLimit: c.retries,
          retryDelay: c.retrySeconds,
          retryBackoff: true,
          expireInSeconds: Math.max(60, Math.ceil(((this.config.sms?.timeoutMs ?? 10_000) / 1000) * 3)),
          retentionSeconds: 7 * 86_400,
        },
        handle: async (data: { reminderId: string }, attempt) => {
          try {
            await this.reminders.deliver(data.reminderId, attempt);
          } catch (error) {
            const fields = { queue: REMINDER_QUEUES.send, job: attempt.id, data, error: (error as Error).message };
            if (attempt.retryCount >= attempt.retryLimit) this.events.error('job.gave_up', fields);
            else this.events.warn('job.failed', fields);
            throw error;
          }
        },
      },
    ]);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.workers.stop();
  }
}
