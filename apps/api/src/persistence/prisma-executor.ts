import type { PrismaClient } from '../generated/prisma/client';
import type { TransactionClient } from '../generated/prisma/internal/prismaNamespace';
import type { ReadDb } from './read-db';

/** A Prisma client or the client of an open transaction: repositories work on either. */
export type PrismaExecutor = PrismaClient | TransactionClient;

/**
 * Where list pages, searches and exports read (database.ts `lists`): the read replica's client and Kysely when
 * DATABASE_READ_URL is set. Repositories without one read their lists where they read everything else.
 */
export interface ListSource {
  readonly prisma: PrismaClient;
  readonly reads: ReadDb;
}
