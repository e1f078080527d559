import type { PrismaClient } from '../generated/prisma/client';
import type { PrismaExecutor } from './prisma-executor';

/** Runs several statements atomically: inside the caller's transaction if there is one, else in a new one. */
export async function inTransaction<T>(db: PrismaExecutor, work: (tx: PrismaExecutor) => Promise<T>): Promise<T> {
  if ('$transaction' in db) return (db as PrismaClient).$transaction((tx) => work(tx));
  return work(db);
}
