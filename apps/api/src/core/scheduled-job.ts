import type { JobDefinition } from './ports';

/**
 * A job that runs on a schedule, once across all instances (pg-boss's cron): stately, so at most one is queued and
 * one running however many instances ask for one; retried twice, a minute apart; given up after `expireInSeconds`.
 * The clean-ups (ended sessions, stale registrations, expired keys, dead letters) and the reminders' scan share it.
 */
export function scheduledJob(
  name: string,
  cron: string,
  handle: () => Promise<void>,
  expireInSeconds = 900,
): JobDefinition {
  return {
    name,
    concurrency: 1,
    cron,
    options: { policy: 'stately', retryLimit: 2, retryDelay: 60, expireInSeconds },
    handle,
  };
}
