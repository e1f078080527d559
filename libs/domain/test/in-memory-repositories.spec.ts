import { inMemoryRepositories, InMemoryUnitOfWork } from '../src/testing';
import { repositoryContracts, unitOfWorkContract } from './contracts';

repositoryContracts('in memory', async () => ({
  ...inMemoryRepositories(),
  ensureMerchant: async () => undefined,
  concurrentWriters: false,
  close: async () => undefined,
}));

unitOfWorkContract('in memory', async () => {
  const uow = new InMemoryUnitOfWork();
  return { uow, stores: uow.stores, ensureMerchant: async () => undefined, close: async () => undefined };
});
