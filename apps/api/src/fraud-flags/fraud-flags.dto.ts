import { ApiExtraModels, ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsObject, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import {
  FRAUD_CLEAR_REASON_MAX,
  FRAUD_FLAG_KINDS,
  FRAUD_THRESHOLD_LIMITS,
  explainFraudFlag,
  type FraudThresholds,
} from '@transport/domain';
import { DATE, ID } from '../core/http/dto-support';
import { ApiNullableObject } from '../core/http/openapi';
import { CountParam, IdParam, LimitParam } from '../core/http/query-values';
import type { FraudFlagRecord } from '../core/fraud-ports';
import { PointBody } from '../trips/trips.dto';

const KINDS = FRAUD_FLAG_KINDS as unknown as string[];

export class FraudFlagsQuery {
  @LimitParam() limit?: number;
  @CountParam() count?: string;
  @IdParam('Cursor: the `_id` of the last flag of the previous page.') after?: string;
  @ApiPropertyOptional({
    enum: ['open', 'cleared'],
    description: '`open`: not cleared yet; `cleared`: cleared. Absent: both.',
  })
  @IsOptional()
  @IsIn(['open', 'cleared'], { message: 'status must be open or cleared' })
  status?: 'open' | 'cleared';
  @ApiPropertyOptional({ enum: KINDS, description: 'Flags of this kind only.' })
  @IsOptional()
  @IsIn(KINDS, { message: `kind must be one of ${KINDS.join(', ')}` })
  kind?: (typeof FRAUD_FLAG_KINDS)[number];
}

export class FraudFlagClearedResponse {
  @ApiProperty({ ...DATE }) at!: string;
  @ApiProperty({ description: 'Who cleared it (the user id).' }) by!: string;
  @ApiProperty({ description: 'Why, in their words.' }) reason!: string;
}

@ApiExtraModels(FraudFlagClearedResponse)
export class FraudFlagResponse {
  @ApiProperty({ ...ID }) _id!: string;
  @ApiProperty({
    enum: KINDS,
    description:
      "`quick-succession`: an inspection made less than the minimum minutes after another by the same inspector; `far-from-station`: made farther than the maximum km from the vehicle's station; `photo-reused`: a photo whose SHA-256 was sent before for another inspection; `pass-rate-outlier`: an inspector whose pass rate differs from the rest of the assembly beyond chance; `sticker-without-photos`: a sticker printed with no photo of the last inspection.",
  })
  kind!: string;
  @ApiProperty({ ...ID, description: 'The assembly whose admin reviews it.' }) assembly!: string;
  @ApiProperty({ ...ID, type: String, nullable: true, description: 'Null: about an inspector, not a vehicle.' })
  vehicle!: string | null;
  @ApiProperty({ type: String, nullable: true, description: "The vehicle's registration number, when it has one." })
  registrationNumber!: string | null;
  @ApiProperty({ ...ID, type: String, nullable: true, description: 'The inspector concerned.' })
  inspector!: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'The Idempotency-Key of the inspection concerned.' })
  inspectionKey!: string | null;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description:
      'The numbers behind it, by kind: minutes and minMinutes; km, maxKm and station; sha256, earlierVehicle and earlierInspectionKey; direction (high or low), passed, total, othersPassed and othersTotal; inspectionKey.',
    example: { kind: 'quick-succession', minutes: 3.5, minMinutes: 10 },
  })
  details!: Record<string, unknown>;
  @ApiProperty({ description: 'The same in a plain English sentence.' }) explanation!: string;
  @ApiProperty({ ...DATE }) raisedAt!: string;
  @ApiNullableObject(FraudFlagClearedResponse, { description: 'Null: open.' })
  cleared!: FraudFlagClearedResponse | null;
}

export function toFraudFlagResponse(flag: FraudFlagRecord, registrationNumber?: string): FraudFlagResponse {
  return {
    _id: flag.id,
    kind: flag.kind,
    assembly: flag.assemblyId,
    vehicle: flag.vehicleId ?? null,
    registrationNumber: registrationNumber ?? null,
    inspector: flag.inspectorId ?? null,
    inspectionKey: flag.inspectionKey ?? null,
    details: { ...flag.details },
    explanation: explainFraudFlag(flag.details),
    raisedAt: flag.raisedAt.toISOString(),
    cleared: flag.cleared
      ? { at: flag.cleared.clearedAt.toISOString(), by: flag.cleared.clearedBy, reason: flag.cleared.reason }
      : null,
  };
}

export class ClearFraudFlagBody {
  @ApiProperty({
    description: 'Why the flag is cleared: what the admin found (plain text, 1 to 500 characters).',
    example: 'Two buses of one owner inspected together at the station; photos checked',
    maxLength: FRAUD_CLEAR_REASON_MAX,
  })
  @IsString()
  @MaxLength(FRAUD_CLEAR_REASON_MAX)
  reason!: string;
}

const threshold = (field: keyof FraudThresholds, description: string, example: number) => {
  const [min, max] = FRAUD_THRESHOLD_LIMITS[field];
  return [
    ApiProperty({ type: 'integer', minimum: min, maximum: max, description, example }),
    IsInt(),
    Min(min),
    Max(max),
  ];
};
const apply =
  (decorators: PropertyDecorator[]): PropertyDecorator =>
  (target, key) => {
    for (const d of decorators) d(target, key);
  };

export class FraudSettingsBody {
  @apply(
    threshold(
      'minMinutesBetween',
      'Two inspections by one inspector closer than this (minutes) are flagged (default 10).',
      10,
    ),
  )
  minMinutesBetween!: number;
  @apply(
    threshold(
      'maxKmFromStation',
      "An inspection farther than this (km) from the vehicle's station is flagged (default 5).",
      5,
    ),
  )
  maxKmFromStation!: number;
  @apply(
    threshold(
      'minInspectionsForRate',
      'Inspections an inspector, and the rest of the assembly, must have made in 90 days before pass rates are compared (default 20).',
      20,
    ),
  )
  minInspectionsForRate!: number;
}

export class StationLocationBody {
  @ApiProperty({
    type: PointBody,
    description:
      'Where the station is: a GeoJSON Point, coordinates [longitude, latitude] (else 400 INVALID_LOCATION).',
    example: { type: 'Point', coordinates: [-0.2167, 5.5719] },
  })
  @IsObject()
  location!: Record<string, unknown>;
}

export class StationLocationResponse {
  @ApiProperty({ ...ID }) station!: string;
  @ApiProperty({ type: PointBody }) location!: PointBody;
}
