import { assertObjectId, type IdGenerator } from '../shared/id-generator';
import type { DomainEvent } from '../shared/events';
import { requireText } from '../shared/contact';
import { parseGeoPoint, type GeoPoint } from '../shared/geo-point';
import {
  failedInspectionItems,
  parseInspectionChecklist,
  parseInspectionDefects,
  unrecordedInspectionItems,
  type InspectionDefects,
  type InspectionItem,
  type RecordedInspectionChecklist,
} from './inspection-checklist';
import {
  blockingInspectionItems,
  dangerousInspectionItems,
  DEFAULT_DAYS_TO_FIX,
  gradedOutcome,
  parseInspectionAdvisories,
  parseInspectionGrades,
  reinspectionChecklist,
  windowEnd,
  type InspectionAdvisories,
  type InspectionGrades,
} from './inspection-grades';
import type { InspectionRecord } from './inspection-record';
import { boundedNumber, validDate } from '../shared/values';
import {
  MAX_CAPACITY,
  MAX_FUEL_LITRES,
  MAX_WEIGHT_KG,
  normalizeColor,
  normalizeRegistrationNumber,
  normalizeVin,
  parseVehicleType,
  type VehicleType,
} from './vehicle-fields';
import { VehicleErrors } from './vehicle.errors';
import type { Mutable } from '../shared/mutable';
import { transferDestination } from '../assembly/jurisdiction';
import { renewedExpiry } from '../shared/renewal';
import { changedFields, correctionNotAllowed, definedOnly } from '../shared/correction';

/** What a vehicle is registered with. Everything but the owner is optional at registration. */
/** How far ahead of the service's clock an inspector's device may say an inspection was made (its clock's drift). */
export const INSPECTION_CLOCK_SKEW_MS = 5 * 60_000;

export interface VehicleRegistration {
  ownerId: string;
  color?: string;
  registrationNumber?: string;
  make?: string;
  model?: string;
  makeYear?: Date;
  yearOfRegistration?: Date;
  capacity?: number;
  /** Kilograms. */
  grossWeight?: number;
  /** Kilograms. */
  netWeight?: number;
  type?: string;
  /** Litres. */
  fuelCapacity?: number;
  roadWorthyExpiryDate?: Date;
  insuranceExpiryDate?: Date;
  vin?: string;
  /** The assembly it belongs to (placed by the registering caller's jurisdiction); absent: unassigned. */
  assemblyId?: string;
}

