import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsDate, IsEmail, IsIn, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { GENDERS, ID_TYPES, LICENSE_CLASSES } from '@transport/domain';
import { BooleanParam, IdParam, LimitParam } from '../http/query-values';

export class ListDriversQuery {
  @LimitParam() limit?: number;
  @IdParam('Cursor: the `_id` of the last driver of the previous page.') after?: string;
  @BooleanParam('Filter by approval status.') approved?: string;
  @ApiPropertyOptional({ description: 'Fetch a driver by email (case-insensitive). Needs an API key.', example: 'kojo.antwi@example.com' })
  @IsOptional()
  @IsString()
  @MaxLength(254)
  email?: string;
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})?)?$/;
const date = () => Transform(({ value }) => (typeof value === 'string' && ISO_DATE.test(value) ? new Date(value) : value));

/** Body of POST /drivers/add: what a driver registers with. */
export class AddDriverBody {
  @ApiProperty({ example: 'Esi Quaye', maxLength: 120 }) @IsString() @MaxLength(120) name!: string;
  @ApiProperty({ example: '0209876543', description: 'Ghana numbers as 0XXXXXXXXX or +233XXXXXXXXX; stored as +233XXXXXXXXX.' })
  @IsString() @MaxLength(20) phone!: string;
  @ApiProperty({ example: 'esi.quaye@example.com', description: 'Unique (case-insensitive); stored lower-cased.' })
  @IsEmail({}, { message: 'email must be an email address' }) @MaxLength(254) email!: string;
  @ApiProperty({ example: 'DL-0002-2021', description: 'Licence number.' }) @IsString() @MaxLength(30) license!: string;
  @ApiProperty({ enum: LICENSE_CLASSES, description: 'DVLA licence class.' }) @IsIn(LICENSE_CLASSES as unknown as string[]) licenseClass!: string;
  @ApiProperty({ example: '2028-01-10T00:00:00.000Z', description: 'ISO 8601 date; after licenseIssueDate.' })
  @date() @IsDate({ message: 'licenseExpiry must be an ISO 8601 date' }) licenseExpiry!: Date;
  @ApiProperty({ example: '2021-01-10T00:00:00.000Z', description: 'ISO 8601 date; not in the future.' })
  @date() @IsDate({ message: 'licenseIssueDate must be an ISO 8601 date' }) licenseIssueDate!: Date;
  @ApiProperty({ enum: ID_TYPES }) @IsIn(ID_TYPES as unknown as string[]) idType!: string;
  @ApiProperty({ example: 'GHA-700000002-2' }) @IsString() @MaxLength(30) idNumber!: string;
  @ApiProperty({ enum: GENDERS }) @IsIn(GENDERS as unknown as string[]) gender!: string;
  @ApiPropertyOptional({ description: "The `_id` of the vehicle owner the driver works for.", example: '65a1b2c3d4e5f60718293a4b' })
  @IsOptional() @Matches(/^[0-9a-f]{24}$/, { message: 'ownerID must be a 24-character lowercase hex id' }) ownerID?: string;
  @ApiPropertyOptional({ description: 'Mobile-money wallet for payouts.', example: '233209876543' })
  @IsOptional() @IsString() @MaxLength(40) walletAccount?: string;
}
