import pg from 'pg';
import { PgBossJobQueue } from '../src/persistence/pg-boss-job-queue';
import { describeOnPostgres } from './support/postgres-only';
import { createScratchDatabase } from './support/postgres-tier';
import { eventually } from './support/http-peers';

/**
 * A backlog drains at the speed of the work, not of the poll. pg-boss's workers wait a poll interval after every job
 * they run unless told to keep fetching while jobs are ready; without that, one worker ran one job per poll (0.5 s in
 * the storm, JOB_POLL_SECONDS by default 1 s), and 4,000 status checks that fell due together in the storm kept the
 * last real ones waiting a minute behind them.
 */
describeOnPostgres('job queue backlog', () => {
  jest.setTimeout(120_000);
  let database: Awaited<ReturnType<typeof createScratchDatabase>>;
  let pool: pg.Pool;
  let queue: PgBossJobQueue;

  beforeAll(async () => {
    database = await createScratchDatabase('jobs');
    pool = new pg.Pool({ connectionString: database.url, max: 4 });
  });

  afterAll(async () => {
    await queue?.stop();
    await pool?.end();
    await database?.drop();
  });

  it('runs a backlog of ready jobs back to back, one worker fetching again at once while jobs are ready', async () => {
    const POLL_SECONDS = 5;
    const JOBS = 40;
    // The queue's statistics (which tell a worker that a backlog is waiting) are refreshed every second here.
    queue = new PgBossJobQueue(pool, { pollSeconds: POLL_SECONDS, workers: true, statsSeconds: 1 });
    const done: string[] = [];
    await queue.start([
      {
        name: 'backlog',
        concurrency: 1,
        options: { retryLimit: 0 },
        handle: async (data: { n: number }) => void done.push(String(data.n)),
      },
    ]);
    for (let n = 0; n < JOBS; n++) await queue.send('backlog', { n });
    const started = Date.now();
    // One worker, one job per poll would take JOBS x POLL_SECONDS = 200 s; back to back, a few seconds once the
    // statistics have seen the backlog (they are refreshed every second here, every 10 s in the service).
    await eventually(async () => expect(done).toHaveLength(JOBS), 60_000, 200);
    const seconds = (Date.now() - started) / 1000;
    expect(seconds).toBeLessThan((JOBS * POLL_SECONDS) / 4);
    expect(new Set(done).size).toBe(JOBS);
  });
});