/** The whole state of a vehicle, as persisted. Optional fields are absent until the event that sets them. */
export interface VehicleState {
  readonly id: string;
  readonly ownerId: string;
  readonly color?: string;
  readonly registrationNumber?: string;
  readonly make?: string;
  readonly model?: string;
  readonly makeYear?: Date;
  readonly yearOfRegistration?: Date;
  readonly capacity?: number;
  readonly grossWeight?: number;
  readonly netWeight?: number;
  readonly type?: VehicleType;
  readonly fuelCapacity?: number;
  readonly roadWorthyExpiryDate?: Date;
  readonly insuranceExpiryDate?: Date;
  readonly vin?: string;
  readonly inspected: boolean;
  readonly approved: boolean;
  /** An item absent was not recorded (a checklist of an older version, imported): never a pass. */
  readonly inspectionChecklist?: RecordedInspectionChecklist;
  /** The inspector's notes on failed items of the last inspection (absent: none). */
  readonly inspectionDefects?: InspectionDefects;
  /** The grade of each failed item of the last inspection (a failed item without one is `major`). */
  readonly inspectionGrades?: InspectionGrades;
  /** The inspector's advice on items that passed in the last inspection (absent: none). */
  readonly inspectionAdvisories?: InspectionAdvisories;
  /** The last inspection's record in the vehicle's inspection history (absent: recorded before the history). */
  readonly inspectionId?: string;
  /**
   * The end of the window for a free re-inspection of the failed items (a failed inspection, or one an appeal sent
   * back); after it a full inspection is due. Absent: no re-inspection is open.
   */
  readonly reinspectionDueBy?: Date;
  /** An appeal's re-inspection: the inspector who may not make it (the one whose inspection was appealed). */
  readonly reinspectionNotBy?: string;
  readonly inspectedBy?: string;
  /** When the last inspection was made (the inspector's device, when it said; else when it was received). */
  readonly dateInspected?: Date;
  /** When the service received the last inspection (later than dateInspected when it waited on a phone). */
  readonly inspectionReceivedAt?: Date;
  /** Where the last inspection was made, when the inspector's phone sent it (they allowed it); absent: not sent. */
  readonly inspectionLocation?: GeoPoint;
  readonly approvedBy?: string;
  readonly dateApproved?: Date;
  /** Absent: never linked. null: linked once, then unlinked. */
  readonly stationId?: string | null;
  readonly transportUnionId?: string;
  readonly driverId?: string;
  /** Absent: unassigned (visible nationwide only). */
  readonly assemblyId?: string;
  /** Revision (`__v`): the repository refuses to overwrite a newer one. */
  readonly version: number;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/**
 * The fields a correction may change (a misspelt make, a wrong weight, a mistyped plate or VIN). The owner, the
 * assembly and the certificates change through their own acts (transfers, renewals); the rest is the record's history.
 */
export const CORRECTABLE_VEHICLE_FIELDS = [
  'color',
  'registrationNumber',
  'make',
  'model',
  'makeYear',
  'yearOfRegistration',
  'capacity',
  'grossWeight',
  'netWeight',
  'type',
  'fuelCapacity',
  'vin',
] as const;
export type CorrectableVehicleField = (typeof CORRECTABLE_VEHICLE_FIELDS)[number];
export type VehicleCorrection = Partial<Pick<VehicleRegistration, CorrectableVehicleField>>;

/** The parts of a driver that decide whether it may be linked to a vehicle. */
export interface LinkableDriver {
  readonly id: string;
  readonly approved: boolean;
  readonly verified: boolean;
}

export type ComplianceReason =
  | { code: 'NOT_APPROVED' }
  | { code: 'ROADWORTHY_MISSING' }
  | { code: 'ROADWORTHY_EXPIRED'; since: Date }
  | { code: 'INSURANCE_MISSING' }
  | { code: 'INSURANCE_EXPIRED'; since: Date }
  | { code: 'CHECKLIST_FAILED'; items: InspectionItem[] }
  | { code: 'ROADWORTHY_EXPIRING'; on: Date }
  | { code: 'INSURANCE_EXPIRING'; on: Date };

/** Every compliance reason code, for documents and filters (the check below fails to compile if one is missing). */
export const COMPLIANCE_REASON_CODES = [
  'NOT_APPROVED',
  'ROADWORTHY_MISSING',
  'ROADWORTHY_EXPIRED',
  'INSURANCE_MISSING',
  'INSURANCE_EXPIRED',
  'CHECKLIST_FAILED',
  'ROADWORTHY_EXPIRING',
  'INSURANCE_EXPIRING',
] as const satisfies ReadonlyArray<ComplianceReason['code']>;
type MissingComplianceCode = Exclude<ComplianceReason['code'], (typeof COMPLIANCE_REASON_CODES)[number]>;
// A compile-time proof that the list is complete: MissingComplianceCode must be never.
const _everyComplianceCodeListed: [MissingComplianceCode] extends [never] ? true : never = true;
void _everyComplianceCodeListed;

function checkRegistration(
  input: VehicleRegistration,
  at: Date,
): Omit<Mutable<VehicleState>, 'id' | 'inspected' | 'approved' | 'version' | 'createdAt' | 'updatedAt'> {
  const out: Mutable<Partial<VehicleState>> = { ownerId: assertObjectId(input.ownerId, 'ownerID') };
  if (input.color !== undefined) out.color = normalizeColor(input.color);
  if (input.registrationNumber !== undefined)
    out.registrationNumber = normalizeRegistrationNumber(input.registrationNumber);
  if (input.make !== undefined) out.make = requireText(input.make, 'make', 60);
  if (input.model !== undefined) out.model = requireText(input.model, 'model', 60);
  if (input.makeYear !== undefined) out.makeYear = validDate(input.makeYear, 'makeYear');
  if (input.yearOfRegistration !== undefined)
    out.yearOfRegistration = validDate(input.yearOfRegistration, 'yearOfRegistration');
  if (input.capacity !== undefined) out.capacity = boundedNumber(input.capacity, 'capacity', 1, MAX_CAPACITY, true);
  if (input.grossWeight !== undefined)
    out.grossWeight = boundedNumber(input.grossWeight, 'grossWeight', 0, MAX_WEIGHT_KG);
  if (input.netWeight !== undefined) out.netWeight = boundedNumber(input.netWeight, 'netWeight', 0, MAX_WEIGHT_KG);
  if (input.type !== undefined) out.type = parseVehicleType(input.type);
  if (input.fuelCapacity !== undefined)
    out.fuelCapacity = boundedNumber(input.fuelCapacity, 'fuelCapacity', 0, MAX_FUEL_LITRES);
  if (input.roadWorthyExpiryDate !== undefined)
    out.roadWorthyExpiryDate = validDate(input.roadWorthyExpiryDate, 'roadWorthyExpiryDate');
  if (input.insuranceExpiryDate !== undefined)
    out.insuranceExpiryDate = validDate(input.insuranceExpiryDate, 'insuranceExpiryDate');
  if (input.vin !== undefined) out.vin = normalizeVin(input.vin);
  if (input.assemblyId !== undefined) out.assemblyId = assertObjectId(input.assemblyId, 'assembly');

  if (out.netWeight !== undefined && out.grossWeight !== undefined && out.netWeight > out.grossWeight) {
    throw VehicleErrors.netWeightAboveGross();
  }
  if (out.makeYear && out.makeYear > at) throw VehicleErrors.dateInFuture('makeYear');
  if (out.yearOfRegistration && out.yearOfRegistration > at) throw VehicleErrors.dateInFuture('yearOfRegistration');
  if (out.makeYear && out.yearOfRegistration && out.makeYear > out.yearOfRegistration) {
    throw VehicleErrors.makeYearAfterRegistration();
  }
  return out as Omit<Mutable<VehicleState>, 'id' | 'inspected' | 'approved' | 'version' | 'createdAt' | 'updatedAt'>;
}

/**
 * A vehicle: registered, inspected against the ten-item checklist, approved by an assembly, then linked to a driver,
 * a station and a transport union. Invariants: approved implies inspected with every item passed; a linked driver
 * implies an approved vehicle.
 */
/**
 * What every stored vehicle holds, however it got there (approve() and linkDriver() make it so; an import of another
 * service's records checks it): an approved vehicle was inspected and passed every item, and only an approved
 * vehicle has a driver.
 */
export function assertVehicleConsistent(
  s: Pick<VehicleState, 'inspected' | 'approved' | 'inspectionChecklist' | 'inspectionGrades' | 'driverId'>,
): void {
  if (s.approved && !s.inspected) throw VehicleErrors.notInspected();
  const failed =
    s.approved && s.inspectionChecklist ? blockingInspectionItems(s.inspectionChecklist, s.inspectionGrades) : [];
  if (failed.length > 0) throw VehicleErrors.inspectionFailed(failed);
  if (s.driverId && !s.approved) throw VehicleErrors.notApproved();
}

/** When and where the inspector's device says an inspection was made, and the oldest the service accepts. */
export interface InspectionMade {
  at?: Date;
  where?: unknown;
  earliest: Date;
  maxAgeHours: number;
}

/** What an inspection carries beyond its checklist and notes (all optional: an older client sends none of it). */
export interface InspectionDetails {
  /** A grade per failed item (parseInspectionGrades); none: every failed item is `major`. */
  grades?: unknown;
  /** Advice on items that passed (parseInspectionAdvisories). */
  advisories?: unknown;
  /** The assembly's days to fix majors (DEFAULT_DAYS_TO_FIX). */
  daysToFix?: number;
  /** This inspection's id in the vehicle's inspection history; without one, no record is made. */
  inspectionId?: string;
  /** The request's idempotency key, kept with the record (later evidence joins the inspection by it). */
  idempotencyKey?: string;
}

function setOrDelete<K extends keyof VehicleState>(s: Mutable<VehicleState>, key: K, value: VehicleState[K]): void {
  if (value === undefined) delete s[key];
  else s[key] = value as Mutable<VehicleState>[K];
}

export class Vehicle {
  private events: DomainEvent[] = [];
  private lastInspection?: InspectionRecord;

