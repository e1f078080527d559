import { PrismaPg } from '@prisma/adapter-pg';
import { Logger } from '@nestjs/common';
import pg from 'pg';
import type { AppConfig } from '../config';
import { PrismaClient } from '../generated/prisma/client';
import { startEmbeddedPostgres, type EmbeddedPostgres } from './embedded-postgres';
import { migrateDeploy, migrationsApplied } from './migrate';
import { KeyChangeListener } from './key-changes';
import { createReadDb, type ReadDb } from './read-db';

export type DatabaseKind = 'postgresql' | 'embedded';

const logger = new Logger('Database');

/** The open database: one Prisma client over a `pg` pool, on real PostgreSQL or on the embedded server. */
export interface Database {
  readonly kind: DatabaseKind;
  readonly url: string;
  readonly prisma: PrismaClient;
  /** The pool under Prisma; the job queue runs its statements through it too (one pool, one connection budget). */
  readonly pool: pg.Pool;
  /** Kysely on the same pool: the typed SQL of the hot read paths (read-db.ts). */
  readonly reads: ReadDb;
  /** The embedded server, when this process serves it (absent on real PostgreSQL). */
  readonly embedded?: EmbeddedPostgres;
  /**
   * Notices of API key changes (key-changes.ts), on PostgreSQL only: the embedded server serves one connection at a
   * time, so there keys are read on every request.
   */
  readonly keyChanges?: KeyChangeListener;
  /** A real query: resolves when the database answers. */
  ping(): Promise<void>;
  close(): Promise<void>;
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
  try {
    if (config.migrateOnStart && !(await migrationsApplied(config.appRoot, url)))
      await migrateDeploy(config.appRoot, url);
    const pool = new pg.Pool({
      connectionString: url,
      max: poolSize,
      // A request waits this long for a connection, then fails (503-worthy) instead of queueing without end.
      connectionTimeoutMillis: config.databaseTimeouts.poolWaitMs,
      // A runaway statement is cancelled by the server. Not on the embedded server: it ignores the setting.
      ...(embedded ? {} : { statement_timeout: config.databaseTimeouts.statementMs }),
    });
    // An idle connection closed by the server (a restart, a failover, an administrator) must not crash the process:
    // the pool drops it and opens another on the next query; /health reports the database state meanwhile.
    pool.on('error', (error) => logger.warn(`database connection lost: ${error.message}`));
    const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
    await prisma.$connect();
    const keyChanges = embedded ? undefined : new KeyChangeListener(url);
    // Not listening yet (or the server refuses another connection) only means keys are read on every request.
    await keyChanges?.start();
    return {
      kind: embedded ? 'embedded' : 'postgresql',
      url,
      prisma,
      pool,
      reads: createReadDb(pool),
      embedded,
      keyChanges,
      async ping() {
        await prisma.$queryRaw`SELECT 1`;
      },
      async close() {
        await keyChanges?.close();
        await prisma.$disconnect();
        await pool.end();
        await embedded?.stop();
      },
    };
  } catch (error) {
    await embedded?.stop();
    throw error;
  }
}
