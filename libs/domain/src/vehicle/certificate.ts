import type { VehicleState } from './vehicle';

/**
 * What a vehicle certificate's signed token says: which vehicle, under which approval, with which plate. The token
 * names the approval (its date), not just the vehicle: a sticker printed before an approval was withdrawn stays
 * withdrawn after the vehicle is approved again (a new sticker is printed then).
 */
export interface CertificateClaims {
  vehicleId: string;
  registrationNumber: string;
  /** The approval the certificate was printed under, to the second. */
  approvedAt: Date;
  issuedAt: Date;
}

/** The documents whose expiry a certificate shows, and that make it expired when one has ended. */
export const CERTIFICATE_DOCUMENTS = ['roadworthy', 'insurance', 'driverLicense'] as const;
export type CertificateDocument = (typeof CERTIFICATE_DOCUMENTS)[number];

export const CERTIFICATE_STATES = ['valid', 'expired', 'withdrawn', 'not_genuine'] as const;
export type CertificateState = (typeof CERTIFICATE_STATES)[number];

/** Why a token is not genuine: it cannot be read, its key is not (or no longer) ours, or its signature is wrong. */
export const NOT_GENUINE_REASONS = ['malformed', 'unknown_key', 'bad_signature'] as const;
export type NotGenuineReason = (typeof NOT_GENUINE_REASONS)[number];

/** Why a genuine certificate no longer stands. */
export const WITHDRAWN_REASONS = ['approval_withdrawn', 'approved_again', 'vehicle_removed'] as const;
export type WithdrawnReason = (typeof WITHDRAWN_REASONS)[number];

export interface CertificateDocumentStatus {
  document: CertificateDocument;
  expiresOn: Date;
  expired: boolean;
}

/** The verdict on a certificate whose signature checked out (a token that does not is simply not genuine). */
export type CertificateVerdict =
  | { state: 'valid'; documents: CertificateDocumentStatus[] }
  | { state: 'expired'; documents: CertificateDocumentStatus[]; expiredDocuments: CertificateDocument[] }
  | { state: 'withdrawn'; reason: WithdrawnReason };

/** The certificate's approval as a token carries it (seconds: the token stays short). */
export function approvalSecond(approvedAt: Date): number {
  return Math.floor(approvedAt.getTime() / 1000);
}

/**
 * The verdict on a genuine certificate (its signature checked by the caller) at `now`: withdrawn when the vehicle
 * is gone, no longer approved, or approved again since (the approval the sticker names has ended); else expired when
 * a document it shows has ended (naming each), else valid. `driverLicenseExpiry` is the linked driver's, if any.
 */
export function certificateVerdict(
  claims: CertificateClaims,
  vehicle: Pick<VehicleState, 'approved' | 'dateApproved' | 'roadWorthyExpiryDate' | 'insuranceExpiryDate'> | undefined,
  driverLicenseExpiry: Date | undefined,
  now: Date,
): CertificateVerdict {
  if (!vehicle) return { state: 'withdrawn', reason: 'vehicle_removed' };
  if (!vehicle.approved || !vehicle.dateApproved) return { state: 'withdrawn', reason: 'approval_withdrawn' };
  if (approvalSecond(vehicle.dateApproved) !== approvalSecond(claims.approvedAt))
    return { state: 'withdrawn', reason: 'approved_again' };
  const documents = certificateDocuments(vehicle, driverLicenseExpiry, now);
  const expiredDocuments = documents.filter((d) => d.expired).map((d) => d.document);
  return expiredDocuments.length > 0
    ? { state: 'expired', documents, expiredDocuments }
    : { state: 'valid', documents };
}

/** The expiry of each document a certificate shows (those recorded), and whether it has ended at `now`. */
export function certificateDocuments(
  vehicle: Pick<VehicleState, 'roadWorthyExpiryDate' | 'insuranceExpiryDate'>,
  driverLicenseExpiry: Date | undefined,
  now: Date,
): CertificateDocumentStatus[] {
  const expiries: Record<CertificateDocument, Date | undefined> = {
    roadworthy: vehicle.roadWorthyExpiryDate,
    insurance: vehicle.insuranceExpiryDate,
    driverLicense: driverLicenseExpiry,
  };
  return CERTIFICATE_DOCUMENTS.flatMap((document) => {
    const expiresOn = expiries[document];
    return expiresOn ? [{ document, expiresOn, expired: expiresOn <= now }] : [];
  });
}

/** What the public is told of a driver: the first word of the name only. */
export function firstNameOf(name: string): string {
  return name.trim().split(/\s+/)[0];
}

/**
 * The driver a certificate vouches for: the linked driver while their approval stands, else none. A driver whose
 * approval was revoked (or withdrawn by a corrected licence) stays linked to the vehicle until staff unlink them, but
 * the public must never read them, nor their licence, under the vehicle's verdict.
 */
export function vouchedDriver<D extends { toState(): { approved: boolean } }>(driver: D | undefined): D | undefined {
  return driver?.toState().approved ? driver : undefined;
}
