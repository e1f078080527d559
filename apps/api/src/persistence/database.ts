import { PrismaPg } from '@prisma/adapter-pg';
import { Logger } from '@nestjs/common';
import pg from 'pg';
import type { AppConfig } from '../config';
import { PrismaClient } from '../generated/prisma/client';
import { startEmbeddedPostgres, type EmbeddedPostgres } from './embedded-postgres';
import { committedMigrations, migrateDeploy, migrationsApplied, pendingMigrations } from './migrate';
import { KeyChangeListener } from './key-changes';
import { runOutsideTransactionsOn } from './prisma-executor';
import { settingsClient, type SettingsMode } from './session-settings';

export type DatabaseKind = 'postgresql' | 'embedded';

const logger = new Logger('Database');

/** The open database: one Prisma client over a `pg` pool, on real PostgreSQL or on the embedded server. */
export interface Database {
  readonly kind: DatabaseKind;
  readonly url: string;
  /** The app's one client: Prisma's models, and Kysely on it for lists and searches (prisma-executor.ts, `sqlOn`). */
  readonly prisma: PrismaClient;
  /** The pool under Prisma; the job queue runs its statements through it too (one pool, one connection budget). */
  readonly pool: pg.Pool;
  /**
   * List pages, searches and exports: on the read replica when DATABASE_READ_URL is set (they may lag the primary by
   * the replication delay), else the same client as `prisma`. A record's own page, a change's answer, keys, limits,
   * payment status checks and jobs always read the primary.
   */
  readonly lists: PrismaClient;
  /** The replica's pool, when there is one. */
  readonly replicaPool?: pg.Pool;
  /** How per-statement settings reach the server on PostgreSQL (session-settings.ts). */
  readonly settings?: SettingsMode;
  /** The embedded server, when this process serves it (absent on real PostgreSQL). */
  readonly embedded?: EmbeddedPostgres;
  /**
   * Notices of API key changes (key-changes.ts), on PostgreSQL only: the embedded server serves one connection at a
   * time, so there keys are read on every request.
   */
  readonly keyChanges?: KeyChangeListener;
  /** A real query: resolves when the database answers. */
  ping(): Promise<void>;
  /** The migrations of this release the database has not applied (readiness fails while there are any). */
  pendingMigrations(): Promise<string[]>;
  /** With a replica: how far its replay is behind, in seconds (0 when it has replayed all it received). */
  replicaLagSeconds?(): Promise<number>;
  close(): Promise<void>;
}

/** The replica's delay: the age of its last replayed transaction, unless it has replayed everything it received. */
const REPLICA_LAG = `SELECT CASE WHEN pg_last_wal_receive_lsn() IS NULL OR pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn()
  THEN 0 ELSE COALESCE(EXTRACT(EPOCH FROM now() - pg_last_xact_replay_timestamp()), 0) END::float8 AS lag`;

/** The app's pool on one URL: settings applied as `settings` says, never as startup parameters. */
function openPool(config: AppConfig, url: string, size: number, settings?: SettingsMode): pg.Pool {
  const embedded = settings === undefined;
  const pool = new pg.Pool({
    connectionString: url,
    max: size,
    // A request waits this long for a connection, then fails (503-worthy) instead of queueing without end.
    connectionTimeoutMillis: config.databaseTimeouts.poolWaitMs,
    // A runaway statement is cancelled by the server. Not on the embedded server: it ignores the setting.
    ...(settings ? { Client: settingsClient(settings, config.databaseTimeouts.statementMs) } : {}),
    // The embedded server keeps one PostgreSQL session for every connection it ever accepts, so the prepared
    // statements a dropped connection named (the rate limiter's, for one) outlive it: the connection that replaces
    // it does not know them and would fail with "prepared statement ... already exists" on each, for good. A new
    // connection there starts by forgetting them (the pool awaits this before it hands the connection out).
    ...(embedded && { onConnect: (client: pg.ClientBase) => client.query('DEALLOCATE ALL').then(() => undefined) }),
  });
  // An idle connection closed by the server (a restart, a failover, an administrator) must not crash the process:
  // the pool drops it and opens another on the next query; /health reports the database state meanwhile.
  pool.on('error', (error) => logger.warn(`database connection lost: ${error.message}`));
  return pool;
}

