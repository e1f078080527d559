import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { RegionDoc } from '../assembly/assembly.openapi';
import { StationDoc, TransportUnionDoc, VehicleResponseDoc } from '../vehicles/vehicle.openapi';

const ID = { example: '65a1b2c3d4e5f60718293a4b', pattern: '^[0-9a-f]{24}$' };
const DATE = { format: 'date-time', example: '2026-11-22T08:30:00.000Z' };

export class RegionRecordDoc extends RegionDoc {
  @ApiProperty({ ...DATE }) createdAt!: string;
  @ApiProperty({ ...DATE }) updatedAt!: string;
  @ApiProperty({ example: 0 }) __v!: number;
}
export class StationRecordDoc extends StationDoc {
  @ApiProperty({ ...DATE }) createdAt!: string;
  @ApiProperty({ ...DATE }) updatedAt!: string;
  @ApiProperty({ example: 0 }) __v!: number;
}
export class UnionRecordDoc extends TransportUnionDoc {
  @ApiProperty({ ...DATE }) createdAt!: string;
  @ApiProperty({ ...DATE }) updatedAt!: string;
  @ApiProperty({ example: 0 }) __v!: number;
}

class ComplianceReasonDoc {
  @ApiProperty({ enum: ['NOT_APPROVED', 'CHECKLIST_FAILED', 'ROADWORTHY_EXPIRED', 'INSURANCE_EXPIRED', 'ROADWORTHY_EXPIRING', 'INSURANCE_EXPIRING'] }) code!: string;
  @ApiPropertyOptional({ ...DATE, description: 'When the certificate ended or ends.' }) date?: string;
  @ApiPropertyOptional({ type: [String], description: 'Failed checklist items.' }) items?: string[];
}
export class ComplianceEntryDoc {
  @ApiProperty({ type: VehicleResponseDoc }) vehicle!: VehicleResponseDoc;
  @ApiProperty({ type: [ComplianceReasonDoc] }) reasons!: ComplianceReasonDoc[];
}

class ActorDoc {
  @ApiProperty({ enum: ['admin', 'assembly', 'merchant', 'platform', 'system', 'anonymous'] }) role!: string;
  @ApiProperty() id!: string;
}
export class AuditEntryDoc {
  @ApiProperty({ example: '42' }) _id!: string;
  @ApiProperty({ example: 'vehicle' }) entity!: string;
  @ApiProperty({ ...ID }) entityId!: string;
  @ApiProperty({ example: 'VehicleApproved' }) action!: string;
  @ApiProperty({ type: ActorDoc }) actor!: ActorDoc;
  @ApiProperty({ type: 'object', additionalProperties: true, nullable: true, description: 'The record before the change.' }) before!: object | null;
  @ApiProperty({ type: 'object', additionalProperties: true, nullable: true, description: 'The record after the change.' }) after!: object | null;
  @ApiProperty({ ...DATE }) at!: string;
}

export class MerchantCreatedDoc {
  @ApiProperty({ ...ID }) _id!: string;
  @ApiProperty({ example: 'Kumasi Rides Ltd' }) name!: string;
  @ApiProperty({ example: 'tp_whsec_…', description: 'Shown this once: verifies the HMAC-SHA256 signatures of our notifications.' }) signingSecret!: string;
  @ApiProperty({ ...DATE }) createdAt!: string;
  @ApiProperty({ ...DATE }) updatedAt!: string;
  @ApiProperty({ example: 0 }) __v!: number;
}

export class IssuedKeyDoc {
  @ApiProperty({ ...ID }) _id!: string;
  @ApiProperty({ example: 'tp_merchant_…', description: 'Shown this once; only its hash is stored.' }) key!: string;
  @ApiProperty({ enum: ['admin', 'assembly', 'merchant', 'platform'] }) role!: string;
  @ApiProperty({ ...ID }) principal!: string;
}

export class KeySummaryDoc {
  @ApiProperty({ ...ID }) _id!: string;
  @ApiProperty({ enum: ['admin', 'assembly', 'merchant', 'platform'] }) role!: string;
  @ApiProperty({ ...ID }) principal!: string;
  @ApiProperty() label!: string;
  @ApiProperty() revoked!: boolean;
  @ApiProperty({ ...DATE }) createdAt!: string;
}

export class RevokedKeyDoc {
  @ApiProperty({ ...ID }) _id!: string;
  @ApiProperty({ example: true }) revoked!: boolean;
}
