import { Inject, Injectable, Optional } from '@nestjs/common';
import {
  CORRECTABLE_VEHICLE_FIELDS,
  DomainError,
  missingInspectionPhotos,
  blockingInspectionItems,
  type VehicleCorrection,
  ReferenceErrors,
  Vehicle,
  assemblyScope,
  assertNoOverdueNotices,
  auditEntriesFor,
  covers,
  jurisdictionOf,
  normalizeRegistrationNumber,
  withinJurisdiction,
  type Actor,
  type Clock,
  type DataStores,
  type IdGenerator,
  type InspectionRecord,
  type Page,
  type PageRequest,
  type UnitOfWork,
  type VehicleListFilter,
  type VehicleRegistration,
  type VehicleSortField,
  type VehicleState,
} from '@transport/domain';
import { assertAssemblyDuty } from '../core/auth/duties';
import { placeNew, transferRecord } from '../core/auth/jurisdiction';
import { changeAggregate, correctAggregate, type Transition } from '../core/change-aggregate';
import type { EnforcementStore } from '../core/ports';
import {
  APP_CONFIG,
  CLOCK,
  ENFORCEMENT_STORE,
  ID_GENERATOR,
  INSPECTION_PHOTOS,
  STORES,
  UNIT_OF_WORK,
} from '../core/tokens';
import type { InspectionPhotos } from '../core/storage-ports';
import type { AppConfig } from '../config';
import { FraudSignsService } from '../fraud-flags/fraud-signs.service';
import { ApprovalWithdrawalNotices } from './approval-withdrawal-notices';

/** INSPECTION_MADE_MAX_AGE_HOURS's default, for a service built without the app's configuration (its specs). */
const MADE_MAX_AGE_HOURS = 72;
import {
  toComplianceReason,
  toVehicleResponse,
  toVehicleSummaryResponse,
  type ComplianceEntryResponse,
  type VehicleLinks,
  type VehicleResponse,
  type VehicleSummaryResponse,
} from './vehicle-responses.dto';

export interface VehicleLinkChanges {
  /** A driver id, or null to unlink the driver. */
  driver?: string | null;
  /** A station id, or null to unlink (the vehicle then shows station: null). */
  station?: string | null;
  transportUnion?: string;
}

/** What an inspection carries beyond checklist, notes, time and place (all optional: an older client sends none). */
export interface GradedInspection {
  grades?: unknown;
  advisories?: unknown;
  /** The request's Idempotency-Key, kept with the inspection's history row. */
  idempotencyKey?: string;
}

/** The certificates a renewal records (at least one). */
export interface VehicleRenewal {
  roadWorthyExpiryDate?: Date;
  insuranceExpiryDate?: Date;
}

/**
 * Vehicles: registration, inspection, approval, links, compliance, transfers, and the lists. Every read and change
 * is within the actor's jurisdiction: assembly staff see and act on their assembly's vehicles only (another's
 * answers like a missing one); everyone else nationwide, in the view of their role.
 */
@Injectable()
export class VehiclesService {
  constructor(
    @Inject(UNIT_OF_WORK) private readonly uow: UnitOfWork,
    @Inject(STORES) private readonly stores: DataStores,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    @Optional() @Inject(APP_CONFIG) private readonly config?: Pick<AppConfig, 'inspectionMadeMaxAgeHours'>,
    @Optional() private readonly notices?: ApprovalWithdrawalNotices,
    @Optional() private readonly fraudSigns?: FraudSignsService,
    @Optional() @Inject(ENFORCEMENT_STORE) private readonly enforcement?: EnforcementStore,
    @Optional() @Inject(INSPECTION_PHOTOS) private readonly photos?: InspectionPhotos,
  ) {}

  /** A page of vehicles in the request's order (newest first by default), with the stations and unions they link to. */
  async list(
    filter: VehicleListFilter,
    request: PageRequest<VehicleSortField>,
    actor: Actor,
  ): Promise<Page<VehicleResponse>> {
    const page = await this.stores.vehicles.list(this.scoped(filter, actor), request);
    const states = page.items.map((v) => v.toState());
    const links = await this.linksOf(states);
    return { ...page, items: states.map((s) => toVehicleResponse(s, links)) };
  }

  /**
   * The same page as `list`, with the fields the public sees only (a passenger's check): read as summaries, without
   * restoring whole vehicles, for callers whose view holds nothing more.
   */
  async listSummaries(
    filter: VehicleListFilter,
    request: PageRequest<VehicleSortField>,
    actor: Actor,
  ): Promise<Page<VehicleSummaryResponse>> {
    const page = await this.stores.vehicles.listSummaries(this.scoped(filter, actor), request);
    const links = await this.linksOf(page.items);
    return { ...page, items: page.items.map((s) => toVehicleSummaryResponse(s, links)) };
  }