  private constructor(private state: Mutable<VehicleState>) {}

  static register(input: VehicleRegistration, ids: IdGenerator, at: Date): Vehicle {
    const fields = checkRegistration(input, at);
    const vehicle = new Vehicle({
      ...fields,
      id: ids.next(),
      inspected: false,
      approved: false,
      version: 0,
      createdAt: at,
      updatedAt: at,
    });
    vehicle.record('VehicleRegistered', at);
    return vehicle;
  }

  /** Rebuilds a stored vehicle. Trusts its input: the repository's mapping checks rows. */
  static restore(state: VehicleState): Vehicle {
    return new Vehicle({ ...state });
  }

  get id(): string {
    return this.state.id;
  }
  get approved(): boolean {
    return this.state.approved;
  }
  get inspected(): boolean {
    return this.state.inspected;
  }
  get version(): number {
    return this.state.version;
  }

  toState(): VehicleState {
    return { ...this.state };
  }

  /** Events recorded since the last call, oldest first. */
  pullEvents(): DomainEvent[] {
    const out = this.events;
    this.events = [];
    return out;
  }

  /**
   * Records an inspection received at `at`: all ten items, a defect note per failed item that needs one, and (in
   * `details`) a grade per failed item (none: every failed item is `major`) and advice on passed items. The grades
   * decide the outcome (gradedOutcome): a failed one opens a window of `details.daysToFix` days for a free
   * re-inspection; a failed or prohibited one withdraws an approval (and unlinks the driver, since only approved
   * vehicles carry drivers); minor defects alone leave an approval standing.
   * `made` is when the inspector's device says it was made (a phone that kept it without a signal sends it later): a
   * little ahead of `at` is a device's clock (INSPECTION_CLOCK_SKEW_MS), more is refused, and so is a time before
   * `made.earliest` (the bound the service sets).
   */
  inspect(
    rawChecklist: unknown,
    inspectorId: string,
    at: Date,
    rawDefects?: unknown,
    made?: InspectionMade,
    details: InspectionDetails = {},
  ): void {
    const checklist = parseInspectionChecklist(rawChecklist);
    this.recordInspection('inspection', checklist, inspectorId, at, rawDefects, made, details);
  }

