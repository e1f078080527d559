import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min, MinLength } from 'class-validator';
import { DECISIONS } from '@transport/domain';
import { IdParam } from '../core/http/query-values';

// The supervisor's side of a notice after it is issued (issue 47, items 6 and 7): decisions, cancellations, the open
// contests, the assembly's enforcement settings and the reports.

/** POST /enforcement/notices/{id}/decision. */
export class DecisionBody {
  @ApiProperty({ enum: DECISIONS, description: 'upheld, reduced (send amount) or cancelled.' })
  @IsIn(DECISIONS as unknown as string[], { message: `outcome must be one of ${DECISIONS.join(', ')}` })
  outcome!: (typeof DECISIONS)[number];
  @ApiPropertyOptional({
    description: 'For reduced: the new fine in pesewas, from 1 to less than the fine.',
    example: 10_000,
    type: 'integer',
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(2_000_000_000)
  amount?: number;
  @ApiProperty({ description: 'Why: the owner reads it on the notice page.', example: 'The sticker was valid.' })
  @IsString()
  @MinLength(1)
  @MaxLength(500)
  reason!: string;
}

/** POST /enforcement/notices/{id}/cancel. */
export class CancelBody {
  @ApiProperty({ description: 'Why: the owner reads it on the notice page.', example: 'Wrong vehicle recorded.' })
  @IsString()
  @MinLength(1)
  @MaxLength(500)
  reason!: string;
}

export class ContestsQuery {
  @IdParam("The assembly (the national admin); assembly staff read their own assembly's.") assembly?: string;
}

/** GET/PUT /enforcement/settings/{id}. */
export class EnforcementSettingsBody {
  @ApiProperty({
    description:
      'When true, approving or renewing a vehicle with overdue notices is refused (422 VEHICLE_HAS_OVERDUE_NOTICES) until they are settled. Off by default.',
  })
  @IsBoolean()
  overdueBlocksVehicle!: boolean;
}

const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/** GET /enforcement/reports: whole days in the assembly's time zone, both included. */
export class EnforcementReportQuery {
  @ApiProperty({ description: 'The first day (YYYY-MM-DD, the assembly’s time zone).', example: '2026-12-01' })
  @IsString()
  @Matches(DAY_PATTERN, { message: 'from must be a date (YYYY-MM-DD)' })
  from!: string;
  @ApiProperty({ description: 'The last day, included (YYYY-MM-DD); at most 366 days after from.' })
  @IsString()
  @Matches(DAY_PATTERN, { message: 'to must be a date (YYYY-MM-DD)' })
  to!: string;
  @IdParam("The assembly (the national admin: all when absent); an assembly admin reads their own assembly's.")
  assembly?: string;
}

export class ReportDayRow {
  @ApiProperty({ example: '2026-12-07', description: 'The day in the assembly’s time zone.' }) day!: string;
  @ApiProperty({ description: 'Notices issued (received by the service) that day.' }) notices!: number;
  @ApiProperty({ description: 'Offences on them.' }) offences!: number;
  @ApiProperty({ description: 'Their fines, in pesewas.' }) issued!: number;
  @ApiProperty({ description: 'Paid that day (notices paid in full that day), in pesewas.' }) collected!: number;
  @ApiProperty({ description: 'Roadside checks made that day.' }) checks!: number;
}

export class ReportCodeRow {
  @ApiProperty({ example: 'TF-01' }) code!: string;
  @ApiProperty() offences!: number;
  @ApiProperty({ description: 'The fines of these offences, in pesewas.' }) issued!: number;
}

export class ReportOfficerRow {
  @ApiProperty({ example: '65a1b2c3d4e5f60718293a4b' }) officer!: string;
  @ApiProperty({ description: 'The officer’s name, when an assembly user of that id exists.' }) name!: string;
  @ApiProperty() notices!: number;
  @ApiProperty({ description: 'In pesewas.' }) issued!: number;
  @ApiProperty() checks!: number;
}

export class ReportTotals {
  @ApiProperty() notices!: number;
  @ApiProperty() offences!: number;
  @ApiProperty({ description: 'The fines of the notices issued, in pesewas.' }) issued!: number;
  @ApiProperty({ description: 'Collected in the range (notices paid in full), in pesewas.' }) collected!: number;
  @ApiProperty() checks!: number;
}

export class EnforcementReportResponse {
  @ApiProperty({ type: String, nullable: true, description: 'Null: every assembly.' }) assembly!: string | null;
  @ApiProperty({ example: '2026-12-01' }) from!: string;
  @ApiProperty({ example: '2026-12-07' }) to!: string;
  @ApiProperty({ example: 'Africa/Accra' }) timeZone!: string;
  @ApiProperty({ type: ReportTotals }) totals!: ReportTotals;
  @ApiProperty({ type: [ReportDayRow], description: 'Every day of the range, oldest first (zeros included).' })
  days!: ReportDayRow[];
  @ApiProperty({ type: [ReportCodeRow], description: 'Most offences first.' }) codes!: ReportCodeRow[];
  @ApiProperty({ type: [ReportOfficerRow], description: 'Most notices first.' }) officers!: ReportOfficerRow[];
}
