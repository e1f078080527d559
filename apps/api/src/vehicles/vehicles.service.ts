import { Inject, Injectable } from '@nestjs/common';
import {
  CommonErrors,
  DomainError,
  ReferenceErrors,
  Vehicle,
  auditEntriesFor,
  normalizeRegistrationNumber,
  type Actor,
  type Clock,
  type DataStores,
  type IdGenerator,
  type Page,
  type PageRequest,
  type UnitOfWork,
  type VehicleListFilter,
  type VehicleRegistration,
} from '@transport/domain';
import { assertAssemblyDuty } from '../core/auth/duties';
import { changeAggregate, type Transition } from '../core/change-aggregate';
import { CLOCK, ID_GENERATOR, STORES, UNIT_OF_WORK } from '../core/tokens';
import {
  toComplianceReason,
  toVehicleResponse,
  type ComplianceEntryResponse,
  type VehicleLinks,
  type VehicleResponse,
} from './vehicles.dto';

export interface VehicleLinkChanges {
  /** A driver id, or null to unlink the driver. */
  driver?: string | null;
  /** A station id, or null to unlink (the vehicle then shows station: null). */
  station?: string | null;
  transportUnion?: string;
}

/** Vehicles: registration, inspection, approval, links, compliance, and the lists. */
@Injectable()
export class VehiclesService {
  constructor(
    @Inject(UNIT_OF_WORK) private readonly uow: UnitOfWork,
    @Inject(STORES) private readonly stores: DataStores,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
  ) {}

  /** A page of vehicles, newest first, with the stations and unions they link to. */
  async list(filter: VehicleListFilter, request: PageRequest): Promise<Page<VehicleResponse>> {
    let registrationNumber = filter.registrationNumber;
    if (registrationNumber !== undefined) {
      try {
        registrationNumber = normalizeRegistrationNumber(registrationNumber);
      } catch {
        // A malformed number matches nothing, as it is.
      }
    }
    const page = await this.stores.vehicles.list({ ...filter, registrationNumber }, request);
    const links = await this.linksOf(page.items);
    return { next: page.next, items: page.items.map((v) => toVehicleResponse(v.toState(), links)) };
  }

  async get(id: string): Promise<VehicleResponse> {
    const vehicle = await this.stores.vehicles.findById(id);
    if (!vehicle) throw CommonErrors.notFound('vehicle', id);
    return this.respond(vehicle);
  }

  /** Registers a vehicle of an existing owner; it starts uninspected and unapproved. */
  async register(input: VehicleRegistration, actor: Actor): Promise<VehicleResponse> {
    const saved = await this.uow.run(async (context) => {
      const vehicle = Vehicle.register(input, this.ids, this.clock.now());
      const ownerId = vehicle.toState().ownerId;
      if (!(await context.owners.findById(ownerId))) {
        throw new DomainError(
          'OWNER_NOT_FOUND',
          `ownerID ${ownerId} names no vehicle owner; find owners with GET /vehicles/owner/search`,
          'ownerID',
        );
      }
      const stored = await context.vehicles.add(vehicle);
      await context.audit.append(auditEntriesFor('vehicle', vehicle.pullEvents(), actor, null, stored.toState()));
      return stored;
    });
    return this.respond(saved);
  }

  async inspect(id: string, checklist: unknown, actor: Actor, expectedVersion?: number): Promise<VehicleResponse> {
    await assertAssemblyDuty(this.stores.assemblyUsers, actor, 'inspectVehicle');
    return this.respond(
      await this.change(id, actor, expectedVersion, 'VehicleInspected', (v, at) => v.inspect(checklist, actor.id, at)),
    );
  }

  async approve(id: string, actor: Actor, expectedVersion?: number): Promise<VehicleResponse> {
    await assertAssemblyDuty(this.stores.assemblyUsers, actor, 'approveVehicle');
    return this.respond(
      await this.change(id, actor, expectedVersion, 'VehicleApproved', (v, at) => v.approve(actor.id, at)),
    );
  }

  /** Links (or unlinks) driver, station and union in one change; every referenced record must exist. */
  async link(id: string, links: VehicleLinkChanges, actor: Actor, expectedVersion?: number): Promise<VehicleResponse> {
    const saved = await this.change(id, actor, expectedVersion, 'VehicleLinked', async (v, at, ctx) => {
      if (links.driver === null) v.unlinkDriver(at);
      else if (links.driver !== undefined) {
        const driver = await ctx.drivers.findById(links.driver);
        if (!driver) throw ReferenceErrors.missing('driver', links.driver);
        v.linkDriver(driver, at);
      }
      if (links.station !== undefined) {
        if (links.station !== null && !(await ctx.stations.findById(links.station)))
          throw ReferenceErrors.missing('station', links.station);
        v.linkStation(links.station, at);
      }
      if (links.transportUnion !== undefined) {
        if (!(await ctx.unions.findById(links.transportUnion)))
          throw ReferenceErrors.missing('transportUnion', links.transportUnion);
        v.linkTransportUnion(links.transportUnion, at);
      }
    });
    return this.respond(saved);
  }

  /**
   * Vehicles with a certificate ending by `horizon` (exclusive), newest first, each with its reasons: expired or
   * expiring certificates, plus not approved and failed checklist items when they apply.
   */
  async compliance(horizon: Date, request: PageRequest): Promise<Page<ComplianceEntryResponse>> {
    const now = this.clock.now();
    const page = await this.stores.vehicles.listCertificatesEndingBy(new Date(horizon.getTime() - 1), request);
    const links = await this.linksOf(page.items);
    return {
      next: page.next,
      items: page.items.map((vehicle) => ({
        vehicle: toVehicleResponse(vehicle.toState(), links),
        reasons: vehicle.complianceOutlook(now, horizon).map(toComplianceReason),
      })),
    };
  }

  private async change(
    id: string,
    actor: Actor,
    expectedVersion: number | undefined,
    action: string,
    transition: Transition<Vehicle>,
  ): Promise<Vehicle> {
    const spec = { entity: 'vehicle', store: (c: DataStores) => c.vehicles, id, actor, expectedVersion, action };
    return (await changeAggregate({ uow: this.uow, clock: this.clock }, spec, transition)).saved;
  }

  private async respond(vehicle: Vehicle): Promise<VehicleResponse> {
    return toVehicleResponse(vehicle.toState(), await this.linksOf([vehicle]));
  }

  /** The stations and unions some vehicles link to, fetched in two batched lookups. */
  private async linksOf(vehicles: readonly Vehicle[]): Promise<VehicleLinks> {
    const states = vehicles.map((v) => v.toState());
    const stationIds = [...new Set(states.flatMap((s) => (s.stationId ? [s.stationId] : [])))];
    const unionIds = [...new Set(states.flatMap((s) => (s.transportUnionId ? [s.transportUnionId] : [])))];
    const [stations, unions] = await Promise.all([
      this.stores.stations.findByIds(stationIds),
      this.stores.unions.findByIds(unionIds),
    ]);
    return {
      stations: new Map(stations.map((s) => [s.id, s.toState()])),
      unions: new Map(unions.map((u) => [u.id, u.toState()])),
    };
  }
}
