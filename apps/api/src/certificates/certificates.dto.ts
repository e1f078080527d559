import { ApiExtraModels, ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ApiNullableObject } from '../core/http/openapi';
import { IsIn, IsOptional } from 'class-validator';
import {
  CERTIFICATE_DOCUMENTS,
  CERTIFICATE_STATES,
  NOT_GENUINE_REASONS,
  WITHDRAWN_REASONS,
  type CertificateDocumentStatus,
} from '@transport/domain';
import { CERTIFICATE_SIZES, type CertificateSize } from './certificate-pages';
import type { CertificateCheck, PublicVehicle } from './certificates.service';

export class CertificateQuery {
  @ApiPropertyOptional({
    enum: CERTIFICATE_SIZES,
    default: 'a6',
    description: 'The paper: `a6`, a windscreen sticker; `a4`, a page for the owner.',
  })
  @IsOptional()
  @IsIn(CERTIFICATE_SIZES as unknown as string[], { message: `size must be one of ${CERTIFICATE_SIZES.join(', ')}` })
  size?: CertificateSize;
}

export class PublicVehicleResponse {
  @ApiProperty({ example: 'GR 1000-24' }) registrationNumber!: string;
  @ApiPropertyOptional({ example: 'Toyota' }) make?: string;
  @ApiPropertyOptional({ example: 'Corolla' }) model?: string;
  @ApiPropertyOptional({ example: '#FFD700' }) color?: string;
  @ApiPropertyOptional({ example: 'taxi' }) type?: string;
  @ApiPropertyOptional({ example: 4 }) capacity?: number;
  @ApiPropertyOptional({ example: 'GPRTU Kaneshie', description: "The transport union's name." })
  transportUnion?: string;
  @ApiPropertyOptional({ example: 'Kaneshie', description: "The station's name." }) station?: string;
}

export class CertificateDocumentResponse {
  @ApiProperty({ enum: CERTIFICATE_DOCUMENTS }) document!: string;
  @ApiProperty({ format: 'date-time' }) expiresOn!: string;
  @ApiProperty() expired!: boolean;
}

export class CertificateInfoResponse {
  @ApiProperty({ description: 'The id of the key that signed it (in the JWKS while it verifies).' }) keyId!: string;
  @ApiProperty({ format: 'date-time' }) issuedAt!: string;
  @ApiProperty({ format: 'date-time', description: 'The approval it was printed under (to the second).' })
  approvedAt!: string;
}

export class CertificateDriverResponse {
  @ApiProperty({ example: 'Kofi' }) firstName!: string;
  @ApiProperty({ type: 'number', nullable: true, example: 4.5, description: 'Average of 1-5 stars; null before any.' })
  rating!: number | null;
}

@ApiExtraModels(CertificateDriverResponse)
export class CertificateCheckResponse {
  @ApiProperty({ enum: CERTIFICATE_STATES }) state!: string;
  @ApiProperty({ format: 'date-time' }) checkedAt!: string;
  @ApiPropertyOptional({
    enum: [...WITHDRAWN_REASONS, ...NOT_GENUINE_REASONS],
    description:
      'withdrawn: approval_withdrawn (failed re-inspection, or a corrected plate), approved_again (a newer certificate replaces it), vehicle_removed; ' +
      'not_genuine: malformed, unknown_key (not ours, or a retired key), bad_signature (altered or forged).',
  })
  reason?: string;
  @ApiPropertyOptional({ enum: CERTIFICATE_DOCUMENTS, isArray: true, description: 'expired: which documents ended.' })
  expiredDocuments?: string[];
  @ApiPropertyOptional({ type: CertificateInfoResponse }) certificate?: CertificateInfoResponse;
  @ApiPropertyOptional({
    type: PublicVehicleResponse,
    description:
      'valid and expired: the vehicle as the public sees it; withdrawn: the plate the certificate names only.',
  })
  vehicle?: PublicVehicleResponse;
  @ApiPropertyOptional({ type: [CertificateDocumentResponse] }) documents?: CertificateDocumentResponse[];
  @ApiNullableObject(CertificateDriverResponse, {
    description:
      'valid and expired: the linked driver while their approval stands (first name and rating only); null when none is linked or the linked driver is not approved (revoked): a withdrawn driver is never shown, and their licence is not among the documents.',
    required: false,
  })
  driver?: CertificateDriverResponse | null;
}

export class CertificateJwkResponse {
  @ApiProperty({ enum: ['OKP'] }) kty!: string;
  @ApiProperty({ enum: ['Ed25519'] }) crv!: string;
  @ApiProperty({ description: 'The public key, base64url.' }) x!: string;
  @ApiProperty() kid!: string;
  @ApiProperty({ enum: ['EdDSA'] }) alg!: string;
  @ApiProperty({ enum: ['sig'] }) use!: string;
}

export class JwksResponse {
  @ApiProperty({ type: [CertificateJwkResponse], description: 'The signing key first, then the others that verify.' })
  keys!: CertificateJwkResponse[];
}

const iso = (date: Date) => date.toISOString();

const toDocument = (d: CertificateDocumentStatus): CertificateDocumentResponse => ({
  document: d.document,
  expiresOn: iso(d.expiresOn),
  expired: d.expired,
});

/** Only the public fields that are set (absent, not null, like the vehicle list's public view). */
const toPublicVehicle = (v: PublicVehicle): PublicVehicleResponse =>
  Object.fromEntries(Object.entries(v).filter(([, value]) => value !== undefined)) as unknown as PublicVehicleResponse;

export function toCertificateCheckResponse(c: CertificateCheck): CertificateCheckResponse {
  return {
    state: c.state,
    checkedAt: iso(c.checkedAt),
    ...(c.reason !== undefined && { reason: c.reason }),
    ...(c.expiredDocuments && { expiredDocuments: c.expiredDocuments }),
    ...(c.certificate && {
      certificate: {
        keyId: c.certificate.keyId,
        issuedAt: iso(c.certificate.issuedAt),
        approvedAt: iso(c.certificate.approvedAt),
      },
    }),
    ...(c.vehicle && { vehicle: toPublicVehicle(c.vehicle) }),
    ...(c.documents && { documents: c.documents.map(toDocument) }),
    ...(c.driver !== undefined && { driver: c.driver }),
  };
}