  /** A list's filter as the store reads it: the registration number normalised, within the actor's jurisdiction. */
  private scoped(filter: VehicleListFilter, actor: Actor): VehicleListFilter {
    let registrationNumber = filter.registrationNumber;
    if (registrationNumber !== undefined) {
      try {
        registrationNumber = normalizeRegistrationNumber(registrationNumber);
      } catch {
        // A malformed number matches nothing, as it is.
      }
    }
    return { ...filter, registrationNumber, assemblyId: assemblyScope(jurisdictionOf(actor)) };
  }

  async get(id: string, actor: Actor): Promise<VehicleResponse> {
    const vehicle = await this.stores.vehicles.findById(id);
    return this.respond(withinJurisdiction(jurisdictionOf(actor), vehicle, 'vehicle', id));
  }

  /**
   * Registers a vehicle of an existing owner within the actor's jurisdiction; it starts uninspected and unapproved,
   * in the registering staff's assembly (an admin's: the one named, else the owner's).
   */
  async register(input: VehicleRegistration, actor: Actor): Promise<VehicleResponse> {
    await assertAssemblyDuty(this.stores.assemblyUsers, actor, 'registerRecords');
    const saved = await this.uow.run(async (context) => {
      const checked = Vehicle.register(input, this.ids, this.clock.now());
      const ownerId = checked.toState().ownerId;
      const owner = await context.owners.findById(ownerId);
      if (!owner || !covers(jurisdictionOf(actor), owner.toState())) {
        throw new DomainError(
          'OWNER_NOT_FOUND',
          `ownerID ${ownerId} names no vehicle owner; find owners with GET /vehicles/owner/search`,
          'ownerID',
        );
      }
      const assemblyId = await placeNew(context, actor, input.assemblyId, owner.toState().assemblyId);
      const stored = await context.vehicles.add(Vehicle.restore({ ...checked.toState(), assemblyId }));
      await context.audit.append(auditEntriesFor('vehicle', checked.pullEvents(), actor, null, stored.toState()));
      return stored;
    });
    return this.respond(saved);
  }

  /**
   * Records an inspection (an assembly inspector's duty), graded (`graded.grades`; none: every failed item major),
   * with a row in the vehicle's inspection history keyed by the request's idempotency key. A failed or prohibited
   * outcome withdraws an approval, and the owner is told.
   */
  async inspect(
    id: string,
    checklist: unknown,
    actor: Actor,
    expectedVersion?: number,
    defects?: unknown,
    madeAt?: Date,
    madeWhere?: unknown,
    graded: GradedInspection = {},
  ): Promise<VehicleResponse> {
    return this.recordInspection('inspect', id, checklist, actor, expectedVersion, defects, madeAt, madeWhere, graded);
  }

  /**
   * Re-inspects only the items the last inspection failed, free, within its window (or the window an appeal
   * opened, by another inspector); linked to the inspection it follows in the history.
   */
  async reinspect(
    id: string,
    results: unknown,
    actor: Actor,
    expectedVersion?: number,
    defects?: unknown,
    madeAt?: Date,
    madeWhere?: unknown,
    graded: GradedInspection = {},
  ): Promise<VehicleResponse> {
    return this.recordInspection('reinspect', id, results, actor, expectedVersion, defects, madeAt, madeWhere, graded);
  }

  private async recordInspection(
    kind: 'inspect' | 'reinspect',
    id: string,
    checklist: unknown,
    actor: Actor,
    expectedVersion: number | undefined,
    defects: unknown,
    madeAt: Date | undefined,
    madeWhere: unknown,
    graded: GradedInspection,
  ): Promise<VehicleResponse> {
    await assertAssemblyDuty(this.stores.assemblyUsers, actor, 'inspectVehicle');
    const maxAgeHours = this.config?.inspectionMadeMaxAgeHours ?? MADE_MAX_AGE_HOURS;
    let withdrawnAt: Date | undefined;
    let recorded: InspectionRecord | undefined;
    const action = kind === 'inspect' ? 'VehicleInspected' : 'VehicleReinspected';
    const saved = await this.change(id, actor, expectedVersion, action, async (v, at, ctx) => {
      const wasApproved = v.toState().approved;
      const settings = await ctx.assemblies.inspectionSettings(v.toState().assemblyId);
      const made =
        madeAt === undefined && madeWhere === undefined
          ? undefined
          : { at: madeAt, where: madeWhere, earliest: new Date(at.getTime() - maxAgeHours * 3_600_000), maxAgeHours };
      const details = {
        grades: graded.grades,
        advisories: graded.advisories,
        daysToFix: settings.daysToFix,
        inspectionId: this.ids.next(),
        idempotencyKey: graded.idempotencyKey,
      };
      if (kind === 'inspect') v.inspect(checklist, actor.id, at, defects, made, details);
      else v.reinspect(checklist, actor.id, at, defects, made, details);
      const record = v.recordedInspection();
      if (record) await ctx.vehicles.addInspection(record);
      recorded = record;
      if (wasApproved && !v.toState().approved) withdrawnAt = at;
    });
    // A failure withdrew the approval and its sticker: the owner is told (after the change is stored).
    if (withdrawnAt) {
      const state = saved.toState();
      const failed = blockingInspectionItems(state.inspectionChecklist ?? {}, state.inspectionGrades);
      await this.notices?.notify(state, failed, withdrawnAt);
    }
    // Signs of fraud, once the inspection is stored: they never fail it (the service swallows its own failures).
    if (recorded) await this.fraudSigns?.inspectionRecorded(recorded, saved.toState());
    return this.respond(saved);
  }

