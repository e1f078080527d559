import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres } from '../../src/persistence/embedded-postgres';
import { migrateDeploy } from '../../src/persistence/migrate';
import { postgresAdminUrl, withDatabase } from './postgres-tier';

/**
 * Migrated copies made once per run by the global setup, so that each test file's scratch database starts from them
 * instead of applying every migration again (about 2 s on PostgreSQL and more on the embedded database, for each of
 * the suites' hundred-odd scratch databases). The copies are made by the same `prisma migrate deploy` as an operator's;
 * an app started on one finds every migration applied (migrationsApplied) and goes on. The migrations' own tests
 * (migrations.spec.ts, restore-drill.spec.ts) start from empty databases, as before.
 */
const PG_TEMPLATE = 'TEST_PG_TEMPLATE';
const EMBEDDED_TEMPLATE = 'TEST_EMBEDDED_TEMPLATE';

export async function makeMigratedTemplates(appRoot: string, postgresAvailable: boolean): Promise<void> {
  const suffix = `${process.pid}_${Date.now().toString(36)}`;
  const dataDir = await mkdtemp(join(tmpdir(), 'transport-template-'));
  const embedded = await startEmbeddedPostgres({ dataDir, maxConnections: 4 });
  try {
    await migrateDeploy(appRoot, embedded.url);
  } finally {
    await embedded.stop();
  }
  process.env[EMBEDDED_TEMPLATE] = dataDir;
  if (!postgresAvailable) return;
  const name = `template_${suffix}`;
  const admin = new pg.Client({ connectionString: postgresAdminUrl() });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  await migrateDeploy(appRoot, withDatabase(postgresAdminUrl(), name));
  process.env[PG_TEMPLATE] = name;
}

export async function dropMigratedTemplates(): Promise<void> {
  const dataDir = process.env[EMBEDDED_TEMPLATE];
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
  const name = process.env[PG_TEMPLATE];
  if (!name) return;
  const admin = new pg.Client({ connectionString: postgresAdminUrl() });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

/** The migrated PostgreSQL database to copy, if the global setup made one (a file run alone without it migrates). */
export function migratedPostgresTemplate(): string | undefined {
  return process.env[PG_TEMPLATE] || undefined;
}

/** Copies the migrated embedded data directory into `dataDir` (empty), if the global setup made one. */
export async function copyMigratedEmbedded(dataDir: string): Promise<void> {
  const template = process.env[EMBEDDED_TEMPLATE];
  if (template) await cp(template, dataDir, { recursive: true });
}
