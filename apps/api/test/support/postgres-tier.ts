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

/**
 * A fresh database for one test file, empty or a copy of `template`; `drop` removes it (and any connection left to it).
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
        await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}