  async approve(id: string, actor: Actor, expectedVersion?: number): Promise<VehicleResponse> {
    await assertAssemblyDuty(this.stores.assemblyUsers, actor, 'approveVehicle');
    await this.assertNoOverdueNotices(id);
    // Read before the change's transaction (the photos' store is not part of it): a photo arriving meanwhile only
    // means an approval refused that could have waited a moment.
    const missing = await this.missingPhotos(id);
    return this.respond(
      await this.change(id, actor, expectedVersion, 'VehicleApproved', (v, at) => {
        v.approve(actor.id, at);
        // After the domain's own refusals (not inspected, failed, ...): those say more.
        if (missing.length > 0)
          throw new DomainError(
            'INSPECTION_PHOTOS_MISSING',
            `The inspection's photos have not all arrived (missing: ${missing.join(', ')}); this assembly requires them before approval. The inspector's phone sends them after the inspection`,
          );
      }),
    );
  }

  /**
   * Where the assembly requires photos, an approval waits for the plate and VIN photos of the inspection it approves
   * (a re-inspection's: those of the inspection it follows), joined by the inspection's Idempotency-Key: the phone
   * sends them after the inspection, and an approver must not approve before the evidence is there. An inspection
   * recorded without a key (a client that sends no photos) has none to wait for.
   */
  private async missingPhotos(id: string): Promise<string[]> {
    const vehicle = await this.stores.vehicles.findById(id);
    const state = vehicle?.toState();
    if (!this.photos || !state?.inspectionId) return [];
    if (!(await this.stores.assemblies.inspectionSettings(state.assemblyId)).photosRequired) return [];
    let record = await this.stores.vehicles.findInspection(id, state.inspectionId);
    if (record?.kind === 'reinspection' && record.reinspectionOf)
      record = await this.stores.vehicles.findInspection(id, record.reinspectionOf);
    const key = record?.idempotencyKey;
    if (!key) return [];
    // The plate and the VIN: an approvable inspection failed no item that needs a photo.
    const sent = await this.photos.list(id, 200, key);
    return missingInspectionPhotos([{ kind: 'plate' }, { kind: 'vin' }], sent).map((m) => m.kind);
  }

  /**
   * Corrects registration fields (the domain decides per field: a VIN is refused once approved, a new plate sends the
   * vehicle back for approval). If-Match is required; the audit entry holds only the fields that changed.
   */
  async correct(
    id: string,
    changes: VehicleCorrection,
    actor: Actor,
    expectedVersion: number,
  ): Promise<VehicleResponse> {
    const saved = await correctAggregate(
      { ...this.deps, users: this.stores.assemblyUsers },
      { ...this.spec(id, actor, expectedVersion, 'VehicleCorrected'), expectedVersion },
      changes,
      CORRECTABLE_VEHICLE_FIELDS,
      (v, at) => v.correct(changes, at),
    );
    return this.respond(saved);
  }

  /**
   * Records renewed (or first) roadworthy and insurance certificates in one change: each expiry must be ahead and
   * later than the one it replaces (RENEWAL_EXPIRED, RENEWAL_NOT_LATER). Assembly inspectors and approvers, admins.
   */
  async renew(id: string, renewal: VehicleRenewal, actor: Actor, expectedVersion?: number): Promise<VehicleResponse> {
    if (!renewal.roadWorthyExpiryDate && !renewal.insuranceExpiryDate)
      throw new DomainError(
        'INVALID_VALUE',
        'Send roadWorthyExpiryDate, insuranceExpiryDate or both: the renewed expiry dates',
        'roadWorthyExpiryDate',
      );
    await assertAssemblyDuty(this.stores.assemblyUsers, actor, 'renewDocuments');
    await this.assertNoOverdueNotices(id);
    const saved = await this.change(id, actor, expectedVersion, 'VehicleDocumentsRenewed', (v, at) => {
      if (renewal.roadWorthyExpiryDate) v.renewRoadworthy(renewal.roadWorthyExpiryDate, at);
      if (renewal.insuranceExpiryDate) v.renewInsurance(renewal.insuranceExpiryDate, at);
    });
    return this.respond(saved);
  }

