import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createApp, type RunningApp } from '../../src/app';
import { loadConfig, type AppConfig } from '../../src/config';
import { copyMigratedEmbedded, migratedPostgresTemplate } from './migrated-templates';
import { createScratchDatabase, postgresTierAvailable } from './postgres-tier';

export type Tier = 'postgresql' | 'embedded';

/** The activation-key secret of every test app (ACTIVATION_KEY_SECRETS in production). */
export const TEST_ACTIVATION_SECRET = 'test-activation-key-secret-0123456789abcdef';

export const WORKSPACE_ROOT = resolve(__dirname, '../../../..');

/**
 * Where one test file's app keeps its data: a scratch PostgreSQL database, or a scratch embedded data directory, each a
 * copy of the run's migrated template (migrated-templates.ts).
 */
export interface TierStore {
  tier: Tier;
  config(overrides?: Partial<AppConfig>): AppConfig;
  dispose(): Promise<void>;
}

export async function openTierStore(tier: Tier): Promise<TierStore> {
  const loaded = loadConfig({ ...process.env, APP_ROOT: WORKSPACE_ROOT, DATABASE_URL: '', DATA_DIR: '' });
  // Suites pay from one test phone many times; the limits have their own tests (payment-limits.e2e.spec.ts).
  // Quiet logs and no global request limit: suites make many requests from one address; both have their own tests
  // (observability.e2e.spec.ts, http-hardening.e2e.spec.ts).
  const base: AppConfig = {
    ...loaded,
    logLevel: 'silent',
    metrics: { ...loaded.metrics, port: undefined },
    rateLimit: { perKeyPerMinute: 0, perAddressPerMinute: 0 },
    payments: { ...loaded.payments, perPhonePerHour: 1000 },
    // A fixed server secret: nothing is written beside the workspace's own data (its DATA_DIR is the demo's).
    // Tests register drivers without a key faster than any real instance admits them (REGISTRATION_RATE_PER_SECOND,
    // unit-tested in bulkhead.spec.ts); the concurrency bulkhead and the per-address limits stay as configured.
    activation: { ...loaded.activation, secrets: [TEST_ACTIVATION_SECRET], registrationRatePerSecond: 100_000 },
    // Suites on the system clock must not answer differently at night: no quiet hours unless a suite sets them (with a
    // clock of its own: reminders.e2e.spec.ts, sms-abuse.e2e.spec.ts).
    reminders: { ...loaded.reminders, quietHours: { fromHour: 0, untilHour: 0 } },
  };
  if (tier === 'postgresql') {
    const database = await createScratchDatabase('test', migratedPostgresTemplate());
    // A data directory of its own too (demo credentials, a made signing key): the default is the checkout's `.data`,
    // whose demo-credentials.json `npm start` and the dashboard's tests read, and tests running at once rewrote it.
    const dataDir = await mkdtemp(join(tmpdir(), 'transport-data-'));
    return {
      tier,
      config: (overrides = {}) => ({ ...base, databaseUrl: database.url, dataDir, databasePoolSize: 4, ...overrides }),
      dispose: async () => {
        await database.drop();
        await rm(dataDir, { recursive: true, force: true });
      },
    };
  }
  const dataDir = await mkdtemp(join(tmpdir(), 'transport-embedded-'));
  await copyMigratedEmbedded(dataDir);
  return {
    tier,
    config: (overrides = {}) => ({ ...base, databaseUrl: undefined, dataDir, databasePoolSize: 4, ...overrides }),
    dispose: () => rm(dataDir, { recursive: true, force: true }),
  };
}

export async function startTestApp(config: AppConfig): Promise<RunningApp> {
  return createApp(config);
}

/**
 * Declares the same suite once per database tier. The PostgreSQL tier is skipped (loudly, by the global setup) only
 * outside CI and only when PostgreSQL is unreachable.
 */
export function describeOnEachTier(name: string, suite: (tier: Tier) => void): void {
  const tiers: Tier[] = ['postgresql', 'embedded'];
  for (const tier of tiers) {
    const run = tier === 'postgresql' && !postgresTierAvailable() ? describe.skip : describe;
    run(`${name} [${tier}]`, () => suite(tier));
  }
}
