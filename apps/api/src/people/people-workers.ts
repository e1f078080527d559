import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { JobWorkers } from '../core/ports';
import { JOB_WORKERS } from '../core/tokens';
import { PeopleService } from './people.service';

/** The queue of the scheduled deletion of ended dashboard sessions. */
export const SESSION_CLEANUP_QUEUE = 'people-session-cleanup';

/**
 * Ended sessions (past their end, or idle too long) authenticate nobody, but their rows would stay forever: a
 * scheduled job deletes them every hour, once across all instances (pg-boss's cron, as the payment jobs).
 */
@Injectable()
export class PeopleWorkers implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(
    private readonly people: PeopleService,
    @Inject(JOB_WORKERS) private readonly workers: JobWorkers,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.workers.start([
      {
        name: SESSION_CLEANUP_QUEUE,
        concurrency: 1,
        cron: '7 * * * *',
        // stately: at most one queued and one running cleanup, however many instances ask for one.
        options: { policy: 'stately', retryLimit: 2, retryDelay: 60, expireInSeconds: 300 },
        handle: async () => void (await this.people.deleteEndedSessions()),
      },
    ]);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.workers.stop();
  }
}
