import type { CsvList } from '../core/http/csv-export';
import { ApiProperty, ApiPropertyOptional, PartialType, PickType } from '@nestjs/swagger';
import {
  IsDate,
  IsIn,
  IsInt,
  IsNumber,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateIf,
} from 'class-validator';
import {
  COMPLIANCE_REASON_CODES,
  DEFECT_NOTE_MAX,
  INSPECTION_ITEMS,
  MAX_CAPACITY,
  MAX_FUEL_LITRES,
  MAX_WEIGHT_KG,
  VEHICLE_TYPES,
  type ComplianceReason,
  type StationState,
  type TransportUnionState,
  type VehicleState,
  type VehicleSummary,
  CORRECTABLE_VEHICLE_FIELDS,
} from '@transport/domain';
import { DATE, ID, idMessage, iso, OBJECT_ID, withoutUndefined, ToDate } from '../core/http/dto-support';
import { AssemblyOfNewRecord, AssemblyOfRecord } from '../core/http/jurisdiction.dto';
import { RecordResponse } from '../core/http/record-response';
import {
  StationResponse,
  TransportUnionResponse,
  toStationResponse,
  toTransportUnionResponse,
} from '../reference-data/reference-data.dto';

// Requests and responses of the /vehicles routes, declared once: validation, the OpenAPI document and the types.

const ISO = 'an ISO 8601 date or date-time';

/** Body of POST /vehicles/add. Server-owned fields (_id, inspected, approved, approvedBy, ...) are refused with 400. */
export class AddVehicleBody {
  @ApiProperty({
    description: 'The `_id` of an existing vehicle owner (find it with GET /vehicles/owner/search).',
    example: '65a1b2c3d4e5f60718293a4b',
  })
  @Matches(/^[0-9a-f]{24}$/, { message: 'ownerID must be a 24-character lowercase hex id' })
  ownerID!: string;

  @AssemblyOfNewRecord("the assembly of the registering assembly key; for an admin, the owner's assembly.")
  assembly?: string;

  @ApiPropertyOptional({ description: 'Hex colour, #RGB or #RRGGBB.', example: '#FFD700' })
  @IsOptional()
  @IsString()
  @MaxLength(7)
  color?: string;

  @ApiPropertyOptional({ description: 'Stored upper-case with single spaces; unique.', example: 'GR 1234-24' })
  @IsOptional()
  @IsString()
  @MinLength(2)
  @MaxLength(40)
  registrationNumber?: string;

  @ApiPropertyOptional({ example: 'Toyota' }) @IsOptional() @IsString() @MaxLength(60) make?: string;
  @ApiPropertyOptional({ example: 'Corolla' }) @IsOptional() @IsString() @MaxLength(60) model?: string;

  @ApiPropertyOptional({
    description: `Year of manufacture, ${ISO}; not after yearOfRegistration, not in the future.`,
    example: '2017-01-01T00:00:00.000Z',
  })
  @IsOptional()
  @ToDate()
  @IsDate({ message: `makeYear must be ${ISO}` })
  makeYear?: Date;

  @ApiPropertyOptional({ description: `${ISO}; not in the future.`, example: '2018-03-15T00:00:00.000Z' })
  @IsOptional()
  @ToDate()
  @IsDate({ message: `yearOfRegistration must be ${ISO}` })
  yearOfRegistration?: Date;

  @ApiPropertyOptional({ description: 'Seats.', minimum: 1, maximum: MAX_CAPACITY, example: 4 })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_CAPACITY)
  capacity?: number;

  @ApiPropertyOptional({ description: 'Kilograms.', minimum: 0, maximum: MAX_WEIGHT_KG, example: 1700 })
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(MAX_WEIGHT_KG)
  grossWeight?: number;

  @ApiPropertyOptional({
    description: 'Kilograms; not more than grossWeight.',
    minimum: 0,
    maximum: MAX_WEIGHT_KG,
    example: 1300,
  })
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(MAX_WEIGHT_KG)
  netWeight?: number;

  @ApiPropertyOptional({ enum: VEHICLE_TYPES, example: 'taxi' })
  @IsOptional()
  @IsIn(VEHICLE_TYPES as unknown as string[])
  type?: string;

  @ApiPropertyOptional({ description: 'Litres.', minimum: 0, maximum: MAX_FUEL_LITRES, example: 50 })
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(MAX_FUEL_LITRES)
  fuelCapacity?: number;

  @ApiPropertyOptional({
    description: `${ISO}. Needed, and in the future, for approval.`,
    example: '2027-06-30T00:00:00.000Z',
  })
  @IsOptional()
  @ToDate()
  @IsDate({ message: `roadWorthyExpiryDate must be ${ISO}` })
  roadWorthyExpiryDate?: Date;

  @ApiPropertyOptional({
    description: `${ISO}. Needed, and in the future, for approval.`,
    example: '2027-06-30T00:00:00.000Z',
  })
  @IsOptional()
  @ToDate()
  @IsDate({ message: `insuranceExpiryDate must be ${ISO}` })
  insuranceExpiryDate?: Date;

  @ApiPropertyOptional({ description: '17 characters (ISO 3779: no I, O or Q).', example: '1HGCM82633A004352' })
  @IsOptional()
  @IsString()
  @MaxLength(17)
  vin?: string;
}