  /**
   * Records a re-inspection of the items the last inspection failed (only those: `rawResults` gives each of them,
   * true or false; the items that passed stand). Open while `reinspectionDueBy` has not passed when it was made (a
   * failed inspection's window, or one an appeal sent back, then never by the inspector appealed against); after the
   * window a full inspection is due. It is linked to the inspection it follows and opens no new window: failing it
   * again, a full inspection is due.
   */
  reinspect(
    rawResults: unknown,
    inspectorId: string,
    at: Date,
    rawDefects?: unknown,
    made?: InspectionMade,
    details: InspectionDetails = {},
  ): void {
    const s = this.state;
    if (!s.inspectionChecklist || !s.reinspectionDueBy) throw VehicleErrors.reinspectionNotOpen();
    if (s.reinspectionNotBy === inspectorId) throw VehicleErrors.reinspectorTookPart();
    if ((made?.at ?? at) > s.reinspectionDueBy) throw VehicleErrors.reinspectionWindowClosed();
    const checklist = reinspectionChecklist(s.inspectionChecklist, rawResults);
    this.recordInspection('reinspection', checklist, inspectorId, at, rawDefects, made, details);
  }

  /**
   * An appeal decided for a re-inspection: the items `inspectionId` failed are re-inspected, free, by an inspector
   * other than `notBy`, within `daysToFix` days from `at`. Only the vehicle's last inspection can be sent back (a
   * later inspection replaced it: INSPECTION_SUPERSEDED).
   */
  orderReinspection(inspectionId: string, notBy: string, at: Date, daysToFix: number = DEFAULT_DAYS_TO_FIX): void {
    const s = this.state;
    if (s.inspectionId !== inspectionId) throw VehicleErrors.inspectionSuperseded();
    s.reinspectionDueBy = windowEnd(at, daysToFix);
    s.reinspectionNotBy = notBy;
    s.updatedAt = at;
    this.record('VehicleReinspectionOrdered', at, {
      inspection: inspectionId,
      reinspectionDueBy: s.reinspectionDueBy,
      notBy,
    });
  }