  /** Links (or unlinks) driver, station and union in one change; every referenced record must exist. */
  async link(id: string, links: VehicleLinkChanges, actor: Actor, expectedVersion?: number): Promise<VehicleResponse> {
    await assertAssemblyDuty(this.stores.assemblyUsers, actor, 'registerRecords');
    const saved = await this.change(id, actor, expectedVersion, 'VehicleLinked', async (v, at, ctx) => {
      if (links.driver === null) v.unlinkDriver(at);
      else if (links.driver !== undefined) {
        const driver = await ctx.drivers.findById(links.driver);
        if (!driver || !covers(jurisdictionOf(actor), driver.toState())) {
          throw ReferenceErrors.missing('driver', links.driver);
        }
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
   * Vehicles with a certificate ending within the window (up to its last instant), newest first, each with its
   * reasons: expired or expiring certificates, plus not approved and failed checklist items when they apply.
   */
  async compliance(
    window: { end: Date; last: Date },
    request: PageRequest,
    actor: Actor,
  ): Promise<Page<ComplianceEntryResponse>> {
    const now = this.clock.now();
    const page = await this.stores.vehicles.listCertificatesEndingBy(
      window.last,
      request,
      assemblyScope(jurisdictionOf(actor)),
    );
    const states = page.items.map((v) => v.toState());
    const links = await this.linksOf(states);
    return {
      ...page,
      items: page.items.map((vehicle, i) => ({
        vehicle: toVehicleResponse(states[i], links),
        reasons: vehicle.complianceOutlook(now, window.end).map(toComplianceReason),
      })),
    };
  }

  /** An admin's move of a vehicle to another assembly (audited as VehicleTransferred). */
  async transfer(id: string, assemblyId: string, actor: Actor, expectedVersion?: number): Promise<VehicleResponse> {
    return this.respond(
      await transferRecord(this.deps, this.spec(id, actor, expectedVersion, 'VehicleTransferred'), assemblyId),
    );
  }

  private get deps() {
    return { uow: this.uow, clock: this.clock };
  }

  private spec(id: string, actor: Actor, expectedVersion: number | undefined, action: string) {
    const store = (c: DataStores) => c.vehicles;
    return { entity: 'vehicle', store, id, actor, expectedVersion, action, jurisdiction: jurisdictionOf(actor) };
  }

  private async change(
    id: string,
    actor: Actor,
    expectedVersion: number | undefined,
    action: string,
    transition: Transition<Vehicle>,
  ): Promise<Vehicle> {
    return (await changeAggregate(this.deps, this.spec(id, actor, expectedVersion, action), transition)).saved;
  }

  /**
   * Where the vehicle's assembly set that overdue roadside notices block it (issue 47), refuses approving or renewing
   * a vehicle with one (422 VEHICLE_HAS_OVERDUE_NOTICES), before anything is written. Read outside the change's
   * transaction (the embedded database has one session).
   */
  private async assertNoOverdueNotices(id: string): Promise<void> {
    const vehicle = this.enforcement && (await this.stores.vehicles.findById(id));
    const assemblyId = vehicle ? vehicle.toState().assemblyId : undefined;
    if (!this.enforcement || assemblyId === undefined) return;
    const settings = await this.enforcement.settings(assemblyId);
    if (!settings.overdueBlocksVehicle) return;
    assertNoOverdueNotices(true, await this.enforcement.openNoticesOf(id), this.clock.now());
  }

  private async respond(vehicle: Vehicle): Promise<VehicleResponse> {
    const state = vehicle.toState();
    return toVehicleResponse(state, await this.linksOf([state]));
  }

  /** The stations and unions some vehicles link to, fetched in two batched lookups. */
  private async linksOf(
    vehicles: ReadonlyArray<Pick<VehicleState, 'stationId' | 'transportUnionId'>>,
  ): Promise<VehicleLinks> {
    const stationIds = [...new Set(vehicles.flatMap((s) => (s.stationId ? [s.stationId] : [])))];
    const unionIds = [...new Set(vehicles.flatMap((s) => (s.transportUnionId ? [s.transportUnionId] : [])))];
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
