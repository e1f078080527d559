import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { JobWorkers } from '../core/ports';
import { JOB_WORKERS } from '../core/tokens';
import { scheduledJob } from '../core/scheduled-job';
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
      scheduledJob(SESSION_CLEANUP_QUEUE, '7 * * * *', async () => void (await this.people.deleteEndedSessions()), 300),
    ]);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.workers.stop();
  }
}