  /** The inspection recorded by the last inspect() or reinspect() of this object, as its history keeps it. */
  recordedInspection(): InspectionRecord | undefined {
    return this.lastInspection;
  }

  private recordInspection(
    kind: InspectionRecord['kind'],
    checklist: RecordedInspectionChecklist,
    inspectorId: string,
    at: Date,
    rawDefects: unknown,
    made: InspectionMade | undefined,
    details: InspectionDetails,
  ): void {
    const defects = parseInspectionDefects(rawDefects, checklist);
    const grades = parseInspectionGrades(details.grades, checklist);
    const advisories = parseInspectionAdvisories(details.advisories, checklist);
    assertObjectId(inspectorId, 'inspectedBy');
    const madeAt = made?.at ?? at;
    if (madeAt.getTime() > at.getTime() + INSPECTION_CLOCK_SKEW_MS) throw VehicleErrors.madeInFuture();
    if (made && madeAt < made.earliest) throw VehicleErrors.madeTooLongAgo(made.maxAgeHours);
    const where = made?.where === undefined ? undefined : parseGeoPoint(made.where, 'madeWhere');
    const failed = failedInspectionItems(checklist);
    const outcome = gradedOutcome(checklist, grades);
    const s = this.state;
    const reinspectionOf = kind === 'reinspection' ? s.inspectionId : undefined;
    s.inspected = true;
    s.inspectionChecklist = checklist;
    // The notes, grades and advice belong to this inspection: an earlier one's go with it.
    setOrDelete(s, 'inspectionDefects', Object.keys(defects).length > 0 ? defects : undefined);
    setOrDelete(s, 'inspectionGrades', Object.keys(grades).length > 0 ? grades : undefined);
    setOrDelete(s, 'inspectionAdvisories', Object.keys(advisories).length > 0 ? advisories : undefined);
    setOrDelete(s, 'inspectionId', details.inspectionId);
    setOrDelete(
      s,
      'reinspectionDueBy',
      kind === 'inspection' && outcome === 'failed'
        ? windowEnd(madeAt, details.daysToFix ?? DEFAULT_DAYS_TO_FIX)
        : undefined,
    );
    delete s.reinspectionNotBy;
    s.inspectedBy = inspectorId;
    s.dateInspected = madeAt;
    s.inspectionReceivedAt = at;
    // The place belongs to this inspection: an earlier one's goes with it.
    setOrDelete(s, 'inspectionLocation', where);
    s.updatedAt = at;
    this.lastInspection = details.inspectionId
      ? (definedOnly({
          id: details.inspectionId,
          vehicleId: s.id,
          kind,
          reinspectionOf,
          checklist,
          grades,
          defects,
          advisories,
          outcome,
          inspectorId,
          madeAt,
          receivedAt: at,
          location: where,
          reinspectionDueBy: s.reinspectionDueBy,
          idempotencyKey: details.idempotencyKey,
        }) as InspectionRecord)
      : undefined;
    this.record(kind === 'inspection' ? 'VehicleInspected' : 'VehicleReinspected', at, {
      failedItems: failed,
      grades,
      outcome,
      ...(reinspectionOf ? { reinspectionOf } : {}),
      ...(s.reinspectionDueBy ? { reinspectionDueBy: s.reinspectionDueBy } : {}),
    });
    if (s.approved && (outcome === 'failed' || outcome === 'prohibited')) {
      const unlinkedDriver = s.driverId;
      s.approved = false;
      delete s.approvedBy;
      delete s.dateApproved;
      delete s.driverId;
      this.record('VehicleApprovalWithdrawn', at, {
        failedItems: blockingInspectionItems(checklist, grades),
        outcome,
        unlinkedDriver,
      });
    }
  }

