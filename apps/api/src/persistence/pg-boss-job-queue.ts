import { Logger } from '@nestjs/common';
import { fromPrisma, PgBoss, type Job, type Queue } from 'pg-boss';
import type pg from 'pg';
import type { FollowUpOptions } from '@transport/domain';
import type { Prisma } from '../generated/prisma/client';
import type { JobDefinition, JobWorkers, QueueDepth } from '../core/ports';

const logger = new Logger('Jobs');
const NIL_UUID = '00000000-0000-0000-0000-000000000000';

function jobOptions(options: FollowUpOptions) {
  return {
    ...(options.startAfterSeconds ? { startAfter: options.startAfterSeconds } : {}),
    ...(options.singletonKey ? { singletonKey: options.singletonKey } : {}),
    ...(options.group ? { group: { id: options.group } } : {}),
    ...(options.throttleSeconds ? { singletonSeconds: options.throttleSeconds } : {}),
  };
}

/**
 * Durable jobs on pg-boss, in the service's own database and through the service's own connection pool: a job is
 * enqueued in the same database transaction as the change that calls for it (so a crash can lose neither), pg-boss
 * hands each job to one worker at a time across every instance (SKIP LOCKED), and a job whose worker died (missed
 * heartbeats, or past its expiry) is retried. Sharing the pool keeps the embedded database on its single connection (see database.ts).
 */
export class PgBossJobQueue implements JobWorkers {
  private readonly boss: PgBoss;
  private started = false;

  constructor(
    pool: pg.Pool,
    private readonly options: {
      pollSeconds: number;
      workers: boolean;
      /** How often the queues' statistics are gathered and read back (10 s; tests make it shorter). */
      statsSeconds?: number;
    },
  ) {
    const statsSeconds = options.statsSeconds ?? 10;
    this.boss = new PgBoss({
      // The query result as pg gives it, as pg-boss's own pool does: a multi-statement text (its locked maintenance
      // commands) answers with an array of results, which pg-boss reads as such.
      db: { executeSql: (text, values) => pool.query(text, values) as Promise<{ rows: unknown[] }> },
      schema: 'pgboss',
      // Maintenance and cron run in whichever instance holds pg-boss's advisory lock at the time.
      supervise: options.workers,
      schedule: options.workers,
      migrate: true,
      // How often an instance looks for jobs whose worker died (missed heartbeats, expiry): a killed instance's
      // jobs are taken up by another within about heartbeat + this. The same pass counts each queue's ready jobs,
      // which every instance reads back as often (queueCacheIntervalSeconds) to know when a backlog waits (work()).
      monitorIntervalSeconds: statsSeconds,
      superviseIntervalSeconds: statsSeconds,
      queueCacheIntervalSeconds: statsSeconds,
    });
    this.boss.on('error', (error) => logger.error(`job queue: ${error.message}`));
    this.boss.on('warning', (warning: { message?: string }) =>
      logger.warn(`job queue: ${warning.message ?? JSON.stringify(warning)}`),
    );
  }

  get running(): boolean {
    return this.started;
  }

  async depth(): Promise<QueueDepth[]> {
    if (!this.started) return [];
    return (await this.boss.getQueues()).map((q) => ({
      name: q.name,
      ready: q.readyCount,
      deferred: q.deferredCount,
      active: q.activeCount,
      failed: q.failedCount,
    }));
  }

  /** Installs or upgrades pg-boss's own tables (schema pgboss, under its advisory lock) and declares the queues. */
  async start(queues: ReadonlyArray<JobDefinition>): Promise<void> {
    await this.boss.start();
    this.started = true;
    for (const queue of queues) {
      const existing = await this.boss.getQueue(queue.name);
      if (existing) {
        const { policy: _policy, ...changeable } = queue.options as Omit<Queue, 'name'>;
        await this.boss.updateQueue(queue.name, changeable);
      } else await this.boss.createQueue(queue.name, queue.options as Omit<Queue, 'name'>);
      // createQueue and updateQueue drop the queue from pg-boss's cache, and the first send would read it back on
      // another connection than the caller's transaction: on the embedded database (one session for all) that read
      // waits behind the open transaction until it times out. Read it back here, outside any transaction.
      await this.boss.getJobById(queue.name, NIL_UUID);
    }
    if (!this.options.workers) return;
    // Schedules are kept by pg-boss in its own tables; declaring them again from every instance is safe.
    for (const queue of queues) if (queue.cron) await this.boss.schedule(queue.name, queue.cron, {});
    for (const queue of queues) {
      await this.boss.work<object>(
        queue.name,
        {
          batchSize: 1,
          localConcurrency: queue.concurrency,
          pollingIntervalSeconds: this.options.pollSeconds,
          // While jobs are waiting, a worker that finished one fetches the next at once instead of after a poll
          // interval: without this a worker ran one job per poll, and a backlog (4,000 status checks falling due
          // together in the storm) drained at concurrency / JOB_POLL_SECONDS jobs a second. pg-boss leaves this mode
          // as soon as a fetch comes back empty, so an idle queue is polled as before.
          burstWhenReadyExceeds: 1,
          // In each instance, at most this many running jobs per group (one merchant's notifications). pg-boss's
          // in-memory count is strict; its database-wide count (groupConcurrency) let a third job through under
          // concurrent fetches, so a merchant could still take every slot of an instance.
          ...(queue.groupConcurrency
            ? { localGroupConcurrency: Math.min(queue.groupConcurrency, queue.concurrency) }
            : {}),
        },
        async ([job]: Job<object>[]) => {
          const limit = (queue.options as Omit<Queue, 'name'>).retryLimit ?? 2;
          await queue.handle(job.data as never, { id: job.id, retryCount: job.retryCount, retryLimit: limit });
        },
      );
    }
  }

  /** Enqueues inside the caller's Prisma transaction: the job exists exactly when the transaction commits. */
  async sendInTransaction(
    tx: Prisma.TransactionClient,
    queue: string,
    data: object,
    options: FollowUpOptions = {},
  ): Promise<void> {
    await this.boss.send(queue, data, { db: fromPrisma(tx), ...jobOptions(options) });
  }

  /** Enqueues on its own (outside any transaction). */
  async send(queue: string, data: object, options: FollowUpOptions = {}): Promise<void> {
    await this.boss.send(queue, data, jobOptions(options));
  }

  /** Stops taking jobs, waits for running ones (up to the timeout); unfinished ones are retried after expiry. */
  async stop(timeoutMs = 10_000): Promise<void> {
    if (!this.started) return;
    this.started = false;
    await this.boss.stop({ graceful: true, timeout: timeoutMs, close: false });
  }
}
