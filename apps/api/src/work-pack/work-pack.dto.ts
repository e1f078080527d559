import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import {
  INSPECTION_ITEMS,
  VEHICLE_STANDINGS,
  failedInspectionItems,
  vehicleStanding,
  type InspectionItem,
  type VehicleState,
  type VehicleStanding,
} from '@transport/domain';
import { ID } from '../core/http/dto-support';
import { IdParam } from '../core/http/query-values';

// Requests and responses of GET /vehicles/work-pack, declared once: validation, the OpenAPI document and the types.

/** A page of the pack: large, so that a phone fetches an assembly of 20,000 vehicles in ten requests. */
export const PACK_MAX_LIMIT = 2000;
const LIMIT_RULE = `limit must be an integer from 1 to ${PACK_MAX_LIMIT}`;

export class WorkPackQuery {
  @ApiPropertyOptional({
    description: `How many vehicles to return: an integer from 1 to ${PACK_MAX_LIMIT}.`,
    default: PACK_MAX_LIMIT,
    minimum: 1,
    maximum: PACK_MAX_LIMIT,
    type: 'integer',
  })
  @IsOptional()
  @Transform(({ value }) => (typeof value === 'string' && /^\d{1,6}$/.test(value) ? Number(value) : value))
  @IsInt({ message: LIMIT_RULE })
  @Min(1, { message: LIMIT_RULE })
  @Max(PACK_MAX_LIMIT, { message: LIMIT_RULE })
  limit?: number;

  @IdParam('Cursor: the `_id` of the last vehicle of the previous page (follow the `Link` header).') after?: string;
}

/** One vehicle of the pack: what an inspector needs to find it by its plate and record an inspection offline. */
export class WorkPackVehicleResponse {
  @ApiProperty({ ...ID, description: "The vehicle's `_id` (`POST /vehicles/{id}/inspect`)." }) _id!: string;
  @ApiProperty({ description: 'The revision, sent back as `If-Match` with the inspection.', example: 3 }) __v!: number;
  @ApiPropertyOptional({ example: 'GR 1001-24' }) registrationNumber?: string;
  @ApiPropertyOptional({ example: 'Toyota' }) make?: string;
  @ApiPropertyOptional({ example: 'Corolla' }) model?: string;
  @ApiPropertyOptional({ description: 'As stored (a name or a hex colour).', example: '#FFFFFF' }) color?: string;
  @ApiPropertyOptional({ example: 'taxi' }) type?: string;
  @ApiProperty({
    enum: VEHICLE_STANDINGS,
    description:
      'Where it stands: awaiting_inspection (the inspection queue), inspection_failed, awaiting_approval, approved.',
  })
  state!: VehicleStanding;
  @ApiPropertyOptional({
    enum: INSPECTION_ITEMS,
    isArray: true,
    description: 'The items its last inspection failed (absent: none failed, or never inspected).',
  })
  failed?: InspectionItem[];
}

export function toWorkPackVehicle(v: VehicleState): WorkPackVehicleResponse {
  const out: WorkPackVehicleResponse = { _id: v.id, __v: v.version, state: vehicleStanding(v) };
  if (v.registrationNumber !== undefined) out.registrationNumber = v.registrationNumber;
  if (v.make !== undefined) out.make = v.make;
  if (v.model !== undefined) out.model = v.model;
  if (v.color !== undefined) out.color = v.color;
  if (v.type !== undefined) out.type = v.type;
  const failed = v.inspectionChecklist ? failedInspectionItems(v.inspectionChecklist) : [];
  if (failed.length > 0) out.failed = failed;
  return out;
}
