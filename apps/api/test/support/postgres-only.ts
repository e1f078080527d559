import { postgresTierAvailable } from './postgres-tier';

/** A suite that only means something on real PostgreSQL (query plans, true concurrency). */
export function describeOnPostgres(name: string, suite: () => void): void {
  // Skipped only when the global setup found PostgreSQL unreachable outside CI (it fails the run in CI).
  (postgresTierAvailable() ? describe : describe.skip)(`${name} [postgresql]`, suite);
}
