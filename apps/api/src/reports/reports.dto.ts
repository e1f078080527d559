import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDate, IsIn, IsOptional } from 'class-validator';
import { DATE, ToDate } from '../core/http/dto-support';
import { CountParam, IdParam, LimitParam } from '../core/http/query-values';
import { VEHICLE_REPORT_REASONS } from '../ussd/report-reasons';

/** GET /vehicle-reports: filters and the page. */
export class VehicleReportsQuery {
  @IdParam(
    "Only this assembly's reports (the national admin; assembly staff see their own assembly's, and another assembly is 403).",
  )
  assembly?: string;
  @IdParam('Only the reports of this vehicle.')
  vehicle?: string;
  @ApiPropertyOptional({ enum: VEHICLE_REPORT_REASONS, description: 'Only reports for this reason.' })
  @IsOptional()
  @IsIn(VEHICLE_REPORT_REASONS as unknown as string[], {
    message: `reason must be one of ${VEHICLE_REPORT_REASONS.join(', ')}`,
  })
  reason?: string;
  @ApiPropertyOptional({ ...DATE, description: 'Reports made at or after this instant (ISO 8601).' })
  @IsOptional()
  @ToDate()
  @IsDate({ message: 'from must be an ISO 8601 date-time' })
  from?: Date;
  @ApiPropertyOptional({ ...DATE, description: 'Reports made before this instant (ISO 8601).' })
  @IsOptional()
  @ToDate()
  @IsDate({ message: 'to must be an ISO 8601 date-time' })
  to?: Date;
  @LimitParam() limit?: number;
  @CountParam() count?: string;
  @IdParam('Cursor: the `_id` of the last report of the previous page.')
  after?: string;
}

/** A vehicle reported by the public over USSD: no caller's number is kept. */
export class VehicleReportResponse {
  @ApiProperty({ example: '65a1b2c3d4e5f60718293a4b' }) _id!: string;
  @ApiProperty({
    description: 'The plate as the caller typed it, in the registry’s spelling when a vehicle has it.',
    example: 'GR 1234-20',
  })
  plate!: string;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The vehicle with that plate; null: no vehicle on the registry has it.',
  })
  vehicle!: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    description: "The vehicle's assembly; null: no vehicle has the plate (listed for the national admin only).",
  })
  assembly!: string | null;
  @ApiProperty({ enum: VEHICLE_REPORT_REASONS }) reason!: string;
  @ApiProperty({ enum: ['ussd', 'sms'], description: 'How the report came in.' }) channel!: string;
  @ApiProperty({ ...DATE }) createdAt!: string;
}
