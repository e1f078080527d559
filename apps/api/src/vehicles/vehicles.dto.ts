import { ApiProperty, ApiPropertyOptional, PartialType, PickType } from '@nestjs/swagger';
import {
  IsBoolean,
  IsDate,
  IsDefined,
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
  APPEAL_GROUNDS_MAX,
  DEFECT_GRADES,
  INSPECTION_SETTING_DAYS,
  DEFECT_NOTE_MAX,
  INSPECTION_ITEMS,
  MAX_CAPACITY,
  MAX_FUEL_LITRES,
  MAX_WEIGHT_KG,
  VEHICLE_TYPES,
  CORRECTABLE_VEHICLE_FIELDS,
  OBJECT_ID_PATTERN,
} from '@transport/domain';
import { ID, idMessage, ToDate } from '../core/http/dto-support';
import { AssemblyOfNewRecord } from '../core/http/jurisdiction.dto';
import { ApiSchemaKeywords } from '../core/http/openapi';
import { InspectionChecklistResponse } from './inspection-checklist.dto';
// The GeoJSON point's shape as the trips document it (the domain's parseGeoPoint checks it, here as there).
import { PointBody } from '../trips/trips.dto';

// Requests of the /vehicles routes, declared once: validation, the OpenAPI document and the types (the responses are in
// vehicle-responses.dto.ts).

const ISO = 'an ISO 8601 date or date-time';

/** Body of POST /vehicles/add. Server-owned fields (_id, inspected, approved, approvedBy, ...) are refused with 400. */
export class AddVehicleBody {
  @ApiProperty({
    description: 'The `_id` of an existing vehicle owner (find it with GET /vehicles/owner/search).',
    example: '65a1b2c3d4e5f60718293a4b',
  })
  @Matches(OBJECT_ID_PATTERN, { message: 'ownerID must be a 24-character lowercase hex id' })
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
    // The same ten items the answers carry.
    type: InspectionChecklistResponse,
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
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string', enum: [...DEFECT_GRADES] },
    description:
      'The grade of each failed item (docs/api.md, "Inspections: grades, re-inspection and appeal"): `dangerous` prohibits use (not approvable; an approved vehicle loses its approval and the owner is told), `major` fails with days to fix (the assembly\'s setting, 14 by default) and a free re-inspection, `minor` passes with advice. ' +
      'A failed item left out is `major`; no `grades` at all (a client that predates them): every failed item is `major`. A grade on an item that passed, on no item, or not one of the three is refused (400 INVALID_VALUE).',
    example: { brakes: 'dangerous', spareTire: 'minor' },
  })
  @IsOptional()
  @IsObject()
  grades?: Record<string, unknown>;
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string', maxLength: DEFECT_NOTE_MAX },
    description:
      'Advice on items that passed (plain text, 1 to 500 characters), by item; advice on a failed item (its note goes in `defects`) or on no item is refused (400 INVALID_VALUE).',
    example: { headlights: 'Lens cloudy: clean or replace soon' },
  })
  @IsOptional()
  @IsObject()
  advisories?: Record<string, unknown>;
  @ApiPropertyOptional({
    description:
      `${ISO}: when the inspection was made, as the inspector's device says (a phone without a signal sends it later). ` +
      'Recorded as dateInspected; the time the service received it is kept beside it (in the history). ' +
      'More than 5 minutes ahead of the service is a 422 INSPECTION_MADE_IN_FUTURE; older than INSPECTION_MADE_MAX_AGE_HOURS (72 by default) a 422 INSPECTION_MADE_TOO_LONG_AGO. Absent: when it is received.',
    example: '2026-11-28T09:12:00.000Z',
  })
  @IsOptional()
  @ToDate()
  @IsDate({ message: `madeAt must be ${ISO}` })
  madeAt?: Date;
  @ApiPropertyOptional({
    type: PointBody,
    description:
      'Where the inspection was made, when the inspector allowed their phone to say: a GeoJSON Point, coordinates [longitude, latitude] (else 400 INVALID_LOCATION). Kept with the inspection (in the history), replaced by the next one.',
    example: { type: 'Point', coordinates: [-1.6244, 6.6885] },
  })
  @IsOptional()
  @IsObject()
  madeWhere?: Record<string, unknown>;
}

/**
 * A re-inspection: the results of the items the last inspection failed, and only those (the others stand), with the
 * same notes, grades, advice, time and place as an inspection.
 */