  approve(approverId: string, at: Date): void {
    assertObjectId(approverId, 'approvedBy');
    const s = this.state;
    if (s.approved) throw VehicleErrors.alreadyApproved();
    if (!s.inspected || !s.inspectionChecklist) throw VehicleErrors.notInspected();
    if (s.inspectedBy === approverId) throw VehicleErrors.approverIsInspector();
    const dangerous = dangerousInspectionItems(s.inspectionChecklist, s.inspectionGrades);
    if (dangerous.length > 0) throw VehicleErrors.useProhibited(dangerous);
    // Minor defects alone do not stop approval (the owner is advised); any other failed item does.
    const failed = blockingInspectionItems(s.inspectionChecklist, s.inspectionGrades);
    if (failed.length > 0) throw VehicleErrors.inspectionFailed(failed);
    const unrecorded = unrecordedInspectionItems(s.inspectionChecklist);
    if (unrecorded.length > 0) throw VehicleErrors.inspectionIncomplete(unrecorded);
    if (!s.registrationNumber) throw VehicleErrors.registrationNumberMissing();
    if (!s.roadWorthyExpiryDate) throw VehicleErrors.roadWorthyMissing();
    if (s.roadWorthyExpiryDate <= at) throw VehicleErrors.roadWorthyExpired();
    if (!s.insuranceExpiryDate) throw VehicleErrors.insuranceMissing();
    if (s.insuranceExpiryDate <= at) throw VehicleErrors.insuranceExpired();
    s.approved = true;
    s.approvedBy = approverId;
    s.dateApproved = at;
    s.updatedAt = at;
    this.record('VehicleApproved', at, { approvedBy: approverId });
  }

  /** A vehicle has at most one driver: linking another replaces it. */
  linkDriver(driver: LinkableDriver, at: Date): void {
    if (!this.state.approved) throw VehicleErrors.notApproved();
    if (!driver.approved || !driver.verified) throw VehicleErrors.driverNotEligible();
    const previous = this.state.driverId;
    this.state.driverId = driver.id;
    this.state.updatedAt = at;
    this.record('VehicleDriverLinked', at, { driver: driver.id, previous });
  }

  /** Unlinking a vehicle with no driver changes nothing and returns false. */
  unlinkDriver(at: Date): boolean {
    const previous = this.state.driverId;
    if (!previous) return false;
    delete this.state.driverId;
    this.state.updatedAt = at;
    this.record('VehicleDriverUnlinked', at, { previous });
    return true;
  }

  /** null unlinks: the vehicle then shows `station: null`. */
  linkStation(stationId: string | null, at: Date): void {
    this.state.stationId = stationId === null ? null : assertObjectId(stationId, 'station');
    this.state.updatedAt = at;
    this.record('VehicleStationLinked', at, { station: this.state.stationId });
  }

  linkTransportUnion(unionId: string, at: Date): void {
    this.state.transportUnionId = assertObjectId(unionId, 'transportUnion');
    this.state.updatedAt = at;
    this.record('VehicleTransportUnionLinked', at, { transportUnion: unionId });
  }

  /** Moves the vehicle to another assembly, links and approval as they are (an admin's explicit act). */
  transferTo(assemblyId: string, at: Date): void {
    const from = this.state.assemblyId ?? null;
    this.state.assemblyId = transferDestination(this.state, assemblyId);
    this.state.updatedAt = at;
    this.record('VehicleTransferred', at, { from, to: this.state.assemblyId });
  }

