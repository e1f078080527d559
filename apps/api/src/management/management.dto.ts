import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { Equals, IsArray, IsBoolean, IsEmail, IsIn, IsInt, IsNumber, IsObject, IsOptional, IsString, Matches, Max, MaxLength, Min, ValidateIf, ValidateNested, ArrayMaxSize } from 'class-validator';
import { ASSEMBLY_ROLES, ASSEMBLY_TYPES, ID_TYPES, PAYMENT_METHODS, SERVICE_TYPES, UNION_STATUSES } from '@transport/domain';

const OBJECT_ID = /^[0-9a-f]{24}$/;
const idMessage = { message: ({ property }: { property: string }) => `${property} must be a 24-character lowercase hex id` };
const ID = { example: '65a1b2c3d4e5f60718293a4b', pattern: OBJECT_ID.source };

export class AddOwnerBody {
  @ApiProperty({ example: 'Kofi Asante' }) @IsString() @MaxLength(120) name!: string;
  @ApiProperty({ example: '0244123456' }) @IsString() @MaxLength(20) phone!: string;
  @ApiProperty({ example: 'kofi.asante@example.com' }) @IsEmail({}, { message: 'email must be an email address' }) @MaxLength(254) email!: string;
  @ApiProperty({ enum: ID_TYPES }) @IsIn(ID_TYPES as unknown as string[]) idType!: string;
  @ApiProperty({ example: 'GHA-712345678-9' }) @IsString() @MaxLength(30) idNumber!: string;
}

export class InspectBody {
  @ApiProperty({ description: 'All ten items, each true (passed) or false (failed). A failed item is recorded, not refused.', example: { spareTire: true, headlights: true, tailLights: true, turnSignals: true, brakeLights: true, fireExtinguisher: true, emergencySignals: true, seatBelts: true, brakes: false, licensePlate: true } })
  @IsObject()
  inspectionChecklist!: Record<string, unknown>;
}

export class LinkBody {
  @ApiPropertyOptional({ ...ID, type: String, nullable: true, description: 'A driver (approved and activated) to link, or null to unlink.' })
  @IsOptional() @ValidateIf((_o, v) => v !== null) @Matches(OBJECT_ID, idMessage) driver?: string | null;
  @ApiPropertyOptional({ ...ID, type: String, nullable: true, description: 'A station to link, or null to unlink (the vehicle then shows station: null).' })
  @IsOptional() @ValidateIf((_o, v) => v !== null) @Matches(OBJECT_ID, idMessage) station?: string | null;
  @ApiPropertyOptional({ ...ID, description: 'A transport union to link.' }) @IsOptional() @Matches(OBJECT_ID, idMessage) transportUnion?: string;
}

export class ComplianceQuery {
  @ApiPropertyOptional({ description: 'Days ahead: certificates ending today through the end of that day (in TZ_DEFAULT) are listed, as are expired ones.', default: 30, minimum: 0, maximum: 366, type: 'integer' })
  @IsOptional()
  @Transform(({ value }) => (typeof value === 'string' && /^\d{1,4}$/.test(value) ? Number(value) : value))
  @IsInt({ message: 'within must be an integer from 0 to 366' }) @Min(0, { message: 'within must be an integer from 0 to 366' }) @Max(366, { message: 'within must be an integer from 0 to 366' })
  within?: number;
  @ApiPropertyOptional({ default: 50, minimum: 1, maximum: 500, type: 'integer' })
  @IsOptional()
  @Transform(({ value }) => (typeof value === 'string' && /^\d{1,6}$/.test(value) ? Number(value) : value))
  @IsInt({ message: 'limit must be an integer from 1 to 500' }) @Min(1, { message: 'limit must be an integer from 1 to 500' }) @Max(500, { message: 'limit must be an integer from 1 to 500' })
  limit?: number;
  @ApiPropertyOptional({ ...ID }) @IsOptional() @Matches(OBJECT_ID, idMessage) after?: string;
}

export class ActivateBody {
  @ApiProperty({ example: '042917', description: 'The six-digit key given at registration.' }) @IsString() @MaxLength(12) activationKey!: string;
}

export class ApproveDriverBody {
  @ApiProperty({ description: 'validLicense, hasSmartPhone, canUseMap, criminalRecord (true: the check was done and is clear); all must be true.', example: { validLicense: true, hasSmartPhone: true, canUseMap: true, criminalRecord: true } })
  @IsObject()
  approvalChecklist!: Record<string, unknown>;
}

export class RevokeBody {
  @ApiProperty({ example: 'Repeated passenger complaints', maxLength: 500 }) @IsString() @MaxLength(500) reason!: string;
}

