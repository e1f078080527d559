import { inMemoryRepositories } from '../src/testing';
import { repositoryContracts } from './contracts';

repositoryContracts('in memory', async () => ({
  ...inMemoryRepositories(),
  ensureMerchant: async () => undefined,
  concurrentWriters: false,
  close: async () => undefined,
}));
