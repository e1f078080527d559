import { Assembly, type AssemblyState } from '../assembly/assembly';
import { AssemblyUser, type AssemblyUserState } from '../assembly/assembly-user';
import type { AssemblyRepository, AssemblyUserRepository, RegionRepository } from '../assembly/assembly.repository';
import { Region, type RegionState } from '../assembly/region';
import { Driver, type DriverState } from '../driver/driver';
import {
  driverSummaryOf,
  type DriverListFilter,
  type DriverRepository,
  type DriverSortField,
} from '../driver/driver.repository';
import { VehicleOwner, type VehicleOwnerState } from '../owner/vehicle-owner';
import type { VehicleOwnerRepository } from '../owner/vehicle-owner.repository';
import { phoneSearchForms } from '../shared/contact';
import type { Page, PageRequest } from '../shared/page';
import { Station, type StationState } from '../station/station';
import type { StationRepository } from '../station/station.repository';
import { answeringAttempt, holdsReference } from '../transaction/reference-attempts';
import { isOpen, Transaction, type TransactionState } from '../transaction/transaction';
import type { MerchantTransactionFilter, TransactionRepository } from '../transaction/transaction.repository';
import { TransportUnion, type TransportUnionState } from '../transport-union/transport-union';
import type { TransportUnionRepository } from '../transport-union/transport-union.repository';
import { Trip, type TripState } from '../trip/trip';
import type { TripRepository } from '../trip/trip.repository';
import { Vehicle, type VehicleState } from '../vehicle/vehicle';
import { inspectionOutcome } from '../vehicle/inspection-checklist';
import type { InspectionRecord } from '../vehicle/inspection-record';
import { inspectionSettingsOf, type InspectionSettings } from '../vehicle/inspection-grades';
import {
  vehicleSummaryOf,
  type VehicleListFilter,
  type VehicleRepository,
  type VehicleSortField,
} from '../vehicle/vehicle.repository';
import { driverStanding } from '../registry/registry-search';
import { InMemoryCollection, newestFirst } from './in-memory-collection';
import { CommonErrors, DuplicateErrors } from '../shared/common.errors';

/** The order of an inspection history: by when made, then by id (ISO times of the same width sort as text). */
const lastMadeFirst = (r: InspectionRecord) => `${r.madeAt.toISOString()} ${r.id}`;

export class InMemoryVehicleRepository implements VehicleRepository {
  readonly store = new InMemoryCollection<Vehicle, VehicleState>('vehicle', (v) => v.toState(), Vehicle.restore, [
    { key: (s) => s.registrationNumber, error: DuplicateErrors.vehicleRegistration },
  ]);
  add = (v: Vehicle) => this.store.add(v);
  update = (v: Vehicle) => this.store.update(v);
  findById = (id: string) => this.store.findById(id);

  async list(filter: VehicleListFilter, page: PageRequest<VehicleSortField>): Promise<Page<Vehicle>> {
    return this.store.page(
      (s) =>
        (filter.inspected === undefined || s.inspected === filter.inspected) &&
        (filter.approved === undefined || s.approved === filter.approved) &&
        (filter.inspection === undefined ||
          (s.inspectionChecklist !== undefined && inspectionOutcome(s.inspectionChecklist) === filter.inspection)) &&
        (filter.registrationNumber === undefined || s.registrationNumber === filter.registrationNumber) &&
        (filter.driverId === undefined || s.driverId === filter.driverId) &&
        (filter.ownerId === undefined || s.ownerId === filter.ownerId) &&
        (filter.stationId === undefined || s.stationId === filter.stationId) &&
        (filter.transportUnionId === undefined || s.transportUnionId === filter.transportUnionId) &&
        (filter.certificatesEndingBy === undefined ||
          endsBy(s.roadWorthyExpiryDate, filter.certificatesEndingBy) ||
          endsBy(s.insuranceExpiryDate, filter.certificatesEndingBy)) &&
        (filter.reinspectionEnding === undefined ||
          (s.reinspectionDueBy !== undefined &&
            s.reinspectionDueBy >= filter.reinspectionEnding.from &&
            s.reinspectionDueBy <= filter.reinspectionEnding.by)) &&
        inAssembly(s, filter.assemblyId),
      page,
    );
  }

  async listSummaries(filter: VehicleListFilter, page: PageRequest<VehicleSortField>) {
    const found = await this.list(filter, page);
    return { ...found, items: found.items.map((v) => vehicleSummaryOf(v.toState())) };
  }

  listCertificatesEndingBy(date: Date, page: PageRequest, assemblyId?: string): Promise<Page<Vehicle>> {
    return this.list({ certificatesEndingBy: date, assemblyId }, page);
  }

  /** The inspection history (records are never changed in place: a saved appeal replaces its record). */
  private inspections = new Map<string, InspectionRecord>();

