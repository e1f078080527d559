import { LanguageField, LanguageResponseField } from '../core/http/language.dto';
import type { CsvList } from '../core/http/csv-export';
import { ApiProperty, ApiPropertyOptional, PartialType, PickType } from '@nestjs/swagger';
import { IsBoolean, IsDate, IsEmail, IsIn, IsObject, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import {
  allChecksPassed,
  APPROVAL_ITEMS,
  DRIVER_SORT_FIELDS,
  DRIVER_STANDINGS,
  GENDERS,
  ID_TYPES,
  LICENSE_CLASSES,
  type DriverStanding,
  type DriverState,
  type DriverSummary,
  type VehicleOwnerState,
  CORRECTABLE_DRIVER_FIELDS,
  OBJECT_ID_PATTERN,
} from '@transport/domain';
import { DATE, ID, ToDate } from '../core/http/dto-support';
import { CursorParam, SortParam } from '../core/http/list-order';
import { BooleanParam, CountParam, DaysParam, LimitParam } from '../core/http/query-values';
import { AssemblyOfNewRecord, AssemblyOfRecord } from '../core/http/jurisdiction.dto';
import { RecordResponse } from '../core/http/record-response';
import { toEmbeddedOwner } from '../owners/owners.dto';

// Requests and responses of the /drivers routes, declared once: validation, the OpenAPI document and the types.

export class ListDriversQuery {
  @LimitParam() limit?: number;
  @CountParam() count?: string;
  @CursorParam() after?: string;
  @SortParam(
    DRIVER_SORT_FIELDS,
    'The order of the whole list, across its pages: `-createdAt` newest first (the default), `createdAt` oldest first, ' +
      '`name` A to Z, `-name` Z to A. Ties (namesakes, drivers registered at the same instant) are broken by `_id` the same way. Any other value is a 400.',
  )
  sort?: string;
  @BooleanParam('Filter by approval status.') approved?: string;
  @ApiPropertyOptional({
    enum: DRIVER_STANDINGS,
    description:
      'Where the drivers stand: `approved`; `revoked` (an approver withdrew the approval, until approved again); `awaiting_approval` ' +
      '(never approved yet, or a corrected licence withdrew the approval). Needs an admin or assembly key (401 without a key, 403 for others).',
  })
  @IsOptional()
  @IsIn(DRIVER_STANDINGS as unknown as string[], {
    message: `state must be one of ${DRIVER_STANDINGS.join(', ')}`,
  })
  state?: DriverStanding;
  @DaysParam(
    'Drivers whose licence ends by the end of the day this many days from today (in TZ_DEFAULT), expired ones included ' +
      '(the window of `GET /vehicles/compliance?within=`). Needs a key whose view shows the licence expiry (admin, assembly, platform): 401 without a key, 403 for a merchant.',
  )
  expiring?: number;
  @ApiPropertyOptional({
    description: 'Fetch a driver by email (case-insensitive). Needs an API key.',
    example: 'kojo.antwi@example.com',
  })
  @IsOptional()
  @IsString()
  @MaxLength(254)
  email?: string;
}

/** Body of POST /drivers/add: what a driver registers with. */
export class AddDriverBody {
  @ApiProperty({ example: 'Esi Quaye', maxLength: 120 }) @IsString() @MaxLength(120) name!: string;
  @ApiProperty({
    example: '0209876543',
    description: 'Ghana numbers as 0XXXXXXXXX or +233XXXXXXXXX; stored as +233XXXXXXXXX.',
  })
  @IsString()
  @MaxLength(20)
  phone!: string;
  @ApiProperty({ example: 'esi.quaye@example.com', description: 'Unique (case-insensitive); stored lower-cased.' })
  @IsEmail({}, { message: 'email must be an email address' })
  @MaxLength(254)
  email!: string;
  @ApiProperty({ example: 'DL-0002-2021', description: 'Licence number.' }) @IsString() @MaxLength(30) license!: string;
  @ApiProperty({ enum: LICENSE_CLASSES, description: 'DVLA licence class.' })
  @IsIn(LICENSE_CLASSES as unknown as string[])
  licenseClass!: string;
  @ApiProperty({ example: '2028-01-10T00:00:00.000Z', description: 'ISO 8601 date; after licenseIssueDate.' })
  @ToDate()
  @IsDate({ message: 'licenseExpiry must be an ISO 8601 date' })
  licenseExpiry!: Date;
  @ApiProperty({ example: '2021-01-10T00:00:00.000Z', description: 'ISO 8601 date; not in the future.' })
  @ToDate()
  @IsDate({ message: 'licenseIssueDate must be an ISO 8601 date' })
  licenseIssueDate!: Date;
  @ApiProperty({ enum: ID_TYPES }) @IsIn(ID_TYPES as unknown as string[]) idType!: string;
  @ApiProperty({ example: 'GHA-700000002-2' }) @IsString() @MaxLength(30) idNumber!: string;
  @ApiProperty({ enum: GENDERS }) @IsIn(GENDERS as unknown as string[]) gender!: string;
  @ApiPropertyOptional({
    description: 'The `_id` of the vehicle owner the driver works for.',
    example: '65a1b2c3d4e5f60718293a4b',
  })
  @IsOptional()
  @Matches(OBJECT_ID_PATTERN, { message: 'ownerID must be a 24-character lowercase hex id' })
  ownerID?: string;
  @ApiPropertyOptional({ description: 'Mobile-money wallet for payouts.', example: '233209876543' })
  @IsOptional()
  @IsString()
  @MaxLength(40)
  walletAccount?: string;
  @AssemblyOfNewRecord(
    'for a driver registering themselves, unassigned until an admin places them (choose your assembly to be approved there); for an assembly key, its assembly.',
  )
  assembly?: string;
  @LanguageField('driver') language?: string;
}

export class ActivateBody {
  @ApiProperty({ example: '042917', description: 'The six-digit key given at registration.' })
  @IsString()
  @MaxLength(12)
  activationKey!: string;
}

export class ApproveDriverBody {
  @ApiProperty({
    // The same four checks the answers carry (declared below, hence the lazy reference).
    type: () => ApprovalChecklistResponse,
    description: `${APPROVAL_ITEMS.join(', ')} (true: the check was done and is clear); all must be true.`,
    example: allChecksPassed(),
  })
  @IsObject()
  approvalChecklist!: Record<string, unknown>;
}

/** A correction (the rule per field is the domain's: CORRECTABLE_DRIVER_FIELDS), validated as at registration. */
export class CorrectDriverBody extends PartialType(PickType(AddDriverBody, CORRECTABLE_DRIVER_FIELDS)) {}

export class RenewLicenseBody {
  @ApiProperty({
    ...DATE,
    description: "The renewed licence's expiry (ISO 8601 date or date-time): ahead, and later than the current one.",
    example: '2029-05-31T00:00:00.000Z',
  })
  @ToDate()
  @IsDate({ message: 'licenseExpiry must be an ISO 8601 date or date-time' })
  licenseExpiry!: Date;
}

export class RevokeBody {
  @ApiProperty({ example: 'Repeated passenger complaints', maxLength: 500 })
  @IsString()
  @MaxLength(500)
  reason!: string;
}

export class DriverStatusBody {
  @ApiPropertyOptional() @IsOptional() @IsBoolean() online?: boolean;
  @ApiPropertyOptional() @IsOptional() @IsBoolean() busy?: boolean;
}

export class ApprovalChecklistResponse {
  @ApiProperty() validLicense!: boolean;
  @ApiProperty() hasSmartPhone!: boolean;
  @ApiProperty() canUseMap!: boolean;
  @ApiProperty({ description: 'true: the criminal-record check was done and is clear.' }) criminalRecord!: boolean;
}

/** The owner embedded in a driver: only admin and assembly keys see it. */
export class DriverOwnerResponse {
  @ApiProperty({ ...ID }) _id!: string;
  @ApiPropertyOptional({
    description:
      "Absent, with every other field, when the owner is outside the reader's jurisdiction (another assembly's owner): then only `_id`.",
  })
  name?: string;
  @ApiPropertyOptional({ description: 'Only in the views that include it (docs/api.md, "Who sees what").' })
  phone?: string;
  @ApiPropertyOptional({ description: 'Only in the views that include it (docs/api.md, "Who sees what").' })
  email?: string;
  @ApiPropertyOptional({ enum: ID_TYPES }) idType?: string;
  @ApiPropertyOptional({ description: 'Only in the views that include it (docs/api.md, "Who sees what").' })
  idNumber?: string;
  @ApiPropertyOptional() verified?: boolean;
}

export class DriverResponse extends RecordResponse {
  @ApiProperty({ example: 'Kojo Antwi' }) name!: string;
  @ApiPropertyOptional({
    example: '+233244555666',
    description: 'Only in the views that include it (docs/api.md, "Who sees what").',
  })
  phone?: string;
  @ApiPropertyOptional({
    example: 'kojo.antwi@example.com',
    description: 'Only in the views that include it (docs/api.md, "Who sees what").',
  })
  email?: string;
  @ApiPropertyOptional({
    example: 'DL-0001-2020',
    description: 'Only in the views that include it (docs/api.md, "Who sees what").',
  })
  license?: string;
  @ApiProperty({ enum: LICENSE_CLASSES }) licenseClass!: string;
  @ApiProperty({ ...DATE }) licenseExpiry!: string;
  @ApiProperty({ ...DATE }) licenseIssueDate!: string;
  @ApiProperty({ enum: ID_TYPES }) idType!: string;
  @ApiPropertyOptional({ description: 'Only in the views that include it (docs/api.md, "Who sees what").' })
  idNumber?: string;
  @ApiProperty({ enum: GENDERS }) gender!: string;
  @LanguageResponseField('driver') language!: string;
  @ApiProperty() online!: boolean;
  @ApiProperty() busy!: boolean;
  @ApiProperty({ description: 'The driver has activated the account with the activation key.' }) verified!: boolean;
  @ApiProperty() approved!: boolean;
  @ApiPropertyOptional({
    type: ApprovalChecklistResponse,
    description: 'Present once an assembly has approved the driver.',
  })
  approvalChecklist?: ApprovalChecklistResponse;
  @ApiPropertyOptional({ ...DATE, description: 'Present once activated.' }) dateActivated?: string;
  @ApiPropertyOptional({
    type: DriverOwnerResponse,
    description: "The vehicle owner, embedded; only its `_id` when the owner is outside the reader's jurisdiction.",
  })
  ownerID?: DriverOwnerResponse;
  @ApiPropertyOptional({ description: 'Only in the views that include it (docs/api.md, "Who sees what").' })
  walletAccount?: string;
  @ApiPropertyOptional({ example: 4.5, description: 'Average of 1-5 star ratings; absent before the first.' })
  rating?: number;
  @AssemblyOfRecord() assembly?: string | null;
}

/** The interface's envelope for the driver list: the status repeated in the body. */
export class DriverListResponse {
  @ApiProperty({ example: 200, description: 'The HTTP status, repeated (the interface carries it in the body).' })
  status!: number;
  @ApiProperty({ type: [DriverResponse] }) payload!: DriverResponse[];
}

export class DriverCreatedResponse {
  @ApiProperty({ example: 201 }) status!: number;
  @ApiProperty({ type: DriverResponse, description: 'The registered driver (never its activation key).' })
  payload!: DriverResponse;
  @ApiProperty({
    example: true,
    description:
      "Whether the activation key was handed to the SMS service for the driver's phone. false: the driver is registered, and the key was not sent (the gateway refused it, the number had a key within ACTIVATION_SMS_WINDOW_MINUTES, the hourly SMS budget is used up, or staff registered the driver in the quiet hours: then it goes when they end); an approver can send a new key (POST /drivers/{id}/activation-key).",
  })
  activationKeySent!: boolean;
}

/** The whole driver; what a caller sees of it is the route's view (core/auth/views.ts). */
export function toDriverResponse(
  d: DriverState,
  owner: VehicleOwnerState | { id: string } | undefined,
): DriverResponse {
  const out: DriverResponse = {
    _id: d.id,
    name: d.name,
    phone: d.phone,
    email: d.email,
    license: d.license,
    licenseClass: d.licenseClass,
    licenseExpiry: d.licenseExpiry.toISOString(),
    licenseIssueDate: d.licenseIssueDate.toISOString(),
    idType: d.idType,
    idNumber: d.idNumber,
    gender: d.gender,
    language: d.language,
    online: d.online,
    busy: d.busy,
    verified: d.verified,
    approved: d.approved,
    assembly: d.assemblyId ?? null,
    createdAt: d.createdAt.toISOString(),
    updatedAt: d.updatedAt.toISOString(),
    __v: d.version,
  };
  if (d.approvalChecklist) out.approvalChecklist = { ...d.approvalChecklist };
  if (d.dateActivated) out.dateActivated = d.dateActivated.toISOString();
  if (owner) out.ownerID = 'name' in owner ? toEmbeddedOwner(owner) : { _id: owner.id };
  if (d.walletAccount !== undefined) out.walletAccount = d.walletAccount;
  return withRating(out, d);
}

/** The average of a driver's ratings to two places, once there is one. */
function withRating<R extends { rating?: number }>(out: R, d: Pick<DriverState, 'ratingTotal' | 'ratingCount'>): R {
  if (d.ratingCount > 0) out.rating = Math.round((d.ratingTotal / d.ratingCount) * 100) / 100;
  return out;
}

/** What the public sees of a driver (core/auth/views.ts, DRIVER_PUBLIC): the fields of their summary. */
export type DriverSummaryResponse = Pick<
  DriverResponse,
  '_id' | 'name' | 'approved' | 'rating' | 'createdAt' | 'updatedAt' | '__v'
>;

export function toDriverSummaryResponse(d: DriverSummary): DriverSummaryResponse {
  const out: DriverSummaryResponse = {
    _id: d.id,
    name: d.name,
    approved: d.approved,
    createdAt: d.createdAt.toISOString(),
    updatedAt: d.updatedAt.toISOString(),
    __v: d.version,
  };
  return withRating(out, d);
}

/** The drivers export (Accept: text/csv on GET /drivers/all): one row per driver, in the caller's view. */
export const DRIVER_CSV: CsvList = {
  filename: 'drivers.csv',
  view: 'driver',
  columns: [
    '_id',
    'name',
    'phone',
    'email',
    'gender',
    'language',
    'license',
    'licenseClass',
    'licenseIssueDate',
    'licenseExpiry',
    'idType',
    'idNumber',
    'verified',
    'approved',
    'online',
    'busy',
    'rating',
    'walletAccount',
    'ownerID._id',
    'ownerID.name',
    'assembly',
    'createdAt',
  ],
};
