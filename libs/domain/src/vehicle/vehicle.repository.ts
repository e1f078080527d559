import type { Page, PageRequest } from '../shared/page';
import type { Vehicle, VehicleState } from './vehicle';
import type { InspectionRecord } from './inspection-record';

export interface VehicleListFilter {
  inspected?: boolean;
  approved?: boolean;
  /**
   * Inspected vehicles by the outcome of their last inspection: `passed` (every item passed: the approver's queue) or
   * `failed` (at least one item failed). Uninspected vehicles match neither.
   */
  inspection?: 'passed' | 'failed';
  registrationNumber?: string;
  driverId?: string;
  ownerId?: string;
  /** Vehicles linked to this station. */
  stationId?: string;
  /** Vehicles linked to this transport union. */
  transportUnionId?: string;
  /** One assembly's vehicles only (an assembly user's jurisdiction). */
  assemblyId?: string;
  /** Vehicles whose roadworthy or insurance certificate ends on or before this instant (expired ones included). */
  certificatesEndingBy?: Date;
  /** Vehicles with a re-inspection window open at `from` and ending on or before `by`. */
  reinspectionEnding?: { from: Date; by: Date };
}

/** The fields a vehicle list can be ordered by (`PageRequest.order`); newest first without one. */
export const VEHICLE_SORT_FIELDS = ['createdAt', 'registrationNumber'] as const;
export type VehicleSortField = (typeof VEHICLE_SORT_FIELDS)[number];

/** The fields of a `VehicleSummary`, as an adapter selects them (they are also its column names). */
export const VEHICLE_SUMMARY_FIELDS = [
  'id',
  'registrationNumber',
  'make',
  'model',
  'color',
  'type',
  'capacity',
  'inspected',
  'approved',
  'stationId',
  'transportUnionId',
  // The envelope the interface gives every record (`createdAt`, `updatedAt`, `__v`): no personal data.
  'createdAt',
  'updatedAt',
  'version',
] as const satisfies ReadonlyArray<keyof VehicleState>;

/**
 * A vehicle as lists show it to the public (what a passenger checks): read straight from storage, no aggregate
 * restored. Queries that show only this need not pay for restoring whole vehicles; commands always load aggregates.
 */
export type VehicleSummary = Pick<VehicleState, (typeof VEHICLE_SUMMARY_FIELDS)[number]>;

/** A vehicle's summary, from its whole state (fields the vehicle does not have stay absent). */
export function vehicleSummaryOf(s: VehicleState): VehicleSummary {
  const out: Partial<Record<keyof VehicleSummary, unknown>> = {};
  for (const key of VEHICLE_SUMMARY_FIELDS) if (s[key] !== undefined) out[key] = s[key];
  return out as VehicleSummary;
}

/**
 * Port: where vehicles are kept. Contract (tested against every implementation):
 * - `add` refuses a second vehicle with the same registration number (`VEHICLE_REGISTRATION_TAKEN`, conflict);
 * - `update` stores the vehicle only if the stored revision equals `vehicle.version`, and returns it with the next
 *   revision; otherwise `CONCURRENT_UPDATE` (conflict) and nothing is written;
 * - lists are newest first (createdAt, then id), or in the page's `order`, keyset-paged with `after`.
 */
export interface VehicleRepository {
  add(vehicle: Vehicle): Promise<Vehicle>;
  update(vehicle: Vehicle): Promise<Vehicle>;
  findById(id: string): Promise<Vehicle | undefined>;
  list(filter: VehicleListFilter, page: PageRequest<VehicleSortField>): Promise<Page<Vehicle>>;
  /** The same rows as `list` with the same filter and page, as summaries. */
  listSummaries(filter: VehicleListFilter, page: PageRequest<VehicleSortField>): Promise<Page<VehicleSummary>>;
  /**
   * Vehicles whose roadworthy or insurance certificate ends on or before `date` (expired or expiring), of one
   * assembly when `assemblyId` is given: `list` with `certificatesEndingBy`.
   */
  listCertificatesEndingBy(date: Date, page: PageRequest, assemblyId?: string): Promise<Page<Vehicle>>;
  /** Adds a row to the vehicle's inspection history (one per inspection or re-inspection). */
  addInspection(record: InspectionRecord): Promise<void>;
  /** One inspection of a vehicle (undefined: none with that id, or of another vehicle). */
  findInspection(vehicleId: string, id: string): Promise<InspectionRecord | undefined>;
  /** The vehicle's inspections, the last made first. */
  listInspections(vehicleId: string): Promise<InspectionRecord[]>;
  /**
   * Stores the appeal of an inspection: a lodged appeal only if the stored one has none, a decision only if the
   * stored appeal has none; otherwise nothing is written and `CONCURRENT_UPDATE` (conflict) is thrown.
   */
  saveAppeal(record: InspectionRecord): Promise<void>;
}
