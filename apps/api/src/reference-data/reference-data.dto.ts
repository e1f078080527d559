import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsEmail,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import {
  ASSEMBLY_ROLES,
  ASSEMBLY_TYPES,
  DEFAULT_LANGUAGE,
  LANGUAGE_CODES,
  UNION_STATUSES,
  type AssemblyState,
  type AssemblyUserState,
  type RegionState,
  type StationState,
  type TransportUnionState,
  OBJECT_ID_PATTERN,
} from '@transport/domain';
import { DATE, ID, idMessage } from '../core/http/dto-support';
import { IdParam, LimitParam, CountParam } from '../core/http/query-values';
import { RecordResponse } from '../core/http/record-response';

// Requests and responses of regions, assemblies, assembly users, stations and transport unions, declared once.

export class PageQuery {
  @LimitParam() limit?: number;
  @CountParam() count?: string;
  @IdParam('Cursor: the `_id` of the last record of the previous page.') after?: string;
}

export class AddRegionBody {
  @ApiProperty({ example: 'Ashanti' }) @IsString() @MaxLength(120) name!: string;
  @ApiProperty({ ...ID, description: 'The country record.' }) @Matches(OBJECT_ID_PATTERN, idMessage) country!: string;
}

export class AddAssemblyBody {
  @ApiProperty({ example: 'Kumasi Metropolitan Assembly' }) @IsString() @MaxLength(160) name!: string;
  @ApiProperty({ ...ID }) @Matches(OBJECT_ID_PATTERN, idMessage) region!: string;
  @ApiProperty({ example: 'AK-039-5028' }) @IsString() @MaxLength(20) digitalAddress!: string;
  @ApiProperty({ enum: ASSEMBLY_TYPES }) @IsIn(ASSEMBLY_TYPES as unknown as string[]) type!: string;
}

export class AddAssemblyUserBody {
  @ApiProperty({ ...ID }) @Matches(OBJECT_ID_PATTERN, idMessage) assembly!: string;
  @ApiProperty({ example: 'Abena Mensah' }) @IsString() @MaxLength(120) name!: string;
  @ApiProperty({ example: 'abena.mensah@ama.gov.gh' })
  @IsEmail({}, { message: 'email must be an email address' })
  @MaxLength(254)
  email!: string;
  @ApiProperty({ example: '0244000111' }) @IsString() @MaxLength(20) phone!: string;
  @ApiProperty({
    enum: ASSEMBLY_ROLES,
    description:
      'inspector, approver, admin, or enforcer (the roadside: checks vehicles and records offences; changes no registration, inspection or approval).',
  })
  @IsIn(ASSEMBLY_ROLES as unknown as string[])
  role!: string;
  @ApiPropertyOptional({
    description:
      'An enforcer who works nationwide: a police traffic officer, who records offences under the catalogue of the assembly where the offence was made. Only for role enforcer (else 400 INVALID_VALUE), and only the national admin grants it (an assembly admin: 403 DUTY_NOT_ALLOWED). Their assembly is that of the unit they report to.',
  })
  @IsOptional()
  @IsBoolean()
  nationwide?: boolean;
  @ApiPropertyOptional({
    enum: LANGUAGE_CODES,
    description:
      'The language the dashboard speaks to them in (any letter case; English, `en`, when absent); another is 400 `INVALID_LANGUAGE`. They can change it themselves.',
  })
  @IsOptional()
  @IsString()
  @MaxLength(20)
  language?: string;
}

export class AddStationBody {
  @ApiProperty({ example: 'Kaneshie Station' }) @IsString() @MaxLength(160) name!: string;
  @ApiProperty({ type: [String] })
  @IsArray()
  @ArrayMaxSize(100)
  @Matches(OBJECT_ID_PATTERN, { each: true, message: 'transportUnions must be 24-character hex ids' })
  transportUnions!: string[];
  @ApiProperty({ type: [String] })
  @IsArray()
  @ArrayMaxSize(100)
  @Matches(OBJECT_ID_PATTERN, { each: true, message: 'zones must be 24-character hex ids' })
  zones!: string[];
  @ApiProperty({ example: 302000444 }) @IsInt() @Min(10_000_000) @Max(999_999_999_999) contactNumber!: number;
  @ApiProperty({ example: 'GA-222-1010' }) @IsString() @MaxLength(20) digitalAddress!: string;
}

