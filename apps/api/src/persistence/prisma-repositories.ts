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
 * Every repository on one Prisma client, or on one open transaction. Lists, searches and batch lookups go through
 * `reads` (Kysely on the pool), outside any transaction: use cases read lists outside their units of work (the one
 * batch lookup inside one, a new station's unions, reads records that are never deleted).
 */
export function prismaRepositories(db: PrismaExecutor, reads: ReadDb): Repositories {
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