  /**
   * Corrects registration fields, checked as at registration (and together: a corrected net weight must still fit
   * the gross weight). Returns the fields that changed; a correction that changes nothing records nothing.
   * On an approved vehicle: the VIN is refused (CORRECTION_NOT_ALLOWED: it names the physical vehicle; register that
   * one instead), and a new registration number withdraws the approval (and unlinks the driver) until an approver
   * approves again (a new plate is a new registration); every other field is a plain correction.
   */
  correct(changes: VehicleCorrection, at: Date): CorrectableVehicleField[] {
    const s = this.state;
    const current = Object.fromEntries(CORRECTABLE_VEHICLE_FIELDS.map((f) => [f, s[f]])) as VehicleCorrection;
    const merged = checkRegistration({ ...current, ...definedOnly(changes), ownerId: s.ownerId }, at);
    const changed = changedFields(CORRECTABLE_VEHICLE_FIELDS, changes, merged, s);
    if (changed.length === 0) return [];
    if (s.approved && changed.includes('vin'))
      throw correctionNotAllowed(
        'vin',
        'on an approved vehicle: it identifies the vehicle itself; register the other vehicle instead',
      );
    const withdraw = s.approved && changed.includes('registrationNumber');
    for (const field of changed) (s as Record<string, unknown>)[field] = merged[field];
    s.updatedAt = at;
    this.record('VehicleCorrected', at, { fields: changed });
    if (withdraw) {
      const unlinkedDriver = s.driverId;
      s.approved = false;
      delete s.approvedBy;
      delete s.dateApproved;
      delete s.driverId;
      this.record('VehicleApprovalWithdrawn', at, { reason: 'registrationNumber corrected', unlinkedDriver });
    }
    return changed;
  }

  /**
   * Records a renewed (or first) roadworthy certificate: its expiry must be ahead and later than the current one
   * (shared/renewal.ts). This is how a vehicle registered without documents gets them before approval.
   */
  renewRoadworthy(expiry: Date, at: Date): void {
    const previous = this.state.roadWorthyExpiryDate;
    this.state.roadWorthyExpiryDate = renewedExpiry(previous, expiry, 'roadWorthyExpiryDate', at);
    this.state.updatedAt = at;
    this.record('VehicleRoadworthyRenewed', at, { expiry: this.state.roadWorthyExpiryDate, previous });
  }

  /** Records a renewed (or first) insurance policy, under the same rule as the roadworthy certificate. */
  renewInsurance(expiry: Date, at: Date): void {
    const previous = this.state.insuranceExpiryDate;
    this.state.insuranceExpiryDate = renewedExpiry(previous, expiry, 'insuranceExpiryDate', at);
    this.state.updatedAt = at;
    this.record('VehicleInsuranceRenewed', at, { expiry: this.state.insuranceExpiryDate, previous });
  }

  /** Why this vehicle may not operate at `date`; empty when it may. */
  complianceAt(date: Date): ComplianceReason[] {
    const s = this.state;
    const reasons: ComplianceReason[] = [];
    if (!s.approved) reasons.push({ code: 'NOT_APPROVED' });
    if (!s.roadWorthyExpiryDate) reasons.push({ code: 'ROADWORTHY_MISSING' });
    else if (s.roadWorthyExpiryDate <= date)
      reasons.push({ code: 'ROADWORTHY_EXPIRED', since: s.roadWorthyExpiryDate });
    if (!s.insuranceExpiryDate) reasons.push({ code: 'INSURANCE_MISSING' });
    else if (s.insuranceExpiryDate <= date) reasons.push({ code: 'INSURANCE_EXPIRED', since: s.insuranceExpiryDate });
    const failed = s.inspectionChecklist ? blockingInspectionItems(s.inspectionChecklist, s.inspectionGrades) : [];
    if (failed.length > 0) reasons.push({ code: 'CHECKLIST_FAILED', items: failed });
    return reasons;
  }

  /**
   * What stops the vehicle operating now, plus the certificates that end after `now` but before `horizon`: the
   * assembly's "expired or expiring" list.
   */
  complianceOutlook(now: Date, horizon: Date): ComplianceReason[] {
    const reasons = this.complianceAt(now);
    const { roadWorthyExpiryDate: roadWorthy, insuranceExpiryDate: insurance } = this.state;
    if (roadWorthy && roadWorthy > now && roadWorthy < horizon)
      reasons.push({ code: 'ROADWORTHY_EXPIRING', on: roadWorthy });
    if (insurance && insurance > now && insurance < horizon)
      reasons.push({ code: 'INSURANCE_EXPIRING', on: insurance });
    return reasons;
  }

  private record(type: string, at: Date, data?: Record<string, unknown>): void {
    this.events.push({ type, aggregateId: this.state.id, at, data });
  }
}
