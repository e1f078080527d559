import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import pg from 'pg';

// What the importer's end-to-end tests share: scratch databases on the test PostgreSQL, the built importer, and the
// report it writes.
export const ROOT = resolve(__dirname, '../../..');
export const IMPORT = join(ROOT, 'dist', 'tools', 'import', 'main.js');
export const API = join(ROOT, 'dist', 'apps', 'api', 'main.js');
export const SERVER = process.env.TEST_POSTGRES_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
export const TABLES = [
  'regions',
  'assemblies',
  'assembly_users',
  'transport_unions',
  'stations',
  'vehicle_owners',
  'drivers',
  'vehicles',
  'trips',
  'trip_services',
  'transactions',
];

export const dbUrl = (name: string) => Object.assign(new URL(SERVER), { pathname: `/${name}` }).toString();

export async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: SERVER });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export async function query<T extends pg.QueryResultRow>(
  url: string,
  sql: string,
  values: unknown[] = [],
): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql, values)).rows;
  } finally {
    await client.end();
  }
}

/** Every imported table's rows, hashed in id order: two databases with the same fingerprint hold the same data. */
export async function fingerprint(url: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const table of TABLES) {
    const [row] = await query<{ n: string; h: string }>(
      url,
      `SELECT count(*) AS n, md5(coalesce(string_agg(t::text, '|' ORDER BY t.id), '')) AS h FROM "${table}" t`,
    );
    out[table] = `${row.n}:${row.h}`;
  }
  return out;
}

/** A new, empty database with the migrations applied (the Prisma CLI, as operators run it); its URL. */
export async function migratedDatabase(name: string): Promise<string> {
  await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin(`CREATE DATABASE ${name}`);
  const url = dbUrl(name);
  const migrate = spawnSync(process.execPath, [join(ROOT, 'node_modules/prisma/build/index.js'), 'migrate', 'deploy'], {
    cwd: ROOT,
    env: { ...process.env, NODE_OPTIONS: '', DATABASE_URL: url },
    encoding: 'utf8',
  });
  if (migrate.status !== 0) throw new Error(`migrations failed:\n${migrate.stdout}${migrate.stderr}`);
  return url;
}

/**
 * The built API on a database (DATABASE_URL, or the embedded one in DATA_DIR; it applies the migrations as it starts);
 * resolves with its base URL.
 */
export async function startApi(settings: Record<string, string>): Promise<{ child: ChildProcess; base: string }> {
  const child = spawn(process.execPath, [API], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      // The repository's migrations, wherever Jest runs from (Nx runs it in tools/import).
      APP_ROOT: ROOT,
      PORT: '0',
      METRICS_PORT: 'off',
      SHUTDOWN_DELAY_MS: '0',
      SEED_DEMO: 'false',
      // No job workers: the payment backstop (every ten minutes) would reconcile the imported open transactions with
      // the provider, changing them under the tests that compare this database with a second import.
      JOB_WORKERS: 'false',
      RATE_LIMIT_PER_KEY_PER_MINUTE: '0',
      RATE_LIMIT_PER_ADDRESS_PER_MINUTE: '0',
      // The tests run the importer with spawnSync, which holds their event loop for a minute or more: a keep-alive
      // connection the API closed meanwhile (after 65 s by default) is still in fetch's pool, unseen, and the next
      // request on it fails with "other side closed". The API keeps idle connections longer than any import here.
      HTTP_KEEP_ALIVE_TIMEOUT_MS: '600000',
      ...settings,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d) => (output += String(d)));
  child.stderr!.on('data', (d) => (output += String(d)));
  const deadline = Date.now() + 60_000;
  for (;;) {
    const base = /"apiBaseUrl":"([^"]+)"/.exec(output)?.[1];
    if (base) return { child, base };
    if (Date.now() > deadline || child.exitCode !== null) {
      child.kill('SIGKILL');
      throw new Error(`the API did not start:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The built importer, run to its end with these arguments against this database (or none: the embedded one). */
export function spawnImport(args: string[], env: Record<string, string | undefined>) {
  return spawnSync(process.execPath, [IMPORT, ...args], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH, ...env },
    timeout: 240_000,
  });
}

/** The built importer against this database; its standard output, or an error with both outputs. */
export function runImport(args: string[], url: string): string {
  const result = spawnImport(args, { DATABASE_URL: url });
  if (result.status !== 0) throw new Error(`import failed (${result.status}):\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

/** Report lines (JSON) of a kind. */
export const reportLines = (path: string) =>
  readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
