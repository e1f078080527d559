import { ApiProperty, ApiPropertyOptional, PartialType, PickType } from '@nestjs/swagger';
import { IsEmail, IsIn, IsString, MaxLength, MinLength } from 'class-validator';
import { ID_TYPES, type VehicleOwnerState, CORRECTABLE_OWNER_FIELDS } from '@transport/domain';
import { LanguageField, LanguageResponseField } from '../core/http/language.dto';
import { ID } from '../core/http/dto-support';
import { IdParam, LimitParam, CountParam } from '../core/http/query-values';
import { AssemblyOfNewRecord, AssemblyOfRecord } from '../core/http/jurisdiction.dto';
import { RecordResponse } from '../core/http/record-response';

// Requests and responses of the vehicle-owner routes (/vehicles/owner/...), declared once.

export class AddOwnerBody {
  @ApiProperty({ example: 'Kofi Asante' }) @IsString() @MaxLength(120) name!: string;
  @ApiProperty({ example: '0244123456' }) @IsString() @MaxLength(20) phone!: string;
  @ApiProperty({ example: 'kofi.asante@example.com' })
  @IsEmail({}, { message: 'email must be an email address' })
  @MaxLength(254)
  email!: string;
  @ApiProperty({ enum: ID_TYPES }) @IsIn(ID_TYPES as unknown as string[]) idType!: string;
  @ApiProperty({ example: 'GHA-712345678-9' }) @IsString() @MaxLength(30) idNumber!: string;
  @AssemblyOfNewRecord('the assembly of the registering assembly key; for an admin, unassigned.') assembly?: string;
  @LanguageField('owner') language?: string;
}

/** A correction: contact details, and the identity document until the owner is verified (validated as at registration). */
export class CorrectOwnerBody extends PartialType(PickType(AddOwnerBody, CORRECTABLE_OWNER_FIELDS)) {}

export class OwnerSearchQuery {
  @ApiProperty({
    description:
      'Part of a name, phone (0244... or +233244...) or email; case-insensitive; 3 to 100 characters (the trigram indexes serve 3 and more).',
    example: 'mensah',
  })
  @IsString()
  @MinLength(3, { message: 'query must be at least 3 characters' })
  @MaxLength(100, { message: 'query must be at most 100 characters' })
  query!: string;

  @LimitParam() limit?: number;
  @CountParam() count?: string;
  @IdParam('Cursor: the `_id` of the last owner of the previous page.') after?: string;
}

export class OwnerListQuery {
  @LimitParam() limit?: number;
  @CountParam() count?: string;
  @IdParam('Cursor: the `_id` of the last owner of the previous page.') after?: string;
}

const NO_EMAIL =
  'Required for a new owner. Absent (never null) only on an owner imported from the original service, whose agents ' +
  'registered some owners by phone only; a correction may add it.';

/** Exactly the owner fields of the interface's driver listing (no record fields there). */
export class EmbeddedOwnerResponse {
  @ApiProperty({ ...ID }) _id!: string;
  @ApiProperty({ example: 'Kofi Asante' }) name!: string;
  @ApiProperty({ example: '+233244123456', description: 'Canonical form +233XXXXXXXXX.' }) phone!: string;
  @ApiPropertyOptional({ example: 'kofi.asante@example.com', description: NO_EMAIL }) email?: string;
  @ApiProperty({ enum: ID_TYPES }) idType!: string;
  @ApiProperty({ example: 'GHA-712345678-9' }) idNumber!: string;
  @ApiProperty() verified!: boolean;
}

/** A vehicle owner: the embedded fields plus the record fields. */
export class OwnerResponse extends RecordResponse {
  @ApiProperty({ example: 'Kofi Asante' }) name!: string;
  @ApiProperty({ example: '+233244123456', description: 'Canonical form +233XXXXXXXXX.' }) phone!: string;
  @ApiPropertyOptional({ example: 'kofi.asante@example.com', description: NO_EMAIL }) email?: string;
  @ApiProperty({ enum: ID_TYPES }) idType!: string;
  @ApiProperty({ example: 'GHA-712345678-9' }) idNumber!: string;
  @ApiProperty() verified!: boolean;
  @LanguageResponseField('owner') language!: string;
  @AssemblyOfRecord() assembly?: string | null;
}

export function toEmbeddedOwner(o: VehicleOwnerState): EmbeddedOwnerResponse {
  return {
    _id: o.id,
    name: o.name,
    phone: o.phone,
    ...(o.email !== undefined && { email: o.email }),
    idType: o.idType,
    idNumber: o.idNumber,
    verified: o.verified,
  };
}

export function toOwnerResponse(o: VehicleOwnerState): OwnerResponse {
  return {
    ...toEmbeddedOwner(o),
    language: o.language,
    assembly: o.assemblyId ?? null,
    createdAt: o.createdAt.toISOString(),
    updatedAt: o.updatedAt.toISOString(),
    __v: o.version,
  };
}