export async function openDatabase(config: AppConfig): Promise<Database> {
  let embedded: EmbeddedPostgres | undefined;
  let url = config.databaseUrl;
  // The embedded server shares one PostgreSQL session between all its connections and interleaves their protocol
  // messages; two connections using the extended query protocol at once clobber each other's unnamed portals
  // ("portal does not exist", rows of the wrong query). PGlite runs one query at a time anyway, so the app uses a
  // single connection there, and loses no throughput.
  const poolSize = url ? config.databasePoolSize : 1;
  if (!url) {
    // Room for the app's connection plus an operator's Prisma CLI.
    embedded = await startEmbeddedPostgres({ dataDir: config.dataDir, maxConnections: 3, advertise: true });
    url = embedded.url;
  }
  // Migrations (their advisory lock is a session's) and LISTEN need the server's own session: the direct URL.
  const direct = config.databaseDirectUrl ?? url;
  // Listening first: whether its probe notice comes back through DATABASE_URL tells whether a pooler in transaction
  // mode is in between. Not listening (or the server refusing another connection) only means keys are read more often.
  const keyChanges = embedded ? undefined : new KeyChangeListener(direct, { probeUrl: url });
  const opened: Array<{ end(): Promise<void> }> = [];
  try {
    await keyChanges?.start();
    const pooled = Boolean(config.databaseDirectUrl && config.databaseDirectUrl !== url) || keyChanges?.unheard;
    if (config.migrateOnStart && !(await migrationsApplied(config.appRoot, direct))) {
      if (pooled && !config.databaseDirectUrl)
        throw new Error(
          'Migrations are pending, and DATABASE_URL goes through a connection pooler in transaction mode, where ' +
            "Prisma's migration lock does not keep two instances apart: set DATABASE_DIRECT_URL to the database " +
            'without the pooler (or apply them with `prisma migrate deploy` there and set MIGRATE_ON_START=false).',
        );
      await migrateDeploy(config.appRoot, direct);
    }
    const committed = await committedMigrations(config.appRoot);
    const settings: SettingsMode | undefined = embedded ? undefined : pooled ? 'transaction' : 'session';
    if (settings === 'transaction')
      logger.log('DATABASE_URL goes through a pooler: each statement runs in a transaction with SET LOCAL settings');
    const pool = openPool(config, url, poolSize, settings);
    opened.push(pool);
    const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
    await prisma.$connect();
    runOutsideTransactionsOn(prisma, pool);
    opened.push({ end: () => prisma.$disconnect() });
    let lists = prisma;
    let replicaPool: pg.Pool | undefined;
    if (config.databaseReadUrl && !embedded) {
      replicaPool = openPool(config, config.databaseReadUrl, poolSize, settings);
      opened.push(replicaPool);
      const replica = new PrismaClient({ adapter: new PrismaPg(replicaPool) });
      await replica.$connect();
      runOutsideTransactionsOn(replica, replicaPool);
      opened.push({ end: () => replica.$disconnect() });
      lists = replica;
    }
    // Once the schema has caught up it stays so (an applied migration is never unapplied): no query per probe then.
    let current = false;
    const pending = async (): Promise<string[]> => {
      if (current) return [];
      const names = await pendingMigrations(committed, pool);
      current = names.length === 0;
      return names;
    };
    return {
      pendingMigrations: pending,
      kind: embedded ? 'embedded' : 'postgresql',
      url,
      prisma,
      pool,
      lists,
      replicaPool,
      settings,
      embedded,
      keyChanges,
      async ping() {
        await prisma.$queryRaw`SELECT 1`;
        // And through the pool the way the rate limiter reaches it (a named prepared statement), so a pool that hands
        // out connections unable to serve it reads as down, not ready.
        await pool.query({ name: 'health:ping', text: 'SELECT 1' });
      },
      ...(replicaPool && {
        async replicaLagSeconds() {
          const { rows } = await (replicaPool as pg.Pool).query<{ lag: number }>(REPLICA_LAG);
          return Number(rows[0].lag);
        },
      }),
      async close() {
        await keyChanges?.close();
        for (const resource of opened.reverse()) await resource.end().catch(() => undefined);
        await embedded?.stop();
      },
    };
  } catch (error) {
    await keyChanges?.close();
    for (const resource of opened.reverse()) await resource.end().catch(() => undefined);
    await embedded?.stop();
    throw error;
  }
}
