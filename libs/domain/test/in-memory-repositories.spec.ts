import {
  InMemoryAssemblyRepository,
  InMemoryAssemblyUserRepository,
  InMemoryDriverRepository,
  InMemoryRegionRepository,
  InMemoryStationRepository,
  InMemoryTransactionRepository,
  InMemoryTransportUnionRepository,
  InMemoryTripRepository,
  InMemoryVehicleOwnerRepository,
  InMemoryVehicleRepository,
} from '../src/testing';
import { repositoryContracts } from './contracts';

repositoryContracts('in memory', async () => ({
  owners: new InMemoryVehicleOwnerRepository(),
  vehicles: new InMemoryVehicleRepository(),
  drivers: new InMemoryDriverRepository(),
  regions: new InMemoryRegionRepository(),
  assemblies: new InMemoryAssemblyRepository(),
  assemblyUsers: new InMemoryAssemblyUserRepository(),
  stations: new InMemoryStationRepository(),
  unions: new InMemoryTransportUnionRepository(),
  trips: new InMemoryTripRepository(),
  transactions: new InMemoryTransactionRepository(),
  ensureMerchant: async () => undefined,
  concurrentWriters: false,
  close: async () => undefined,
}));
