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

/**
 * Every repository on one client: the app's (each call on its own) or an open transaction's (a unit of work: every
 * read and write, lists included, in that transaction). `lists`: where list pages, searches and exports read (the
 * read replica), when not where everything else does; a unit of work has none.
 */
export function prismaRepositories(db: PrismaExecutor, lists: PrismaExecutor = db): Repositories {
  return {
    owners: new PrismaVehicleOwnerRepository(db, lists),
    vehicles: new PrismaVehicleRepository(db, lists),
    drivers: new PrismaDriverRepository(db, lists),
    regions: new PrismaRegionRepository(db, lists),
    assemblies: new PrismaAssemblyRepository(db, lists),
    assemblyUsers: new PrismaAssemblyUserRepository(db, lists),
    stations: new PrismaStationRepository(db, lists),
    unions: new PrismaTransportUnionRepository(db, lists),
    trips: new PrismaTripRepository(db, lists),
    transactions: new PrismaTransactionRepository(db, lists),
  };
}
