import type { Repositories } from '@transport/domain';
import type { ListSource, PrismaExecutor } from './prisma-executor';
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
 * `lists`: where list pages, searches and exports read (the read replica), when not where everything else does.
 */
export function prismaRepositories(db: PrismaExecutor, reads?: ReadDb, lists?: ListSource): Repositories {
  return {
    owners: new PrismaVehicleOwnerRepository(db, reads, lists),
    vehicles: new PrismaVehicleRepository(db, reads, lists),
    drivers: new PrismaDriverRepository(db, reads, lists),
    regions: new PrismaRegionRepository(db, lists),
    assemblies: new PrismaAssemblyRepository(db, lists),
    assemblyUsers: new PrismaAssemblyUserRepository(db, lists),
    stations: new PrismaStationRepository(db, reads, lists),
    unions: new PrismaTransportUnionRepository(db, reads, lists),
    trips: new PrismaTripRepository(db, reads, lists),
    transactions: new PrismaTransactionRepository(db, reads, lists),
  };
}
