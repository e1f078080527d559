import type { AssemblyRepository, AssemblyUserRepository, RegionRepository } from './assembly/assembly.repository';
import type { DriverRepository } from './driver/driver.repository';
import type { VehicleOwnerRepository } from './owner/vehicle-owner.repository';
import type { StationRepository } from './station/station.repository';
import type { TransactionRepository } from './transaction/transaction.repository';
import type { TransportUnionRepository } from './transport-union/transport-union.repository';
import type { TripRepository } from './trip/trip.repository';
import type { VehicleRepository } from './vehicle/vehicle.repository';

/** Every repository port of the domain, as one set (what a backend provides, what a unit of work hands out). */
export interface Repositories {
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
