import type { Repositories } from '@transport/domain';
import type { PrismaExecutor } from './prisma-executor';
import type { ReadDb } from './read-db';
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

/**
 * Every repository on one Prisma client with `reads` (the stores: lists, searches and batch lookups through Kysely on
 * the pool), or on one open transaction without (a unit of work: everything on the transaction's connection).
 */
export function prismaRepositories(db: PrismaExecutor, reads?: ReadDb): Repositories {
  return {
    owners: new PrismaVehicleOwnerRepository(db, reads),
    vehicles: new PrismaVehicleRepository(db, reads),
    drivers: new PrismaDriverRepository(db, reads),
    regions: new PrismaRegionRepository(db),
    assemblies: new PrismaAssemblyRepository(db),
    assemblyUsers: new PrismaAssemblyUserRepository(db),
    stations: new PrismaStationRepository(db, reads),
    unions: new PrismaTransportUnionRepository(db, reads),
    trips: new PrismaTripRepository(db, reads),
    transactions: new PrismaTransactionRepository(db, reads),
  };
}
