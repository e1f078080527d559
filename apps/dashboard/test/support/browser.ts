import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import pg from 'pg';
import type { Locator, Page } from 'playwright-core';
// The API's own way of starting its built service (its V8 flags, its "listening" line): test support shared on purpose,
// so the dashboard is tested against the service exactly as the API's deployment tests start it.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { startService, type ServiceProcess } from '../../../api/test/support/service-process';

// What the dashboard's browser tests share: the built API started on a scratch PostgreSQL database with the demo
// data, Debian's Chromium flags, and an axe-core scan.

export const ROOT = resolve(__dirname, '../../../..');
export const API = join(ROOT, 'dist', 'apps', 'api', 'main.js');
export const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
export const SHOTS = process.env.UPDATE_SCREENSHOTS
  ? join(ROOT, 'docs', 'screenshots')
  : join(ROOT, 'dist', 'screenshots');
export const POSTGRES = process.env.TEST_POSTGRES_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
];

/** The demo API key of the approver (machines' access, for setting data up). */
export interface Keys {
  assembly: string;
}

export interface Demo {
  inspector: string;
  approver: string;
  password: string;
}

export async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: POSTGRES });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** The built service on a new database with the demo data; its dashboard URL and the demo sign-ins it printed. */
export interface Running {
  service: ServiceProcess;
  url: string;
  demo: Demo;
  keys: Keys;
  /** Stops the service and drops its database. */
  stop(): Promise<void>;
}

export async function startDemo(name: string): Promise<Running> {
  // One database per suite and run (two runs on one machine do not meet).
  const database = `${name}_${process.pid}`;
  await admin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  await admin(`CREATE DATABASE ${database}`);
  const service = await startService(API, {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      APP_ROOT: ROOT,
      DATABASE_URL: POSTGRES.replace(/\/[^/]*$/, `/${database}`),
      PORT: '0',
      METRICS_PORT: 'off',
      SHUTDOWN_DELAY_MS: '0',
      SEED_DEMO: 'true',
    },
  });
  const line = service
    .output()
    .split('\n')
    .find((l) => l.includes('"apiBaseUrl"'));
  const logged = JSON.parse(line ?? '{}') as { dashboard: string; demoCredentials: Keys & { dashboard: Demo } };
  // localhost (not 127.0.0.1): the browser's secure context for plain http, where the Secure session cookie is kept.
  return {
    service,
    url: logged.dashboard.replace('127.0.0.1', 'localhost'),
    demo: logged.demoCredentials.dashboard,
    keys: { assembly: logged.demoCredentials.assembly },
    async stop() {
      service.child.kill('SIGTERM');
      await service.exited;
      await admin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    },
  };
}

/** axe-core's WCAG 2.1 A/AA and best-practice rules on the page as it is now: no serious or critical violation. */
export async function expectAccessible(page: Page, screen: string): Promise<void> {
  await page.evaluate(AXE);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(): Promise<{ violations: unknown[] }> } }).axe;
    const result = await axe.run();
    return result.violations as Array<{ id: string; impact: string; nodes: Array<{ target: string[] }> }>;
  });
  const serious = violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${screen}: ${v.id} (${v.impact}) at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(serious).toEqual([]);
}

/** Waits (up to 10 s) until the check holds, as the page re-renders after each answer. */
export async function eventually(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`still not true after 10 s: ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Waits until the element's text includes `text`. */
export async function hasText(locator: Locator, text: string): Promise<void> {
  let seen = '';
  await eventually(async () => {
    seen = (await locator.first().textContent()) ?? '';
    return seen.includes(text);
  }, `"${text}" in "${seen}"`).catch(() => {
    throw new Error(`expected "${text}" in: ${seen}`);
  });
}