export class DriverStatusBody {
  @ApiPropertyOptional() @IsOptional() @IsBoolean() online?: boolean;
  @ApiPropertyOptional() @IsOptional() @IsBoolean() busy?: boolean;
}

export class AddRegionBody {
  @ApiProperty({ example: 'Ashanti' }) @IsString() @MaxLength(120) name!: string;
  @ApiProperty({ ...ID, description: 'The country record.' }) @Matches(OBJECT_ID, idMessage) country!: string;
}

export class AddAssemblyBody {
  @ApiProperty({ example: 'Kumasi Metropolitan Assembly' }) @IsString() @MaxLength(160) name!: string;
  @ApiProperty({ ...ID }) @Matches(OBJECT_ID, idMessage) region!: string;
  @ApiProperty({ example: 'AK-039-5028' }) @IsString() @MaxLength(20) digitalAddress!: string;
  @ApiProperty({ enum: ASSEMBLY_TYPES }) @IsIn(ASSEMBLY_TYPES as unknown as string[]) type!: string;
}

export class AddAssemblyUserBody {
  @ApiProperty({ ...ID }) @Matches(OBJECT_ID, idMessage) assembly!: string;
  @ApiProperty({ example: 'Abena Mensah' }) @IsString() @MaxLength(120) name!: string;
  @ApiProperty({ example: 'abena.mensah@ama.gov.gh' }) @IsEmail({}, { message: 'email must be an email address' }) @MaxLength(254) email!: string;
  @ApiProperty({ example: '0244000111' }) @IsString() @MaxLength(20) phone!: string;
  @ApiProperty({ enum: ASSEMBLY_ROLES }) @IsIn(ASSEMBLY_ROLES as unknown as string[]) role!: string;
}

export class AddStationBody {
  @ApiProperty({ example: 'Kaneshie Station' }) @IsString() @MaxLength(160) name!: string;
  @ApiProperty({ type: [String] }) @IsArray() @ArrayMaxSize(100) @Matches(OBJECT_ID, { each: true, message: 'transportUnions must be 24-character hex ids' }) transportUnions!: string[];
  @ApiProperty({ type: [String] }) @IsArray() @ArrayMaxSize(100) @Matches(OBJECT_ID, { each: true, message: 'zones must be 24-character hex ids' }) zones!: string[];
  @ApiProperty({ example: 302000444 }) @IsInt() @Min(10_000_000) @Max(999_999_999_999) contactNumber!: number;
  @ApiProperty({ example: 'GA-222-1010' }) @IsString() @MaxLength(20) digitalAddress!: string;
}

export class AddUnionBody {
  @ApiProperty({ example: 'GPRTU Accra Branch' }) @IsString() @MaxLength(160) name!: string;
  @ApiPropertyOptional({ enum: UNION_STATUSES, default: 'active' }) @IsOptional() @IsIn(UNION_STATUSES as unknown as string[]) status?: string;
  @ApiPropertyOptional({ ...ID, description: 'The parent union, for a branch.' }) @IsOptional() @Matches(OBJECT_ID, idMessage) transportUnion?: string;
  @ApiProperty({ example: 'GA-183-8164' }) @IsString() @MaxLength(20) digitalAddress!: string;
  @ApiProperty({ example: '0302000333' }) @IsString() @MaxLength(20) contactNumber!: string;
  @ApiProperty({ example: 'accra@gprtu.org.gh' }) @IsEmail({}, { message: 'email must be an email address' }) @MaxLength(254) email!: string;
  @ApiProperty({ type: [String] }) @IsArray() @ArrayMaxSize(100) @Matches(OBJECT_ID, { each: true, message: 'zones must be 24-character hex ids' }) zones!: string[];
}

export class PointBody {
  @ApiProperty({ enum: ['Point'] }) @Equals('Point') type!: string;
  @ApiProperty({ type: [Number], example: [-0.2166, 5.556], description: '[longitude, latitude]' }) @IsArray() @IsNumber({ allowNaN: false, allowInfinity: false }, { each: true }) coordinates!: number[];
}

export class PricingBody {
  @ApiProperty({ example: 'standard' }) @IsString() @MaxLength(40) type!: string;
  @ApiProperty({ example: 2.5, description: 'Cedis per km, at most two decimals.' }) @IsNumber({ maxDecimalPlaces: 2 }) @Min(0) @Max(1000) pricePerKm!: number;
  @ApiProperty({ example: 0.3, description: 'Cedis per minute, at most two decimals.' }) @IsNumber({ maxDecimalPlaces: 2 }) @Min(0) @Max(1000) pricePerMinute!: number;
}

