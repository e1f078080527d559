import type { Repositories } from '../../src';

/** Every repository port, as one backend provides them (in memory, Prisma on PostgreSQL, Prisma on PGlite). */
export interface RepositoryBackend extends Repositories {
  /** Makes a merchant with this id exist (a principal outside the domain, which transactions reference). */
  ensureMerchant(id: string): Promise<void>;
  /**
   * Whether concurrent writers race (PostgreSQL) or are serialised (the in-memory store, and PGlite, which runs one
   * transaction at a time): with serialised writers the stale one still loses, but by version check, not by a race.
   */
  readonly concurrentWriters: boolean;
  close(): Promise<void>;
}

export type OpenBackend = () => Promise<RepositoryBackend>;
