import type { Page, PageRequest } from '../shared/page';
import type { Vehicle } from './vehicle';

export interface VehicleListFilter {
  inspected?: boolean;
  approved?: boolean;
  registrationNumber?: string;
  driverId?: string;
  ownerId?: string;
  /** One assembly's vehicles only (an assembly user's jurisdiction). */
  assemblyId?: string;
}

/**
 * Port: where vehicles are kept. Contract (tested against every implementation):
 * - `add` refuses a second vehicle with the same registration number (`VEHICLE_REGISTRATION_TAKEN`, conflict);
 * - `update` stores the vehicle only if the stored revision equals `vehicle.version`, and returns it with the next
 *   revision; otherwise `CONCURRENT_UPDATE` (conflict) and nothing is written;
 * - lists are newest first (createdAt, then id), keyset-paged with `after`.
 */
export interface VehicleRepository {
  add(vehicle: Vehicle): Promise<Vehicle>;
  update(vehicle: Vehicle): Promise<Vehicle>;
  findById(id: string): Promise<Vehicle | undefined>;
  list(filter: VehicleListFilter, page: PageRequest): Promise<Page<Vehicle>>;
  /**
   * Vehicles whose roadworthy or insurance certificate ends on or before `date` (expired or expiring), of one
   * assembly when `assemblyId` is given.
   */
  listCertificatesEndingBy(date: Date, page: PageRequest, assemblyId?: string): Promise<Page<Vehicle>>;
}