export class AddTripBody {
  @ApiProperty({ example: 'TKT-0001' }) @IsString() @MaxLength(40) ticketNumber!: string;
  @ApiProperty({ example: 'SRV-0001' }) @IsString() @MaxLength(60) serviceID!: string;
  @ApiProperty({ enum: SERVICE_TYPES }) @IsIn(SERVICE_TYPES as unknown as string[]) serviceType!: string;
  @ApiProperty({ ...ID }) @Matches(OBJECT_ID, idMessage) driver!: string;
  @ApiProperty({ ...ID }) @Matches(OBJECT_ID, idMessage) vehicle!: string;
  @ApiProperty({ type: PricingBody }) @IsObject() @ValidateNested() @Type(() => PricingBody) pricing!: PricingBody;
  @ApiProperty({ example: 1 }) @IsInt() @Min(1) @Max(100) passengers!: number;
  @ApiProperty({ example: 'passenger-1' }) @IsString() @MaxLength(120) user!: string;
  @ApiProperty({ type: PointBody }) @IsObject() @ValidateNested() @Type(() => PointBody) pickupLocation!: PointBody;
  @ApiProperty({ type: PointBody }) @IsObject() @ValidateNested() @Type(() => PointBody) serviceDestination!: PointBody;
  @ApiProperty({ example: 8.2, description: 'Kilometres.' }) @IsNumber({ allowNaN: false, allowInfinity: false }) @Min(0) @Max(1000) estimatedDistance!: number;
  @ApiProperty({ example: 20 }) @IsNumber({ allowNaN: false, allowInfinity: false }) @Min(0) @Max(1440) estimatedMinutes!: number;
  @ApiPropertyOptional({ enum: PAYMENT_METHODS }) @IsOptional() @IsIn(PAYMENT_METHODS as unknown as string[]) paymentMethod?: string;
}

export class EndTripBody {
  @ApiProperty({ example: 8.6, description: 'Kilometres.' }) @IsNumber({ allowNaN: false, allowInfinity: false }) @Min(0) @Max(1000) finalDistance!: number;
  @ApiProperty({ example: 22 }) @IsNumber({ allowNaN: false, allowInfinity: false }) @Min(0) @Max(1440) durationMinutes!: number;
  @ApiPropertyOptional({ example: 1, description: 'Cedis; not more than the final price.' }) @IsOptional() @IsNumber({ maxDecimalPlaces: 2 }) @Min(0) @Max(20_000_000) discount?: number;
  @ApiPropertyOptional({ example: 0.5, description: 'Cedis.' }) @IsOptional() @IsNumber({ maxDecimalPlaces: 2 }) @Min(0) @Max(20_000_000) charges?: number;
}

export class CheckoutBody {
  @ApiProperty({ type: PointBody }) @IsObject() @ValidateNested() @Type(() => PointBody) droppedOffLocation!: PointBody;
}

export class SettleBody {
  @ApiProperty({ example: 27.05, description: 'Cedis: exactly the amount due (final price - discount + charges).' }) @IsNumber({ maxDecimalPlaces: 2 }) @Min(0) @Max(20_000_000) amount!: number;
  @ApiProperty({ enum: PAYMENT_METHODS }) @IsIn(PAYMENT_METHODS as unknown as string[]) paymentMethod!: string;
}

export class RefundBody {
  @ApiProperty({ example: 5, description: 'Cedis; refunds add up to at most the settled amount.' }) @IsNumber({ maxDecimalPlaces: 2 }) @Min(0.01) @Max(20_000_000) amount!: number;
}

export class AuditQuery {
  @ApiProperty({ enum: ['vehicle', 'driver', 'trip', 'owner', 'region', 'assembly', 'assemblyUser', 'station', 'transportUnion', 'merchant', 'apiKey'] })
  @IsIn(['vehicle', 'driver', 'trip', 'owner', 'region', 'assembly', 'assemblyUser', 'station', 'transportUnion', 'merchant', 'apiKey'])
  entity!: string;
  @ApiProperty({ ...ID }) @Matches(OBJECT_ID, idMessage) id!: string;
}

export class AddMerchantBody {
  @ApiProperty({ example: 'Kumasi Rides Ltd' }) @IsString() @MaxLength(160) name!: string;
}

export class IssueKeyBody {
  @ApiProperty({ enum: ['admin', 'assembly', 'merchant', 'platform'] }) @IsIn(['admin', 'assembly', 'merchant', 'platform']) role!: string;
  @ApiProperty({ ...ID, description: 'The admin, assembly user, merchant or platform the key is for.' }) @Matches(OBJECT_ID, idMessage) principal!: string;
  @ApiPropertyOptional({ example: 'till 1' }) @IsOptional() @IsString() @MaxLength(80) label?: string;
}
