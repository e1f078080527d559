import type { PrismaClient } from '../generated/prisma/client';
import type { TransactionClient } from '../generated/prisma/internal/prismaNamespace';

/** A Prisma client or the client of an open transaction: repositories work on either. */
export type PrismaExecutor = PrismaClient | TransactionClient;
