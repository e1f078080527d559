import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsDate, IsIn, IsInt, IsNumber, IsOptional, IsString, Matches, Max, MaxLength, Min, MinLength } from 'class-validator';
import { MAX_CAPACITY, MAX_FUEL_LITRES, MAX_WEIGHT_KG, VEHICLE_TYPES } from '@transport/domain';
import { BooleanParam, IdParam, LimitParam } from '../http/query-values';

export class ListVehiclesQuery {
  @LimitParam() limit?: number;
  @IdParam('Cursor: the `_id` of the last vehicle of the previous page (see the `Link` header).') after?: string;
  @BooleanParam('Filter by inspection status.') inspected?: string;
  @ApiPropertyOptional({ description: 'Find a vehicle by registration number (compared after normalising: upper case, single spaces).', maxLength: 20 })
  @IsOptional()
  @IsString()
  @MaxLength(40)
  registrationNumber?: string;
  @IdParam('Vehicles linked to this driver.') driver?: string;
  @IdParam('Vehicles of this owner.') ownerID?: string;
}

const ISO = 'an ISO 8601 date or date-time';
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})?)?$/;
/** Only ISO 8601 strings become dates; numbers, booleans and other text stay as they are and fail @IsDate. */
const date = () => Transform(({ value }) => (typeof value === 'string' && ISO_DATE.test(value) ? new Date(value) : value));

/** Body of POST /vehicles/add. Server-owned fields (_id, inspected, approved, approvedBy, ...) are refused with 400. */
export class AddVehicleBody {
  @ApiProperty({ description: 'The `_id` of an existing vehicle owner (find it with GET /vehicles/owner/search).', example: '65a1b2c3d4e5f60718293a4b' })
  @Matches(/^[0-9a-f]{24}$/, { message: 'ownerID must be a 24-character lowercase hex id' })
  ownerID!: string;

  @ApiPropertyOptional({ description: 'Hex colour, #RGB or #RRGGBB.', example: '#FFD700' })
  @IsOptional() @IsString() @MaxLength(7) color?: string;

  @ApiPropertyOptional({ description: 'Stored upper-case with single spaces; unique.', example: 'GR 1234-24' })
  @IsOptional() @IsString() @MinLength(2) @MaxLength(40) registrationNumber?: string;

  @ApiPropertyOptional({ example: 'Toyota' }) @IsOptional() @IsString() @MaxLength(60) make?: string;
  @ApiPropertyOptional({ example: 'Corolla' }) @IsOptional() @IsString() @MaxLength(60) model?: string;

  @ApiPropertyOptional({ description: `Year of manufacture, ${ISO}; not after yearOfRegistration, not in the future.`, example: '2017-01-01T00:00:00.000Z' })
  @IsOptional() @date() @IsDate({ message: `makeYear must be ${ISO}` }) makeYear?: Date;

  @ApiPropertyOptional({ description: `${ISO}; not in the future.`, example: '2018-03-15T00:00:00.000Z' })
  @IsOptional() @date() @IsDate({ message: `yearOfRegistration must be ${ISO}` }) yearOfRegistration?: Date;

  @ApiPropertyOptional({ description: 'Seats.', minimum: 1, maximum: MAX_CAPACITY, example: 4 })
  @IsOptional() @IsInt() @Min(1) @Max(MAX_CAPACITY) capacity?: number;

  @ApiPropertyOptional({ description: 'Kilograms.', minimum: 0, maximum: MAX_WEIGHT_KG, example: 1700 })
  @IsOptional() @IsNumber({ allowNaN: false, allowInfinity: false }) @Min(0) @Max(MAX_WEIGHT_KG) grossWeight?: number;

  @ApiPropertyOptional({ description: 'Kilograms; not more than grossWeight.', minimum: 0, maximum: MAX_WEIGHT_KG, example: 1300 })
  @IsOptional() @IsNumber({ allowNaN: false, allowInfinity: false }) @Min(0) @Max(MAX_WEIGHT_KG) netWeight?: number;

  @ApiPropertyOptional({ enum: VEHICLE_TYPES, example: 'taxi' })
  @IsOptional() @IsIn(VEHICLE_TYPES as unknown as string[]) type?: string;

  @ApiPropertyOptional({ description: 'Litres.', minimum: 0, maximum: MAX_FUEL_LITRES, example: 50 })
  @IsOptional() @IsNumber({ allowNaN: false, allowInfinity: false }) @Min(0) @Max(MAX_FUEL_LITRES) fuelCapacity?: number;

  @ApiPropertyOptional({ description: `${ISO}. Needed, and in the future, for approval.`, example: '2027-06-30T00:00:00.000Z' })
  @IsOptional() @date() @IsDate({ message: `roadWorthyExpiryDate must be ${ISO}` }) roadWorthyExpiryDate?: Date;

  @ApiPropertyOptional({ description: `${ISO}. Needed, and in the future, for approval.`, example: '2027-06-30T00:00:00.000Z' })
  @IsOptional() @date() @IsDate({ message: `insuranceExpiryDate must be ${ISO}` }) insuranceExpiryDate?: Date;

  @ApiPropertyOptional({ description: '17 characters (ISO 3779: no I, O or Q).', example: '1HGCM82633A004352' })
  @IsOptional() @IsString() @MaxLength(17) vin?: string;
}

export class OwnerSearchQuery {
  @ApiProperty({ description: 'Part of a name, phone (0244... or +233244...) or email; case-insensitive; 2 to 100 characters.', example: 'mensah' })
  @IsString()
  @MinLength(2, { message: 'query must be at least 2 characters' })
  @MaxLength(100, { message: 'query must be at most 100 characters' })
  query!: string;

  @LimitParam() limit?: number;
  @IdParam('Cursor: the `_id` of the last owner of the previous page.') after?: string;
}

export class OwnerListQuery {
  @LimitParam() limit?: number;
  @IdParam('Cursor: the `_id` of the last owner of the previous page.') after?: string;
}
