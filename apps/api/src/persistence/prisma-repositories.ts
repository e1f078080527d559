import type { Repositories } from '@transport/domain';
import type { PrismaExecutor } from './prisma-executor';
import { PrismaDriverRepository } from './prisma-driver.repository';
import {
  PrismaAssemblyRepository,
  PrismaAssemblyUserRepository,
  PrismaRegionRepository,
  PrismaStationRepository,
  PrismaTransportUnionRepository,
} from './prisma-reference.repositories';
import { PrismaTransactionRepository } from './prisma-transaction.repository';
import { PrismaTripRepository } from './prisma-trip.repository';
import { PrismaVehicleOwnerRepository } from './prisma-vehicle-owner.repository';
import { PrismaVehicleRepository } from './prisma-vehicle.repository';

/** Every repository on one Prisma client, or on one open transaction. */
export function prismaRepositories(db: PrismaExecutor): Repositories {
  return {
    owners: new PrismaVehicleOwnerRepository(db),
    vehicles: new PrismaVehicleRepository(db),
    drivers: new PrismaDriverRepository(db),
    regions: new PrismaRegionRepository(db),
    assemblies: new PrismaAssemblyRepository(db),
    assemblyUsers: new PrismaAssemblyUserRepository(db),
    stations: new PrismaStationRepository(db),
    unions: new PrismaTransportUnionRepository(db),
    trips: new PrismaTripRepository(db),
    transactions: new PrismaTransactionRepository(db),
  };
}
