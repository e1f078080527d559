import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import type { AppConfig } from '../config';
import { PrismaClient } from '../generated/prisma/client';
import { startEmbeddedPostgres, type EmbeddedPostgres } from './embedded-postgres';
import { migrateDeploy } from './migrate';

export type DatabaseKind = 'postgresql' | 'embedded';

/** The open database: one Prisma client over a `pg` pool, on real PostgreSQL or on the embedded server. */
export interface Database {
  readonly kind: DatabaseKind;
  readonly url: string;
  readonly prisma: PrismaClient;
  /** The embedded server, when this process serves it (absent on real PostgreSQL). */
  readonly embedded?: EmbeddedPostgres;
  close(): Promise<void>;
}

export async function openDatabase(config: AppConfig): Promise<Database> {
  let embedded: EmbeddedPostgres | undefined;
  let url = config.databaseUrl;
  if (!url) {
    // Room for the app's pool plus the Prisma CLI's single connection.
    embedded = await startEmbeddedPostgres({
      dataDir: config.dataDir,
      maxConnections: config.databasePoolSize + 2,
      advertise: true,
    });
    url = embedded.url;
  }
  try {
    if (config.migrateOnStart) await migrateDeploy(config.appRoot, url);
    const pool = new pg.Pool({ connectionString: url, max: config.databasePoolSize });
    const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
    await prisma.$connect();
    return {
      kind: embedded ? 'embedded' : 'postgresql',
      url,
      prisma,
      embedded,
      async close() {
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
