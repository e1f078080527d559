import type { CsvList } from '../core/http/csv-export';
import { ApiExtraModels, ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ApiNullableObject } from '../core/http/openapi';
import {
  COMPLIANCE_REASON_CODES,
  DEFECT_GRADES,
  gradedOutcome,
  INSPECTION_OUTCOMES,
  VEHICLE_TYPES,
  type ComplianceReason,
  type InspectionRecord,
  type StationState,
  type TransportUnionState,
  type VehicleState,
  type VehicleSummary,
} from '@transport/domain';
import type { VehiclePublicField } from '../core/auth/views';
import { DATE, ID, iso } from '../core/http/dto-support';
import { AssemblyOfRecord } from '../core/http/jurisdiction.dto';
import { RecordResponse } from '../core/http/record-response';
import {
  StationResponse,
  TransportUnionResponse,
  toStationResponse,
  toTransportUnionResponse,
} from '../reference-data/reference-data.dto';
import { RecordedInspectionChecklistResponse } from './inspection-checklist.dto';

// Responses of the /vehicles routes and their CSV exports, declared once: the OpenAPI document, the types and the
// mapping from the domain's state.

/** The Vehicle of the interface document; fields marked "present once..." are absent, never null, until then. */
@ApiExtraModels(StationResponse)
export class VehicleResponse extends RecordResponse {
  @ApiProperty({ ...ID }) ownerID!: string;
  @ApiPropertyOptional({ example: '#FFD700' }) color?: string;
  @ApiPropertyOptional({ example: 'GR 1234-24' }) registrationNumber?: string;
  @ApiPropertyOptional({ example: 'Toyota' }) make?: string;
  @ApiPropertyOptional({ example: 'Corolla' }) model?: string;
  @ApiPropertyOptional({ ...DATE }) makeYear?: string;
  @ApiPropertyOptional({ ...DATE }) yearOfRegistration?: string;
  @ApiPropertyOptional({ description: 'Seats.', example: 4 }) capacity?: number;
  @ApiPropertyOptional({ description: 'Kilograms.', example: 1700 }) grossWeight?: number;
  @ApiPropertyOptional({ description: 'Kilograms.', example: 1300 }) netWeight?: number;
  @ApiPropertyOptional({ enum: VEHICLE_TYPES }) type?: string;
  @ApiPropertyOptional({ description: 'Litres.', example: 50 }) fuelCapacity?: number;
  @ApiPropertyOptional({ ...DATE }) roadWorthyExpiryDate?: string;
  @ApiPropertyOptional({ ...DATE }) insuranceExpiryDate?: string;
  @ApiPropertyOptional({ example: '1HGCM82633A004352' }) vin?: string;
  @ApiProperty() inspected!: boolean;
  @ApiProperty() approved!: boolean;
  @ApiPropertyOptional({
    type: RecordedInspectionChecklistResponse,
    description:
      'Present on inspected vehicles. An item absent was not recorded (an imported vehicle inspected on an older checklist).',
  })
  inspectionChecklist?: Record<string, boolean>;
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string' },
    description: "The inspector's note on each failed item of the last inspection that has one; absent when none.",
    example: { brakes: 'Front brake pads worn through' },
  })
  inspectionDefects?: Record<string, string>;
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string', enum: [...DEFECT_GRADES] },
    description:
      'The grade of each failed item of the last inspection: `dangerous` (use prohibited), `major` (failed, days to fix), `minor` (passes with advice). An inspection recorded before grades, or sent without them, has every failed item `major`. Absent when no item failed.',
    example: { brakes: 'major' },
  })
  inspectionGrades?: Record<string, string>;
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string' },
    description: "The inspector's advice on items that passed in the last inspection; absent when none.",
    example: { headlights: 'Lens cloudy: clean or replace soon' },
  })
  inspectionAdvisories?: Record<string, string>;
  @ApiPropertyOptional({
    enum: INSPECTION_OUTCOMES,
    description:
      'What the last inspection decided (docs/api.md, "Inspections: grades, re-inspection and appeal"): `passed`, `passedWithAdvice` (minor defects only: approvable), `failed` (a major defect: not approvable, free re-inspection within the window), `prohibited` (a dangerous defect: not approvable, approval withdrawn), `incomplete` (an imported checklist with items not recorded). Present on inspected vehicles.',
  })
  inspectionOutcome?: string;
  @ApiPropertyOptional({
    ...ID,
    description:
      "The last inspection's id in the vehicle's inspection history (GET /vehicles/{id}/inspections); absent for one recorded before the history was kept.",
  })
  inspectionId?: string;
  @ApiPropertyOptional({
    ...DATE,
    description:
      'While a free re-inspection of the failed items is open (POST /vehicles/{id}/reinspect): when its window ends; after it a full inspection is due. Absent when none is open.',
  })
  reinspectionDueBy?: string;
  @ApiPropertyOptional({ ...ID, description: 'Present on approved vehicles.' }) approvedBy?: string;
  @ApiPropertyOptional({ ...DATE, description: 'Present on approved vehicles.' }) dateApproved?: string;
  @ApiPropertyOptional({ ...ID, description: 'Present on inspected vehicles.' }) inspectedBy?: string;
  @ApiPropertyOptional({ ...DATE, description: 'Present on inspected vehicles.' }) dateInspected?: string;
  @ApiNullableObject(StationResponse, { description: 'Present once linked; null once unlinked.', required: false })
  station?: StationResponse | null;
  @ApiPropertyOptional({ type: TransportUnionResponse, description: 'Present once linked.' })
  transportUnion?: TransportUnionResponse;
  @ApiPropertyOptional({ ...ID, description: 'Present once a driver is linked.' }) driver?: string;
  @AssemblyOfRecord() assembly?: string | null;
}

