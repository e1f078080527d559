import request from 'supertest';
import type { RunningApp } from '../../src/app';
import type { AppConfig } from '../../src/config';
import { loadApiFixture, type ApiFixture } from './api-fixtures';
import { openTierStore, startTestApp, type Tier, type TierStore } from './test-app';

export interface AppOnTierOptions {
  /** The app's configuration over the tests' defaults: the settings that change, or a function of the defaults. */
  config?: Partial<AppConfig> | ((defaults: AppConfig) => AppConfig);
  /** Load the API fixture (keys, owners, vehicles, drivers, merchants: api-fixtures.ts) once the app runs. */
  fixture?: boolean;
}

/** What appOnTier gives a test file. */
export interface AppOnTier {
  store: TierStore;
  running: RunningApp;
  /** A request to the app's HTTP server (supertest). */
  http: () => ReturnType<typeof request>;
}

/**
 * One test file's app, set up and torn down the same way everywhere: a scratch store on the tier, the app started on
 * it, and (with `fixture: true`) the API fixture loaded, before the suite's first test; the app closed and the store
 * dropped after its last. The objects it answers are filled in by that beforeAll: read them in tests and in hooks
 * declared after the call (which run after it), never while the file loads.
 */
export function appOnTier(
  tier: Tier,
  options: AppOnTierOptions & { fixture: true },
): AppOnTier & { fixture: ApiFixture };
export function appOnTier(tier: Tier, options?: AppOnTierOptions & { fixture?: false }): AppOnTier;
export function appOnTier(tier: Tier, options: AppOnTierOptions = {}): AppOnTier & { fixture?: ApiFixture } {
  const store = {} as TierStore;
  const running = {} as RunningApp;
  const fixture = {} as ApiFixture;
  let opened: TierStore | undefined;
  let started: RunningApp | undefined;
  beforeAll(async () => {
    opened = await openTierStore(tier);
    Object.assign(store, opened);
    const defaults = opened.config();
    const { config } = options;
    started = await startTestApp(typeof config === 'function' ? config(defaults) : { ...defaults, ...config });
    Object.assign(running, started);
    if (options.fixture) Object.assign(fixture, await loadApiFixture(started.database));
  });
  afterAll(async () => {
    await started?.close();
    await opened?.dispose();
  });
  return {
    store,
    running,
    http: () => request(running.app.getHttpServer()),
    ...(options.fixture && { fixture }),
  };
}