  async addInspection(record: InspectionRecord): Promise<void> {
    this.inspections.set(record.id, record);
  }

  async findInspection(vehicleId: string, id: string): Promise<InspectionRecord | undefined> {
    const found = this.inspections.get(id);
    return found?.vehicleId === vehicleId ? found : undefined;
  }

  async listInspections(vehicleId: string): Promise<InspectionRecord[]> {
    return [...this.inspections.values()]
      .filter((r) => r.vehicleId === vehicleId)
      .sort((a, b) => lastMadeFirst(b).localeCompare(lastMadeFirst(a)));
  }

  async saveAppeal(record: InspectionRecord): Promise<void> {
    const stored = this.inspections.get(record.id);
    const appeal = record.appeal;
    const fits = appeal?.decision ? stored?.appeal && !stored.appeal.decision : stored && !stored.appeal;
    if (!stored || !appeal || !fits) throw CommonErrors.concurrentUpdate('inspection', record.id);
    this.inspections.set(record.id, { ...stored, appeal });
  }

  /** The inspection history as it is now, and how to put it back (the unit of work's rollback). */
  checkpoint(): () => void {
    const copy = new Map(this.inspections);
    return () => {
      this.inspections = copy;
    };
  }
}

export class InMemoryVehicleOwnerRepository implements VehicleOwnerRepository {
  readonly store = new InMemoryCollection<VehicleOwner, VehicleOwnerState>(
    'vehicle owner',
    (o) => o.toState(),
    VehicleOwner.restore,
  );
  add = (o: VehicleOwner) => this.store.add(o);
  update = (o: VehicleOwner) => this.store.update(o);
  findById = (id: string) => this.store.findById(id);
  findByIds = (ids: readonly string[]) => this.store.findByIds(ids);
  list = async (page: PageRequest, assemblyId?: string) => this.store.page((s) => inAssembly(s, assemblyId), page);

  async search(query: string, page: PageRequest, assemblyId?: string): Promise<Page<VehicleOwner>> {
    const needle = query.trim().toLowerCase();
    const phones = phoneSearchForms(needle);
    return this.store.page(
      (s) =>
        (s.name.toLowerCase().includes(needle) ||
          (s.email?.includes(needle) ?? false) ||
          phones.some((p) => s.phone.includes(p))) &&
        inAssembly(s, assemblyId),
      page,
    );
  }
}

export class InMemoryDriverRepository implements DriverRepository {
  readonly store = new InMemoryCollection<Driver, DriverState>('driver', (d) => d.toState(), Driver.restore, [
    { key: (s) => (s.verified ? s.email.toLowerCase() : undefined), error: DuplicateErrors.driverEmail },
  ]);
  add = (d: Driver) => this.store.add(d);
  update = (d: Driver) => this.store.update(d);
  findById = (id: string) => this.store.findById(id);
  findByEmail = async (email: string) =>
    this.store
      .all()
      .filter((s) => s.email === email.trim().toLowerCase())
      .sort((a, b) => Number(b.verified) - Number(a.verified) || newestFirst(b, a))
      .map((s) => Driver.restore(s));

  async list(filter: DriverListFilter, page: PageRequest<DriverSortField>): Promise<Page<Driver>> {
    const email = filter.email?.trim().toLowerCase();
    return this.store.page(
      (s) =>
        (filter.approved === undefined || s.approved === filter.approved) &&
        (email === undefined || s.email === email) &&
        (filter.standing === undefined || driverStanding(s) === filter.standing) &&
        (filter.licenseEndingBy === undefined || endsBy(s.licenseExpiry, filter.licenseEndingBy)) &&
        inAssembly(s, filter.assemblyId),
      page,
    );
  }

  async listSummaries(filter: DriverListFilter, page: PageRequest<DriverSortField>) {
    const found = await this.list(filter, page);
    return { ...found, items: found.items.map((d) => driverSummaryOf(d.toState())) };
  }
}

export class InMemoryRegionRepository implements RegionRepository {
  readonly store = new InMemoryCollection<Region, RegionState>('region', (r) => r.toState(), Region.restore, [
    { key: (s) => `${s.country}/${s.name}`, error: DuplicateErrors.region },
  ]);
  add = (r: Region) => this.store.add(r);
  findById = (id: string) => this.store.findById(id);
  findByIds = (ids: readonly string[]) => this.store.findByIds(ids);
  list = async (page: PageRequest) => this.store.page(() => true, page);
}

export class InMemoryAssemblyRepository implements AssemblyRepository {
  readonly store = new InMemoryCollection<Assembly, AssemblyState>('assembly', (a) => a.toState(), Assembly.restore);
  add = (a: Assembly) => this.store.add(a);
  findById = (id: string) => this.store.findById(id);
  list = async (page: PageRequest) => this.store.page(() => true, page);
  private readonly settings = new Map<string, InspectionSettings>();
  async inspectionSettings(id: string | undefined): Promise<InspectionSettings> {
    return (id && this.settings.get(id)) || inspectionSettingsOf({});
  }
  async setInspectionSettings(id: string, settings: InspectionSettings): Promise<boolean> {
    if (!(await this.findById(id))) return false;
    this.settings.set(id, { ...settings });
    return true;
  }
}

