import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDate, IsIn, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { OBJECT_ID_PATTERN } from '@transport/domain';
import { DATE, ID, idMessage, ToDate } from '../core/http/dto-support';
import { IdParam, LimitParam, CountParam } from '../core/http/query-values';
import { ROLES } from '../core/auth/principal';
import type { ApiKeyRecord, AuditRecord } from '../core/ports';

// Requests and responses of the admin routes (API keys, merchants, the audit log), declared once.

/** The record kinds the audit log keeps history for. */
export const AUDITED_ENTITIES = [
  'vehicle',
  'driver',
  'trip',
  'owner',
  'region',
  'assembly',
  'assemblyUser',
  'station',
  'transportUnion',
  'merchant',
  'apiKey',
  // Vehicles the public reported by USSD (docs/ussd-sms.md).
  'vehicleReport',
] as const;
const ACTOR_ROLES = [...ROLES, 'system', 'anonymous'] as const;

export class AuditQuery {
  @ApiProperty({ enum: AUDITED_ENTITIES }) @IsIn(AUDITED_ENTITIES as unknown as string[]) entity!: string;
  @ApiProperty({ ...ID }) @Matches(OBJECT_ID_PATTERN, idMessage) id!: string;
}

const AUDIT_ENTRY_ID = /^\d{1,19}$/;

/** Browsing the whole log: every filter optional, newest first, keyset-paged. */
export class AuditBrowseQuery {
  @ApiPropertyOptional({ enum: AUDITED_ENTITIES, description: 'Only entries about this kind of record.' })
  @IsOptional()
  @IsIn(AUDITED_ENTITIES as unknown as string[])
  entity?: string;
  @ApiPropertyOptional({
    description:
      "Only this actor's entries: an admin's, assembly user's, merchant's or platform's id, or a system job's name.",
    example: '65a1b2c3d4e5f60718293a4b',
  })
  @IsOptional()
  @IsString()
  @Matches(/^[A-Za-z0-9_-]{1,64}$/, { message: 'actor must be an id or a job name (letters, digits, - and _)' })
  actor?: string;
  @ApiPropertyOptional({ enum: ACTOR_ROLES, description: 'Only entries by this kind of actor.' })
  @IsOptional()
  @IsIn(ACTOR_ROLES as unknown as string[])
  actorRole?: string;
  @ApiPropertyOptional({ ...DATE, description: 'Entries at or after this instant (ISO 8601).' })
  @IsOptional()
  @ToDate()
  @IsDate({ message: 'from must be an ISO 8601 date-time' })
  from?: Date;
  @ApiPropertyOptional({ ...DATE, description: 'Entries before this instant (ISO 8601).' })
  @IsOptional()
  @ToDate()
  @IsDate({ message: 'to must be an ISO 8601 date-time' })
  to?: Date;
  @LimitParam() limit?: number;
  @CountParam() count?: string;
  @ApiPropertyOptional({
    description: 'Cursor: the `_id` of the last entry of the previous page.',
    pattern: AUDIT_ENTRY_ID.source,
    example: '4242',
  })
  @IsOptional()
  @Matches(AUDIT_ENTRY_ID, { message: 'after must be an audit entry _id (digits)' })
  after?: string;
}

export class AddMerchantBody {
  @ApiProperty({ example: 'Kumasi Rides Ltd' }) @IsString() @MaxLength(160) name!: string;
}

export class IssueKeyBody {
  @ApiProperty({ enum: ROLES }) @IsIn(ROLES as unknown as string[]) role!: string;
  @ApiProperty({ ...ID, description: 'The admin, assembly user, merchant or platform the key is for.' })
  @Matches(OBJECT_ID_PATTERN, idMessage)
  principal!: string;
  @ApiPropertyOptional({ example: 'till 1' }) @IsOptional() @IsString() @MaxLength(80) label?: string;
  @ApiPropertyOptional({
    ...DATE,
    description:
      'After this the key no longer works (401). In the future, at most 5 years ahead; unset: until revoked.',
  })
  @IsOptional()
  @ToDate()
  @IsDate({ message: 'expiresAt must be an ISO 8601 date-time' })
  expiresAt?: Date;
}

