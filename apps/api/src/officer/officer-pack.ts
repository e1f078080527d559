import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { createHash } from 'node:crypto';
import {
  certificateDocuments,
  driverStanding,
  registrationSearchKey,
  vouchedDriver,
  type Driver,
  type Notice,
  type VehicleState,
} from '@transport/domain';
import { DATE, ID } from '../core/http/dto-support';
import { NoticeSummaryResponse, toNoticeSummary } from '../enforcement/enforcement.dto';

// An enforcer's work pack (issue 47, item 2): what the roadside check needs without a signal, and no more. The
// approved driver's licence number and phone travel only as salted hashes (docs/enforcement.md, "On the phone").

/** Letters and digits, upper case: a licence number as typed at the roadside ("dl-7 2020" is "DL72020"). */
export const licenceKey = (raw: string) => raw.toUpperCase().replace(/[^A-Z0-9]/g, '');

/**
 * What the phone compares a typed licence number or phone with: the first 16 hex digits of SHA-256 over the vehicle's
 * id, the kind and the value (licence: its letters and digits, upper case; phone: E.164). Salted by the vehicle, so a
 * pack is no list of licence numbers or phones, and one hash says nothing about another vehicle's driver.
 */
export const driverHash = (vehicleId: string, kind: 'license' | 'phone', value: string) =>
  createHash('sha256').update(`${vehicleId}|${kind}|${value}`).digest('hex').slice(0, 16);

export class PackDocumentResponse {
  @ApiProperty({ enum: ['roadworthy', 'insurance', 'driverLicense'] }) document!: string;
  @ApiProperty({ ...DATE }) expiresOn!: string;
}

export class EnforcementPackVehicleResponse {
  @ApiProperty({ ...ID }) _id!: string;
  @ApiProperty({ example: 'GR 1001-24' }) registrationNumber!: string;
  @ApiProperty({ description: 'The plate as the search reads it (letters and digits, O as 0).', example: 'GR100124' })
  plateKey!: string;
  @ApiPropertyOptional() make?: string;
  @ApiPropertyOptional() model?: string;
  @ApiPropertyOptional() color?: string;
  @ApiPropertyOptional() type?: string;
  @ApiPropertyOptional({ ...ID }) assembly?: string;
  @ApiProperty({ description: 'Whether it is approved now (a sticker it shows vouches for it).' }) approved!: boolean;
  @ApiProperty({ type: [PackDocumentResponse], description: 'The phone tells expired from these dates.' })
  documents!: PackDocumentResponse[];
  @ApiProperty({
    type: [String],
    description:
      "Hashes of the approved driver's licence number and phone (none without an approved driver): driverHash in docs/enforcement.md.",
  })
  driverHashes!: string[];
  @ApiProperty({ type: [NoticeSummaryResponse] }) openNotices!: NoticeSummaryResponse[];
}

export function toPackVehicle(
  v: VehicleState,
  driver: Driver | undefined,
  notices: Notice[],
  now: Date,
): EnforcementPackVehicleResponse {
  const vouched = vouchedDriver(driver)?.toState();
  const d = driver?.toState();
  const approvedDriver = d !== undefined && driverStanding(d) === 'approved';
  return {
    _id: v.id,
    registrationNumber: v.registrationNumber ?? '',
    plateKey: registrationSearchKey(v.registrationNumber ?? ''),
    ...(v.make !== undefined && { make: v.make }),
    ...(v.model !== undefined && { model: v.model }),
    ...(v.color !== undefined && { color: v.color }),
    ...(v.type !== undefined && { type: v.type }),
    ...(v.assemblyId !== undefined && { assembly: v.assemblyId }),
    approved: v.approved === true && v.dateApproved !== undefined,
    documents: certificateDocuments(v, vouched?.licenseExpiry, now).map((doc) => ({
      document: doc.document,
      expiresOn: doc.expiresOn.toISOString(),
    })),
    driverHashes: approvedDriver
      ? [driverHash(v.id, 'license', licenceKey(d.license)), driverHash(v.id, 'phone', d.phone)]
      : [],
    openNotices: notices.map((n) => toNoticeSummary(n, now)),
  };
}
