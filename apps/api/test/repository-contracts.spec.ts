import { repositoryContracts } from '@transport/domain/contracts';
import { openDatabase, type Database } from '../src/persistence/database';
import { prismaRepositories } from '../src/persistence/prisma-repositories';
import { describeOnEachTier, openTierStore, type TierStore } from './support/test-app';
import { truncateAll } from './support/truncate';

// The same contract suite the in-memory repositories pass, against Prisma on real PostgreSQL and on the embedded
// database, after the real migrations.
describeOnEachTier('Prisma repositories', (tier) => {
  let store: TierStore;
  let database: Database;

  beforeAll(async () => {
    store = await openTierStore(tier);
    database = await openDatabase(store.config());
  });

  afterAll(async () => {
    await database?.close();
    await store?.dispose();
  });

  repositoryContracts(`Prisma on ${tier}`, async () => {
    await truncateAll(database.prisma);
    return {
      ...prismaRepositories(database.prisma),
      ensureMerchant: async (id: string) => {
        const now = new Date();
        await database.prisma.merchant.upsert({
          where: { id },
          update: {},
          create: { id, name: `Merchant ${id}`, signingSecret: 'secret', createdAt: now, updatedAt: now },
        });
      },
      concurrentWriters: tier === 'postgresql',
      close: async () => undefined,
    };
  });
});