/** Linked records the vehicle response embeds, looked up by id. */
export interface VehicleLinks {
  stations: ReadonlyMap<string, StationState>;
  unions: ReadonlyMap<string, TransportUnionState>;
}

export function toVehicleResponse(v: VehicleState, links: VehicleLinks): VehicleResponse {
  const out: VehicleResponse = {
    _id: v.id,
    ownerID: v.ownerId,
    color: v.color,
    registrationNumber: v.registrationNumber,
    make: v.make,
    model: v.model,
    makeYear: iso(v.makeYear),
    yearOfRegistration: iso(v.yearOfRegistration),
    capacity: v.capacity,
    grossWeight: v.grossWeight,
    netWeight: v.netWeight,
    type: v.type,
    fuelCapacity: v.fuelCapacity,
    roadWorthyExpiryDate: iso(v.roadWorthyExpiryDate),
    insuranceExpiryDate: iso(v.insuranceExpiryDate),
    vin: v.vin,
    inspected: v.inspected,
    approved: v.approved,
    inspectionChecklist: v.inspectionChecklist ? { ...v.inspectionChecklist } : undefined,
    inspectionDefects: v.inspectionDefects ? { ...v.inspectionDefects } : undefined,
    inspectionGrades: v.inspectionGrades ? { ...v.inspectionGrades } : undefined,
    inspectionAdvisories: v.inspectionAdvisories ? { ...v.inspectionAdvisories } : undefined,
    inspectionOutcome: v.inspectionChecklist ? gradedOutcome(v.inspectionChecklist, v.inspectionGrades) : undefined,
    inspectionId: v.inspectionId,
    reinspectionDueBy: iso(v.reinspectionDueBy),
    approvedBy: v.approvedBy,
    dateApproved: iso(v.dateApproved),
    inspectedBy: v.inspectedBy,
    dateInspected: iso(v.dateInspected),
    driver: v.driverId,
    assembly: v.assemblyId ?? null,
    createdAt: v.createdAt.toISOString(),
    updatedAt: v.updatedAt.toISOString(),
    __v: v.version,
  };
  return withLinks(out, v, links);
}

/** The station (null once unlinked) and union a vehicle links to, embedded in its response. */
function withLinks<R extends VehicleSummaryResponse>(
  out: R,
  v: Pick<VehicleState, 'stationId' | 'transportUnionId'>,
  links: VehicleLinks,
): R {
  if (v.stationId !== undefined) {
    const station = v.stationId === null ? undefined : links.stations.get(v.stationId);
    out.station = station ? toStationResponse(station) : null;
  }
  const union = v.transportUnionId === undefined ? undefined : links.unions.get(v.transportUnionId);
  if (union) out.transportUnion = toTransportUnionResponse(union);
  return out;
}

/** What the public sees of a vehicle (core/auth/views.ts, VEHICLE_PUBLIC_FIELDS): the fields of its summary. */
export type VehicleSummaryResponse = Pick<VehicleResponse, VehiclePublicField>;

export function toVehicleSummaryResponse(v: VehicleSummary, links: VehicleLinks): VehicleSummaryResponse {
  const out: VehicleSummaryResponse = {
    _id: v.id,
    registrationNumber: v.registrationNumber,
    make: v.make,
    model: v.model,
    color: v.color,
    type: v.type,
    capacity: v.capacity,
    inspected: v.inspected,
    approved: v.approved,
    createdAt: v.createdAt.toISOString(),
    updatedAt: v.updatedAt.toISOString(),
    __v: v.version,
  };
  return withLinks(out, v, links);
}

export class ComplianceReasonResponse {
  @ApiProperty({ enum: COMPLIANCE_REASON_CODES }) code!: string;
  @ApiPropertyOptional({ ...DATE, description: 'When the certificate ended or ends.' }) date?: string;
  @ApiPropertyOptional({ type: [String], description: 'Failed checklist items.' }) items?: string[];
}

export class ComplianceEntryResponse {
  @ApiProperty({ type: VehicleResponse }) vehicle!: VehicleResponse;
  @ApiProperty({ type: [ComplianceReasonResponse] }) reasons!: ComplianceReasonResponse[];
}