export class AddUnionBody {
  @ApiProperty({ example: 'GPRTU Accra Branch' }) @IsString() @MaxLength(160) name!: string;
  @ApiPropertyOptional({ enum: UNION_STATUSES, default: 'active' })
  @IsOptional()
  @IsIn(UNION_STATUSES as unknown as string[])
  status?: string;
  @ApiPropertyOptional({ ...ID, description: 'The parent union, for a branch.' })
  @IsOptional()
  @Matches(OBJECT_ID_PATTERN, idMessage)
  transportUnion?: string;
  @ApiProperty({ example: 'GA-183-8164' }) @IsString() @MaxLength(20) digitalAddress!: string;
  @ApiProperty({ example: '0302000333' }) @IsString() @MaxLength(20) contactNumber!: string;
  @ApiProperty({ example: 'accra@gprtu.org.gh' })
  @IsEmail({}, { message: 'email must be an email address' })
  @MaxLength(254)
  email!: string;
  @ApiProperty({ type: [String] })
  @IsArray()
  @ArrayMaxSize(100)
  @Matches(OBJECT_ID_PATTERN, { each: true, message: 'zones must be 24-character hex ids' })
  zones!: string[];
}

/** A region as embedded in an assembly. */
export class RegionResponse {
  @ApiProperty({ ...ID }) _id!: string;
  @ApiProperty({ example: 'Ashanti' }) name!: string;
  @ApiProperty({ ...ID, description: 'The country record.' }) country!: string;
}

/** The record fields that stand-alone regions, stations and unions add to their embedded shape. */
class Versions {
  @ApiProperty({ ...DATE }) createdAt!: string;
  @ApiProperty({ ...DATE }) updatedAt!: string;
  @ApiProperty({ example: 0 }) __v!: number;
}

export class RegionRecordResponse extends RegionResponse implements Versions {
  @ApiProperty({ ...DATE }) createdAt!: string;
  @ApiProperty({ ...DATE }) updatedAt!: string;
  @ApiProperty({ example: 0 }) __v!: number;
}

export class AssemblyResponse extends RecordResponse {
  @ApiProperty({ example: 'Kumasi Metropolitan Assembly' }) name!: string;
  @ApiProperty({ type: RegionResponse }) region!: RegionResponse;
  @ApiProperty({ example: 'AK-039-5028', description: 'GhanaPostGPS address.' }) digitalAddress!: string;
  @ApiProperty({ enum: ASSEMBLY_TYPES }) type!: string;
}

export class AssemblyUserResponse extends RecordResponse {
  @ApiProperty({ ...ID, description: 'The assembly the user works for.' }) assembly!: string;
  @ApiProperty({ example: 'Abena Mensah' }) name!: string;
  @ApiProperty({ example: 'abena.mensah@ama.gov.gh' }) email!: string;
  @ApiProperty({ example: '+233244000111' }) phone!: string;
  @ApiProperty({ enum: ASSEMBLY_ROLES }) role!: string;
  @ApiProperty({
    ...DATE,
    type: String,
    nullable: true,
    description: 'When the user was disabled (off-boarded): no sign-in, session or key works. Null: enabled.',
  })
  disabledAt!: string | null;
  @ApiProperty({
    description:
      'Made by an assembly admin as an approver or admin, and not yet confirmed by a second person (the national admin or another assembly admin: POST /assembly/users/{id}/confirm): no sign-in, session or key works until then.',
  })
  awaitingConfirmation!: boolean;
  @ApiProperty({
    enum: LANGUAGE_CODES,
    description: 'The language the dashboard speaks to them in (they change it themselves: PUT /auth/language).',
  })
  language!: string;
  @ApiProperty({ description: 'An enforcer who works nationwide (a police traffic officer).' }) nationwide!: boolean;
}