export class ReinspectBody extends PickType(InspectBody, ['defects', 'grades', 'advisories', 'madeAt', 'madeWhere']) {
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'boolean' },
    description:
      'Exactly the items the last inspection failed (see `inspectionChecklist` and `inspectionGrades` of the vehicle), each true (fixed) or false (still failing). An item that passed before, or one left out, is refused (400 INVALID_CHECKLIST).',
    example: { brakes: true },
  })
  @IsObject()
  inspectionChecklist!: Record<string, unknown>;
}

export class LodgeAppealBody {
  @ApiProperty({
    description: "The owner's grounds, as assembly staff write them down (plain text, 1 to 1000 characters).",
    example: 'The owner says the brakes were repaired the day before and asks for another inspector',
    maxLength: APPEAL_GROUNDS_MAX,
  })
  @IsString()
  @MaxLength(APPEAL_GROUNDS_MAX)
  grounds!: string;
}

export class DecideAppealBody {
  @ApiProperty({
    enum: ['upheld', 'reinspection'],
    description:
      "`upheld`: the inspection stands. `reinspection`: the items it failed are re-inspected free, by another inspector (POST /vehicles/{id}/reinspect), within the assembly's days to fix from now.",
  })
  @IsIn(['upheld', 'reinspection'], { message: 'decision must be upheld or reinspection' })
  decision!: 'upheld' | 'reinspection';
}

export class InspectionSettingsBody {
  @ApiProperty({
    type: 'integer',
    minimum: INSPECTION_SETTING_DAYS.min,
    maximum: INSPECTION_SETTING_DAYS.max,
    description: 'Days to fix major defects: the window of the free re-inspection (default 14).',
    example: 14,
  })
  @IsInt()
  @Min(INSPECTION_SETTING_DAYS.min)
  @Max(INSPECTION_SETTING_DAYS.max)
  daysToFix!: number;
  @ApiProperty({
    type: 'integer',
    minimum: INSPECTION_SETTING_DAYS.min,
    maximum: INSPECTION_SETTING_DAYS.max,
    description: 'Days after an inspection within which the owner may appeal it (default 15).',
    example: 15,
  })
  @IsInt()
  @Min(INSPECTION_SETTING_DAYS.min)
  @Max(INSPECTION_SETTING_DAYS.max)
  appealDays!: number;
  @ApiPropertyOptional({
    type: 'boolean',
    description:
      'Whether inspections need their photos: the plate, the VIN and each failed item graded dangerous or major (default true). ' +
      'On, the dashboard asks for them before an inspection is recorded, and an approval waits for the plate and VIN (422 INSPECTION_PHOTOS_MISSING). Left out: unchanged.',
    example: true,
  })
  // Left out keeps the setting; null is not a setting (400), as for every correctable field.
  @ValidateIf((_o, v) => v !== undefined)
  @IsBoolean({ message: 'photosRequired must be true or false' })
  photosRequired?: boolean;
}

export class InspectionSettingsResponse extends PickType(InspectionSettingsBody, ['daysToFix', 'appealDays'] as const) {
  @ApiProperty({ type: 'boolean', description: 'Whether inspections need their photos (default true).' })
  photosRequired!: boolean;
}

/**
 * A correction: any of the registration fields that may change afterwards, validated as at registration (the same
 * decorators, picked from AddVehicleBody). The owner, the assembly and the certificates change through their own
 * operations (transfer, renew).
 */
export class CorrectVehicleBody extends PartialType(PickType(AddVehicleBody, CORRECTABLE_VEHICLE_FIELDS)) {}

/** One of the two dates, or both (`{}` is 400 INVALID_VALUE). */
@ApiSchemaKeywords({ minProperties: 1, additionalProperties: false })
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
  @Matches(OBJECT_ID_PATTERN, idMessage)
  driver?: string | null;
  @ApiPropertyOptional({
    ...ID,
    type: String,
    nullable: true,
    description: 'A station to link, or null to unlink (the vehicle then shows station: null).',
  })
  @IsOptional()
  @ValidateIf((_o, v) => v !== null)
  @Matches(OBJECT_ID_PATTERN, idMessage)
  station?: string | null;
  @ApiPropertyOptional({ ...ID, description: 'A transport union to link.' })
  // Not @IsOptional: that lets null through, and null reached the union lookup (a 500 the fuzz tier found). A vehicle
  // keeps a union: null is refused, absent leaves it as it is.
  @ValidateIf((_o, v) => v !== undefined)
  @IsDefined({ message: 'transportUnion cannot be null: a vehicle keeps its union; send another one to change it' })
  @Matches(OBJECT_ID_PATTERN, idMessage)
  transportUnion?: string;
}