export class InspectBody {
  @ApiProperty({
    // The same ten items the answers carry (declared below, hence the lazy reference).
    type: () => InspectionChecklistResponse,
    description: 'All ten items, each true (passed) or false (failed). A failed item is recorded, not refused.',
    example: Object.fromEntries(INSPECTION_ITEMS.map((item) => [item, item !== 'brakes'])),
  })
  @IsObject()
  inspectionChecklist!: Record<string, unknown>;
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string', maxLength: DEFECT_NOTE_MAX },
    description:
      'A note on each failed item that needs one (plain text, 1 to 500 characters), by item; a note on an item that passed, or on no item, is refused (400 INVALID_VALUE). Kept with the inspection, replaced by the next one.',
    example: { brakes: 'Front brake pads worn through' },
  })
  @IsOptional()
  @IsObject()
  defects?: Record<string, unknown>;
}

/**
 * A correction: any of the registration fields that may change afterwards, validated as at registration (the same
 * decorators, picked from AddVehicleBody). The owner, the assembly and the certificates change through their own
 * operations (transfer, renew).
 */
export class CorrectVehicleBody extends PartialType(PickType(AddVehicleBody, CORRECTABLE_VEHICLE_FIELDS)) {}

export class RenewVehicleBody {
  @ApiPropertyOptional({
    description: `${ISO}. The renewed roadworthy certificate's expiry: ahead, and later than the current one.`,
    example: '2027-12-31T00:00:00.000Z',
  })
  @IsOptional()
  @ToDate()
  @IsDate({ message: `roadWorthyExpiryDate must be ${ISO}` })
  roadWorthyExpiryDate?: Date;

  @ApiPropertyOptional({
    description: `${ISO}. The renewed insurance's expiry: ahead, and later than the current one.`,
    example: '2027-12-31T00:00:00.000Z',
  })
  @IsOptional()
  @ToDate()
  @IsDate({ message: `insuranceExpiryDate must be ${ISO}` })
  insuranceExpiryDate?: Date;
}

export class LinkBody {
  @ApiPropertyOptional({
    ...ID,
    type: String,
    nullable: true,
    description: 'A driver (approved and activated) to link, or null to unlink.',
  })
  @IsOptional()
  @ValidateIf((_o, v) => v !== null)
  @Matches(OBJECT_ID, idMessage)
  driver?: string | null;
  @ApiPropertyOptional({
    ...ID,
    type: String,
    nullable: true,
    description: 'A station to link, or null to unlink (the vehicle then shows station: null).',
  })
  @IsOptional()
  @ValidateIf((_o, v) => v !== null)
  @Matches(OBJECT_ID, idMessage)
  station?: string | null;
  @ApiPropertyOptional({ ...ID, description: 'A transport union to link.' })
  @IsOptional()
  @Matches(OBJECT_ID, idMessage)
  transportUnion?: string;
}

/** The ten inspection items, each passed (true) or failed (false). */
export class InspectionChecklistResponse {
  @ApiProperty() spareTire!: boolean;
  @ApiProperty() headlights!: boolean;
  @ApiProperty() tailLights!: boolean;
  @ApiProperty() turnSignals!: boolean;
  @ApiProperty() brakeLights!: boolean;
  @ApiProperty() fireExtinguisher!: boolean;
  @ApiProperty() emergencySignals!: boolean;
  @ApiProperty() seatBelts!: boolean;
  @ApiProperty() brakes!: boolean;
  @ApiProperty() licensePlate!: boolean;
}

/** The Vehicle of the interface document; fields marked "present once..." are absent, never null, until then. */
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
  @ApiPropertyOptional({ type: InspectionChecklistResponse, description: 'Present on inspected vehicles.' })
  inspectionChecklist?: Record<string, boolean>;
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string' },
    description: "The inspector's note on each failed item of the last inspection that has one; absent when none.",
    example: { brakes: 'Front brake pads worn through' },
  })
  inspectionDefects?: Record<string, string>;
  @ApiPropertyOptional({ ...ID, description: 'Present on approved vehicles.' }) approvedBy?: string;
  @ApiPropertyOptional({ ...DATE, description: 'Present on approved vehicles.' }) dateApproved?: string;
  @ApiPropertyOptional({ ...ID, description: 'Present on inspected vehicles.' }) inspectedBy?: string;
  @ApiPropertyOptional({ ...DATE, description: 'Present on inspected vehicles.' }) dateInspected?: string;
  @ApiPropertyOptional({
    type: StationResponse,
    nullable: true,
    description: 'Present once linked; null once unlinked.',
  })
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
  return withoutUndefined(withLinks(out, v, links));
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

/** What the public sees of a vehicle (core/auth/views.ts, VEHICLE_PUBLIC): the fields of its summary. */
export type VehicleSummaryResponse = Pick<
  VehicleResponse,
  | '_id'
  | 'registrationNumber'
  | 'make'
  | 'model'
  | 'color'
  | 'type'
  | 'capacity'
  | 'inspected'
  | 'approved'
  | 'station'
  | 'transportUnion'
  | 'createdAt'
  | 'updatedAt'
  | '__v'
>;

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
  return withoutUndefined(withLinks(out, v, links));
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