/** A station as embedded in a vehicle. */
export class StationResponse {
  @ApiProperty({ ...ID }) _id!: string;
  @ApiProperty({ example: 'Kaneshie Station' }) name!: string;
  @ApiProperty({ type: [String] }) transportUnions!: string[];
  @ApiProperty({ type: [String] }) zones!: string[];
  @ApiProperty({ example: 302000444 }) contactNumber!: number;
  @ApiProperty({ example: 'GA-222-1010' }) digitalAddress!: string;
}

export class StationRecordResponse extends StationResponse implements Versions {
  @ApiProperty({ ...DATE }) createdAt!: string;
  @ApiProperty({ ...DATE }) updatedAt!: string;
  @ApiProperty({ example: 0 }) __v!: number;
}

/** A transport union as embedded in a vehicle. */
export class TransportUnionResponse {
  @ApiProperty({ ...ID }) _id!: string;
  @ApiProperty({ enum: UNION_STATUSES }) status!: string;
  @ApiProperty({ example: 'GPRTU Accra Branch' }) name!: string;
  @ApiPropertyOptional({ ...ID, description: 'The parent union, for a branch.' }) transportUnion?: string;
  @ApiProperty({ example: 'GA-183-8164' }) digitalAddress!: string;
  @ApiProperty({ example: '+233302000333' }) contactNumber!: string;
  @ApiProperty({ example: 'accra@gprtu.org.gh' }) email!: string;
  @ApiProperty({ type: [String] }) zones!: string[];
}

export class TransportUnionRecordResponse extends TransportUnionResponse implements Versions {
  @ApiProperty({ ...DATE }) createdAt!: string;
  @ApiProperty({ ...DATE }) updatedAt!: string;
  @ApiProperty({ example: 0 }) __v!: number;
}

const versions = (s: { createdAt: Date; updatedAt: Date; version: number }): Versions => ({
  createdAt: s.createdAt.toISOString(),
  updatedAt: s.updatedAt.toISOString(),
  __v: s.version,
});

export const toRegionResponse = (r: RegionState): RegionResponse => ({ _id: r.id, name: r.name, country: r.country });
export const toRegionRecordResponse = (r: RegionState): RegionRecordResponse => ({
  ...toRegionResponse(r),
  ...versions(r),
});

export function toAssemblyResponse(a: AssemblyState, region: RegionState): AssemblyResponse {
  return {
    _id: a.id,
    name: a.name,
    region: toRegionResponse(region),
    digitalAddress: a.digitalAddress,
    type: a.type,
    ...versions(a),
  };
}

export function toAssemblyUserResponse(u: AssemblyUserState): AssemblyUserResponse {
  return {
    _id: u.id,
    assembly: u.assemblyId,
    name: u.name,
    email: u.email,
    phone: u.phone,
    role: u.role,
    disabledAt: u.disabledAt?.toISOString() ?? null,
    awaitingConfirmation: u.awaitingConfirmation === true,
    language: u.language ?? DEFAULT_LANGUAGE,
    nationwide: u.nationwide === true,
    ...versions(u),
  };
}

export function toStationResponse(s: StationState): StationResponse {
  return {
    _id: s.id,
    name: s.name,
    transportUnions: [...s.transportUnions],
    zones: [...s.zones],
    contactNumber: s.contactNumber,
    digitalAddress: s.digitalAddress,
  };
}
export const toStationRecordResponse = (s: StationState): StationRecordResponse => ({
  ...toStationResponse(s),
  ...versions(s),
});

export function toTransportUnionResponse(u: TransportUnionState): TransportUnionResponse {
  const out: TransportUnionResponse = {
    _id: u.id,
    status: u.status,
    name: u.name,
    digitalAddress: u.digitalAddress,
    contactNumber: u.contactNumber,
    email: u.email,
    zones: [...u.zones],
  };
  if (u.parentUnionId !== undefined) out.transportUnion = u.parentUnionId;
  return out;
}
export const toTransportUnionRecordResponse = (u: TransportUnionState): TransportUnionRecordResponse => ({
  ...toTransportUnionResponse(u),
  ...versions(u),
});