export function toComplianceReason(reason: ComplianceReason): ComplianceReasonResponse {
  if ('since' in reason) return { code: reason.code, date: reason.since.toISOString() };
  if ('on' in reason) return { code: reason.code, date: reason.on.toISOString() };
  if ('items' in reason) return { code: reason.code, items: reason.items };
  return { code: reason.code };
}

const VEHICLE_COLUMNS = [
  '_id',
  'registrationNumber',
  'make',
  'model',
  'color',
  'type',
  'capacity',
  'makeYear',
  'vin',
  'ownerID',
  'inspected',
  'approved',
  'roadWorthyExpiryDate',
  'insuranceExpiryDate',
  'driver',
  'station._id',
  'station.name',
  'transportUnion._id',
  'transportUnion.name',
  'assembly',
  'createdAt',
] as const;

/** The vehicles export (Accept: text/csv on GET /vehicles/all): one row per vehicle, in the caller's view. */
export const VEHICLE_CSV: CsvList = { filename: 'vehicles.csv', view: 'vehicle', columns: VEHICLE_COLUMNS };

/** The compliance export (Accept: text/csv on GET /vehicles/compliance): the vehicle, then its reasons and dates. */
export const COMPLIANCE_CSV: CsvList = {
  filename: 'compliance.csv',
  view: 'vehicle',
  place: 'vehicle',
  columns: [
    ...VEHICLE_COLUMNS.filter((c) => c !== 'createdAt').map((c) => `vehicle.${c}`),
    'reasons.code',
    'reasons.date',
    'reasons.items',
  ],
};

/** An appeal of an inspection, as its history shows it. */
export class InspectionAppealResponse {
  @ApiProperty({ ...ID, description: 'The assembly user who lodged it for the owner.' }) lodgedBy!: string;
  @ApiProperty({ ...DATE }) lodgedAt!: string;
  @ApiProperty({ example: 'The owner says the brakes were repaired the day before' }) grounds!: string;
  @ApiPropertyOptional({ ...ID, description: 'The approver who decided it (present once decided).' })
  decidedBy?: string;
  @ApiPropertyOptional({ ...DATE }) decidedAt?: string;
  @ApiPropertyOptional({
    enum: ['upheld', 'reinspection'],
    description:
      '`upheld`: the inspection stands; `reinspection`: another inspector re-inspects the failed items, free.',
  })
  decision?: string;
}

/** One inspection in a vehicle's history. */
export class InspectionRecordResponse {
  @ApiProperty({ ...ID }) _id!: string;
  @ApiProperty({ ...ID }) vehicle!: string;
  @ApiProperty({ enum: ['inspection', 'reinspection'] }) kind!: string;
  @ApiPropertyOptional({ ...ID, description: 'A re-inspection: the inspection it follows.' }) reinspectionOf?: string;
  @ApiProperty({ type: RecordedInspectionChecklistResponse }) inspectionChecklist!: Record<string, boolean>;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string', enum: [...DEFECT_GRADES] } })
  grades!: Record<string, string>;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' } }) defects!: Record<string, string>;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' } }) advisories!: Record<string, string>;
  @ApiProperty({ enum: INSPECTION_OUTCOMES }) outcome!: string;
  @ApiProperty({ ...ID }) inspectedBy!: string;
  @ApiProperty({ ...DATE, description: 'When it was made (the inspector device says).' }) madeAt!: string;
  @ApiProperty({ ...DATE }) receivedAt!: string;
  @ApiPropertyOptional({ ...DATE, description: 'A failed inspection: the end of its re-inspection window.' })
  reinspectionDueBy?: string;
  @ApiPropertyOptional({ description: 'The Idempotency-Key of the request that recorded it.' }) idempotencyKey?: string;
  @ApiPropertyOptional({ type: InspectionAppealResponse }) appeal?: InspectionAppealResponse;
}

export function toInspectionRecordResponse(r: InspectionRecord): InspectionRecordResponse {
  return {
    _id: r.id,
    vehicle: r.vehicleId,
    kind: r.kind,
    reinspectionOf: r.reinspectionOf,
    inspectionChecklist: { ...r.checklist },
    grades: { ...r.grades },
    defects: { ...r.defects },
    advisories: { ...r.advisories },
    outcome: r.outcome,
    inspectedBy: r.inspectorId,
    madeAt: r.madeAt.toISOString(),
    receivedAt: r.receivedAt.toISOString(),
    reinspectionDueBy: iso(r.reinspectionDueBy),
    idempotencyKey: r.idempotencyKey,
    appeal: r.appeal
      ? {
          lodgedBy: r.appeal.lodgedBy,
          lodgedAt: r.appeal.lodgedAt.toISOString(),
          grounds: r.appeal.grounds,
          decidedBy: r.appeal.decidedBy,
          decidedAt: iso(r.appeal.decidedAt),
          decision: r.appeal.decision,
        }
      : undefined,
  };
}
