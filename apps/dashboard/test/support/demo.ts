import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { INSPECTION_ITEMS } from '@transport/domain';
import pg from 'pg';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
// The API's own way of starting its built service (its V8 flags, its "listening" line): test support shared on purpose,
// so the dashboard is tested against the service exactly as the API's deployment tests start it.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { startService, type ServiceProcess } from '../../../api/test/support/service-process';

// What every browser test of the dashboard shares: the built service on a scratch database with the demo data, a
// Chromium, an axe-core scan, and waits that poll the page as it re-renders.

export const ROOT = resolve(__dirname, '../../../..');
const API = join(ROOT, 'dist', 'apps', 'api', 'main.js');
const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
/**
 * Where the tests' screenshots go: a git-ignored artefacts folder (CI keeps it), or docs/screenshots
 * (docs/dashboard.md's) with UPDATE_SCREENSHOTS=1.
 */
export const SHOTS = process.env.UPDATE_SCREENSHOTS
  ? join(ROOT, 'docs', 'screenshots')
  : join(ROOT, 'dist', 'artefacts', 'screenshots');
const POSTGRES = process.env.TEST_POSTGRES_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
];

/** A desk and a phone, as the staff use them. */
export const SIZES = [
  { name: 'desktop', viewport: { width: 1366, height: 800 }, isMobile: false },
  { name: 'phone', viewport: { width: 390, height: 844 }, isMobile: true },
] as const;

/** The demo API key of the assembly (machines' access, for setting data up). */
export interface Keys {
  assembly: string;
  admin: string;
}

export interface Demo {
  inspector: string;
  approver: string;
  password: string;
}

async function admin(sql: string): Promise<void> {
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
  /** The scratch data directory the service was given (never the repository's `.data`). */
  dataDir: string;
  /** Runs one query on the service's database (reading what the service sent: its outbox of messages). */
  query(sql: string, values?: unknown[]): Promise<Array<Record<string, unknown>>>;
  /** Stops the service and drops its database. */
  stop(): Promise<void>;
}

export async function startDemo(name: string, env: Record<string, string> = {}): Promise<Running> {
  // One database per suite and run (two runs on one machine do not meet).
  const database = `${name}_${process.pid}`;
  await admin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  await admin(`CREATE DATABASE ${database}`);
  // The demo credentials file goes to a scratch data directory: the repository's `.data` belongs to `npm start`, whose
  // printed password must keep working after a test run.
  const dataDir = mkdtempSync(join(tmpdir(), `${name}-`));
  const databaseUrl = POSTGRES.replace(/\/[^/]*$/, `/${database}`);
  const service = await startService(API, {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      APP_ROOT: ROOT,
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      PORT: '0',
      METRICS_PORT: 'off',
      SHUTDOWN_DELAY_MS: '0',
      SEED_DEMO: 'true',
      // The suites run on the machine's clock: staff's activation keys must not wait for the morning at night.
      REMINDER_QUIET_HOURS: 'none',
      ...env,
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
    keys: { assembly: logged.demoCredentials.assembly, admin: logged.demoCredentials.admin },
    dataDir,
    async query(sql, values) {
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      try {
        return (await client.query(sql, values)).rows;
      } finally {
        await client.end();
      }
    },
    async stop() {
      service.child.kill('SIGTERM');
      await service.exited;
      await admin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export function launch(): Promise<Browser> {
  return chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_FLAGS });
}

/** axe-core's WCAG 2.1 A/AA and best-practice rules on the page as it is now: no violation at all, of any impact. */
export async function expectAccessible(page: Page, screen: string): Promise<void> {
  await page.evaluate(AXE);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(): Promise<{ violations: unknown[] }> } }).axe;
    const result = await axe.run();
    return result.violations as Array<{ id: string; impact: string; nodes: Array<{ target: string[] }> }>;
  });
  const found = violations.map(
    (v) => `${screen}: ${v.id} (${v.impact}) at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
  );
  expect(found).toEqual([]);
}

/** Waits (up to 10 s) until the check holds, as the page re-renders after each answer. */
export async function eventually(check: () => Promise<boolean>, what: string, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`still not true after ${ms / 1000} s: ${what}`);
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

export const visible = (locator: Locator) => locator.first().waitFor({ state: 'visible' });

/**
 * Ticks every item of the inspection checklist, once all of them are on screen: the form shows only after the phone's
 * kept checklist has been read (IndexedDB), a moment after the screen's heading, and a list of the boxes taken before
 * then is empty (offline.e2e recorded an inspection with nothing ticked that way).
 */
export async function tickEveryItem(page: Page): Promise<void> {
  const boxes = page.locator('fieldset.checklist input[type=checkbox]');
  await eventually(async () => (await boxes.count()) === INSPECTION_ITEMS.length, 'the whole checklist on screen');
  for (const item of await boxes.all()) await item.check();
}

/** Signs a demo person in from the sign-in screen and waits for the work queues. */
export async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
  await page.getByLabel('Email address').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { level: 1, name: 'Work queues' }).waitFor();
}

/** A vehicle's id, through the API as the signed-in user (the session cookie goes with page.request). */
export async function vehicleId(page: Page, url: string, plate: string): Promise<string> {
  const answer = await page.request.get(
    new URL(`/vehicles/all?registrationNumber=${encodeURIComponent(plate)}`, url).toString(),
  );
  return ((await answer.json()) as Array<{ _id: string }>)[0]._id;
}