class ActorResponse {
  @ApiProperty({ enum: ACTOR_ROLES }) role!: string;
  @ApiProperty() id!: string;
}

export class AuditEntryResponse {
  @ApiProperty({ example: '42' }) _id!: string;
  @ApiProperty({ example: 'vehicle' }) entity!: string;
  @ApiProperty({ ...ID }) entityId!: string;
  @ApiProperty({ example: 'VehicleApproved' }) action!: string;
  @ApiProperty({ type: ActorResponse }) actor!: ActorResponse;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    nullable: true,
    description: 'The record before the change.',
  })
  before!: unknown;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    nullable: true,
    description: 'The record after the change.',
  })
  after!: unknown;
  @ApiProperty({ ...DATE }) at!: string;
}

export const toAuditEntryResponse = (r: AuditRecord): AuditEntryResponse => ({
  _id: r.id,
  entity: r.entity,
  entityId: r.entityId,
  action: r.action,
  actor: { role: r.actor.role, id: r.actor.id },
  before: r.before,
  after: r.after,
  at: r.at.toISOString(),
});

export class MerchantCreatedResponse {
  @ApiProperty({ ...ID }) _id!: string;
  @ApiProperty({ example: 'Kumasi Rides Ltd' }) name!: string;
  @ApiProperty({
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    description: 'Shown this once: the Standard Webhooks secret that verifies our notifications (webhook-signature).',
  })
  signingSecret!: string;
  @ApiProperty({ ...DATE }) createdAt!: string;
  @ApiProperty({ ...DATE }) updatedAt!: string;
  @ApiProperty({ example: 0 }) __v!: number;
}

export class IssuedKeyResponse {
  @ApiProperty({ ...ID }) _id!: string;
  @ApiProperty({ example: 'tp_merchant_…', description: 'Shown this once; only its hash is stored.' }) key!: string;
  @ApiProperty({ enum: ROLES }) role!: string;
  @ApiProperty({ ...ID }) principal!: string;
  @ApiProperty({ ...DATE, type: String, nullable: true, description: 'null: valid until revoked.' })
  expiresAt!: string | null;
}

export class KeySummaryResponse {
  @ApiProperty({ ...ID }) _id!: string;
  @ApiProperty({ enum: ROLES }) role!: string;
  @ApiProperty({ ...ID }) principal!: string;
  @ApiProperty() label!: string;
  @ApiProperty() revoked!: boolean;
  @ApiProperty({ ...DATE, type: String, nullable: true, description: 'null: valid until revoked.' })
  expiresAt!: string | null;
  @ApiProperty({
    ...DATE,
    type: String,
    nullable: true,
    description: 'When the key was last used, to the hour (recorded at most once an hour); null: never used.',
  })
  lastUsedAt!: string | null;
  @ApiProperty({ ...DATE }) createdAt!: string;
}

export const toKeySummary = (r: ApiKeyRecord): KeySummaryResponse => ({
  _id: r.id,
  role: r.role,
  principal: r.principalId,
  label: r.label,
  revoked: r.revokedAt !== null,
  expiresAt: r.expiresAt?.toISOString() ?? null,
  lastUsedAt: r.lastUsedAt?.toISOString() ?? null,
  createdAt: r.createdAt.toISOString(),
});

export class RevokedKeyResponse {
  @ApiProperty({ ...ID }) _id!: string;
  @ApiProperty({ example: true }) revoked!: boolean;
}

/** `GET /admin/keys`: newest first, keyset-paged like every list. */
export class KeyListQuery {
  @LimitParam() limit?: number;
  @CountParam() count?: string;
  @IdParam('Cursor: the `_id` of the last key of the previous page.') after?: string;
}
