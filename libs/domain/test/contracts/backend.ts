import type {
  AssemblyRepository,
  AssemblyUserRepository,
  DriverRepository,
  RegionRepository,
  StationRepository,
  TransactionRepository,
  TransportUnionRepository,
  TripRepository,
  VehicleOwnerRepository,
  VehicleRepository,
} from '../../src';

/** Every repository port, as one backend provides them (in memory, Prisma on PostgreSQL, Prisma on PGlite). */
export interface RepositoryBackend {
  owners: VehicleOwnerRepository;
  vehicles: VehicleRepository;
  drivers: DriverRepository;
  regions: RegionRepository;
  assemblies: AssemblyRepository;
  assemblyUsers: AssemblyUserRepository;
  stations: StationRepository;
  unions: TransportUnionRepository;
  trips: TripRepository;
  transactions: TransactionRepository;
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
