import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** Where the PostgreSQL tier connects: DATABASE_URL if set, else the local server with trust authentication. */
export function postgresAdminUrl(): string {
  return process.env.DATABASE_URL || 'postgresql://postgres@127.0.0.1:5432/postgres';
}

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/** Set by the global setup: whether PostgreSQL answered when the run began (in CI it must, or the run fails there). */
export function postgresTierAvailable(): boolean {
  return process.env.TEST_POSTGRES_TIER !== 'unavailable';
}

/** How long a drop waits for the database's connections to close by themselves before it ends them. */
const CLOSING_GRACE_MS = 2_000;

/**
 * A fresh database for one test file, empty or a copy of `template`; `drop` removes it (and any connection left to it).
 * The drop first waits for connections that are closing to close: pg's `pool.end()` resolves once it has told its
 * connections to close, not once they have, and a connection ended by the forced drop meanwhile reached the file's pool
 * as an error (scratch-database.spec.ts). A connection still open after the grace period is ended.
 */
export async function createScratchDatabase(
  prefix = 'test',
  template?: string,
): Promise<{ url: string; name: string; drop(): Promise<void> }> {
  const name = `${prefix}_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: postgresAdminUrl() });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"${template ? ` TEMPLATE "${template}"` : ''}`);
  } finally {
    await admin.end();
  }
  return {
    name,
    url: withDatabase(postgresAdminUrl(), name),
    async drop() {
      const client = new pg.Client({ connectionString: postgresAdminUrl() });
      await client.connect();
      try {
        const until = Date.now() + CLOSING_GRACE_MS;
        const open = async () =>
          (await client.query('SELECT 1 FROM pg_stat_activity WHERE datname = $1 LIMIT 1', [name])).rowCount ?? 0;
        while ((await open()) > 0 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
        await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}
