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
} from '@transport/domain';

/** The repository ports of the domain, as one set. */
export interface RepositoryBackendPorts {
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
}
