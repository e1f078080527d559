import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { VEHICLE_SORT_FIELDS } from '@transport/domain';
import { CursorParam, SortParam } from '../core/http/list-order';
import { BooleanParam, CountParam, DaysParam, IdParam, LimitParam } from '../core/http/query-values';

// The queries of the /vehicles lists (GET /vehicles/all, GET /vehicles/compliance), declared once: validation, the
// OpenAPI document and the types.

const INSPECTION_OUTCOMES = ['passed', 'failed'] as const;
type InspectionOutcome = (typeof INSPECTION_OUTCOMES)[number];

export class ListVehiclesQuery {
  @LimitParam() limit?: number;
  @CountParam() count?: string;
  @CursorParam() after?: string;
  @SortParam(
    VEHICLE_SORT_FIELDS,
    'The order of the whole list, across its pages: `-createdAt` newest first (the default), `createdAt` oldest first, ' +
      '`registrationNumber` by plate A to Z (vehicles without one last), `-registrationNumber` Z to A (those first). ' +
      'Ties are broken by `_id` the same way. Any other value is a 400.',
  )
  sort?: string;
  @BooleanParam('Filter by inspection status.') inspected?: string;
  @BooleanParam(
    'Filter by approval status: with inspected, the work queues (`inspected=false`: awaiting inspection; `inspected=true&approved=false`: awaiting approval).',
  )
  approved?: string;
  @ApiPropertyOptional({
    enum: INSPECTION_OUTCOMES,
    description:
      'Inspected vehicles by the outcome of their last inspection: `passed` (every item passed; with `approved=false`, the approval queue) or `failed` (at least one item failed, see `inspectionChecklist`).',
  })
  @IsOptional()
  @IsIn(INSPECTION_OUTCOMES as unknown as string[], { message: 'inspection must be passed or failed' })
  inspection?: InspectionOutcome;
  @ApiPropertyOptional({
    description: 'Find a vehicle by registration number (compared after normalising: upper case, single spaces).',
    maxLength: 20,
  })
  @IsOptional()
  @IsString()
  @MaxLength(40)
  registrationNumber?: string;
  @IdParam('Vehicles linked to this driver.') driver?: string;
  @IdParam('Vehicles of this owner.') ownerID?: string;
  @IdParam('Vehicles linked to this station (`GET /stations/all` lists them).') station?: string;
  @IdParam('Vehicles linked to this transport union (`GET /unions/all` lists them).') transportUnion?: string;
  @DaysParam(
    'Vehicles whose roadworthy or insurance certificate ends by the end of the day this many days from today (in TZ_DEFAULT), ' +
      'expired ones included: the window of `GET /vehicles/compliance?within=`. `0`: ended or ending today. ' +
      'Needs a key whose view shows the documents (admin, assembly, platform): 401 without a key, 403 for a merchant.',
  )
  expiring?: number;
  @DaysParam(
    'Vehicles whose free re-inspection window (after a failed inspection, or an appeal) is open and ends by the end of the day this many days from today (in TZ_DEFAULT): ' +
      'the vehicles to call back before a full inspection is due. Needs an admin or assembly key (401 without a key, 403 for others).',
  )
  reinspectionEnding?: number;
}

export class ComplianceQuery {
  @DaysParam(
    'Days ahead: certificates ending today through the end of that day (in TZ_DEFAULT) are listed, as are expired ones.',
    30,
  )
  within?: number;
  @LimitParam() limit?: number;
  @CountParam() count?: string;
  @IdParam('Cursor: the `_id` of the last vehicle of the previous page.') after?: string;
}