export class InMemoryAssemblyUserRepository implements AssemblyUserRepository {
  readonly store = new InMemoryCollection<AssemblyUser, AssemblyUserState>(
    'assembly user',
    (u) => u.toState(),
    AssemblyUser.restore,
    [{ key: (s) => s.email, error: DuplicateErrors.assemblyUserEmail }],
  );
  add = (u: AssemblyUser) => this.store.add(u);
  update = (u: AssemblyUser) => this.store.update(u);
  findById = (id: string) => this.store.findById(id);
  findByPhone = async (phone: string) => this.store.find((s) => s.phone === phone);
  list = async (filter: { assemblyId?: string }, page: PageRequest) =>
    this.store.page((s) => filter.assemblyId === undefined || s.assemblyId === filter.assemblyId, page);
}

export class InMemoryStationRepository implements StationRepository {
  readonly store = new InMemoryCollection<Station, StationState>('station', (s) => s.toState(), Station.restore);
  add = (s: Station) => this.store.add(s);
  findById = (id: string) => this.store.findById(id);
  findByIds = (ids: readonly string[]) => this.store.findByIds(ids);
  list = async (page: PageRequest) => this.store.page(() => true, page);
}

export class InMemoryTransportUnionRepository implements TransportUnionRepository {
  readonly store = new InMemoryCollection<TransportUnion, TransportUnionState>(
    'transport union',
    (u) => u.toState(),
    TransportUnion.restore,
  );
  add = (u: TransportUnion) => this.store.add(u);
  findById = (id: string) => this.store.findById(id);
  findByIds = (ids: readonly string[]) => this.store.findByIds(ids);
  list = async (page: PageRequest) => this.store.page(() => true, page);
}

export class InMemoryTripRepository implements TripRepository {
  readonly store = new InMemoryCollection<Trip, TripState>('trip', (t) => t.toState(), Trip.restore, [
    { key: (s) => s.ticketNumber, error: DuplicateErrors.tripTicket },
  ]);
  add = (t: Trip) => this.store.add(t);
  update = (t: Trip) => this.store.update(t);
  findById = (id: string) => this.store.findById(id);
  listCreatedBetween = async (range: { from: Date; to: Date }, page: PageRequest, assemblyId?: string) =>
    this.store.page((s) => s.createdAt >= range.from && s.createdAt < range.to && inAssembly(s, assemblyId), page);
}

export class InMemoryTransactionRepository implements TransactionRepository {
  readonly store = new InMemoryCollection<Transaction, TransactionState>(
    'transaction',
    (t) => t.toState(),
    Transaction.restore,
    [
      // At most one attempt that has not failed holds a reference (a retry after a failure is a new attempt).
      {
        key: (s) => (holdsReference(s.status) ? `${s.merchantId}/${s.reference}` : undefined),
        error: DuplicateErrors.transactionReference,
      },
      { key: (s) => `provider/${s.providerReference}`, error: DuplicateErrors.transactionReference },
    ],
  );
  add = (t: Transaction) => this.store.add(t);
  update = (t: Transaction) => this.store.update(t);
  findById = (id: string) => this.store.findById(id);
  findByMerchantReference = async (merchantId: string, reference: string) => {
    const attempts = this.store.all().filter((s) => s.merchantId === merchantId && s.reference === reference);
    const answering = answeringAttempt(attempts);
    return answering && Transaction.restore(answering);
  };
  listForMerchant = async (merchantId: string, filter: MerchantTransactionFilter, page: PageRequest) =>
    this.store.page(
      (s) =>
        s.merchantId === merchantId &&
        (filter.status === undefined || s.status === filter.status) &&
        (filter.from === undefined || s.createdAt >= filter.from) &&
        (filter.to === undefined || s.createdAt < filter.to),
      page,
    );
  listOpenUnchangedSince = async (before: Date, limit: number) =>
    this.store
      .all()
      .filter((s) => isOpen(s.status) && s.updatedAt < before)
      .sort((a, b) => a.updatedAt.getTime() - b.updatedAt.getTime())
      .slice(0, limit)
      .map((s) => s.id);
}

/** Whether a record passes an optional assembly filter. */
function inAssembly(record: { assemblyId?: string }, assemblyId: string | undefined): boolean {
  return assemblyId === undefined || record.assemblyId === assemblyId;
}

/** A document that ends on or before the instant (one never recorded ends nowhere). */
function endsBy(expiry: Date | undefined, by: Date): boolean {
  return expiry !== undefined && expiry <= by;
}
