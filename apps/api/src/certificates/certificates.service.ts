import { Inject, Injectable, Optional } from '@nestjs/common';
import {
  certificateDocuments,
  certificateVerdict,
  DomainError,
  firstNameOf,
  newCheckCode,
  type RandomSource,
  jurisdictionOf,
  withinJurisdiction,
  type Actor,
  type CertificateDocument,
  type CertificateDocumentStatus,
  type CertificateState,
  type Clock,
  type DataStores,
  type NotGenuineReason,
  type UnitOfWork,
  type VehicleState,
  type WithdrawnReason,
  vouchedDriver,
} from '@transport/domain';
import type { AppConfig } from '../config';
import { FraudSignsService } from '../fraud-flags/fraud-signs.service';
import type { AuditTrail, RateLimits } from '../core/ports';
import type { PublicRegistry } from '../core/public-registry';
import type { Ed25519CertificateSigner } from '../core/platform/certificate-signer';
import {
  APP_CONFIG,
  AUDIT_TRAIL,
  CERTIFICATE_SIGNER,
  CLOCK,
  PUBLIC_REGISTRY,
  RANDOM_SOURCE,
  RATE_LIMITS,
  STORES,
  UNIT_OF_WORK,
} from '../core/tokens';

/** The audit actions of printing a certificate: the first print under an approval, and every one after it. */
export const CERTIFICATE_ISSUED = 'CertificateIssued';
export const CERTIFICATE_REPRINTED = 'CertificateReprinted';

/** What the public may know of a vehicle: what a passenger checks (the list's anonymous view), with names. */
export interface PublicVehicle {
  registrationNumber: string;
  make?: string;
  model?: string;
  color?: string;
  type?: string;
  capacity?: number;
  transportUnion?: string;
  station?: string;
}

/** A certificate as printed: the vehicle's public fields and more, and the URL its QR code holds. */
export interface PrintedCertificate {
  kind: 'printed';
  url: string;
  keyId: string;
  issuedAt: Date;
  approvedAt: Date;
  reprint: boolean;
  /** The vehicle's check code (ten digits), typed by USSD or SMS where there is no QR reader. */
  checkCode: string;
  vehicle: PublicVehicle & { assembly?: string };
  documents: CertificateDocumentStatus[];
}

/**
 * A certificate as viewed, not printed: the same sheet without a QR code (no token is signed, nothing is audited, and
 * the next print is not made a reprint by it), so a viewed page cannot stand in for a printed sticker.
 */
export interface CertificatePreview {
  kind: 'preview';
  viewedAt: Date;
  approvedAt: Date;
  vehicle: PublicVehicle & { assembly?: string };
  documents: CertificateDocumentStatus[];
}

/** A vehicle's standing as its sticker would show it now (core of the USSD and SMS checks). */
export interface VehicleCheck {
  state: 'valid' | 'expired' | 'withdrawn';
  checkedAt: Date;
  vehicle: PublicVehicle;
  documents: CertificateDocumentStatus[];
  assemblyId?: string;
}

/** A vehicle that has a certificate: approved, with a plate. */
type ApprovedVehicle = VehicleState & { dateApproved: Date; registrationNumber: string };

/** The answer to a check of a certificate's token: one of four states, and what the public may see with it. */
export interface CertificateCheck {
  state: CertificateState;
  checkedAt: Date;
  reason?: WithdrawnReason | NotGenuineReason;
  expiredDocuments?: CertificateDocument[];
  certificate?: { keyId: string; issuedAt: Date; approvedAt: Date };
  vehicle?: PublicVehicle;
  documents?: CertificateDocumentStatus[];
  driver?: { firstName: string; rating: number | null } | null;
  /** The assembly that approved the vehicle (the certificate's issuer): named on the public page, not in the JSON. */
  issuer?: string;
}

/**
 * Vehicle certificates: printed by staff for an approved vehicle in their jurisdiction (each print audited, the
 * first under an approval as issued, the others as reprinted), and checked by anyone from the token in the QR code.
 * Withdrawal needs no act of its own: the token names the approval, so withdrawing the approval (audited as the
 * vehicle's VehicleApprovalWithdrawn) withdraws every certificate printed under it.
 */
@Injectable()
export class CertificatesService {
  constructor(
    @Inject(UNIT_OF_WORK) private readonly uow: UnitOfWork,
    @Inject(STORES) private readonly stores: DataStores,
    @Inject(AUDIT_TRAIL) private readonly trail: AuditTrail,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(CERTIFICATE_SIGNER) private readonly signer: Ed25519CertificateSigner,
    @Inject(RATE_LIMITS) private readonly limits: RateLimits,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(PUBLIC_REGISTRY) private readonly registry: PublicRegistry,
    @Inject(RANDOM_SOURCE) private readonly random: RandomSource,
    @Optional() private readonly fraudSigns?: FraudSignsService,
  ) {}

  /** Viewing: the sheet as it would print now, without a QR code; writes nothing (GET and HEAD). */
  async view(id: string, actor: Actor): Promise<CertificatePreview> {
    const s = await this.approvedVehicle(id, actor);
    const viewedAt = this.clock.now();
    const [vehicle, documents] = await this.sheet(s, viewedAt);
    return { kind: 'preview', viewedAt, approvedAt: s.dateApproved, vehicle, documents };
  }

  /** Printing, the explicit act (a POST, CSRF-checked for a dashboard session): signs a token and audits the print. */
  async print(id: string, actor: Actor): Promise<PrintedCertificate> {
    const s = await this.approvedVehicle(id, actor);
    const issuedAt = this.clock.now();
    const approvedAt = s.dateApproved;
    const registrationNumber = s.registrationNumber;
    const token = this.signer.sign({ vehicleId: s.id, registrationNumber, approvedAt, issuedAt });
    const last = await this.trail.latest('vehicle', s.id, [CERTIFICATE_ISSUED, CERTIFICATE_REPRINTED]);
    const reprint = (last?.after as { approvedAt?: string } | null)?.approvedAt === approvedAt.toISOString();
    const keyId = this.signer.signingKeyId;
    await this.uow.run((context) =>
      context.audit.append([
        {
          entity: 'vehicle',
          entityId: s.id,
          action: reprint ? CERTIFICATE_REPRINTED : CERTIFICATE_ISSUED,
          actor,
          before: null,
          after: { approvedAt: approvedAt.toISOString(), registrationNumber, keyId },
          at: issuedAt,
        },
      ]),
    );
    // A sticker printed without photo evidence of the inspection is a sign of fraud (never refusing the print).
    await this.fraudSigns?.stickerPrinted(s, approvedAt);
    const [vehicle, documents] = await this.sheet(s, issuedAt);
    const checkCode = await this.registry.checkCodeOf(s.id, newCheckCode(this.random));
    return {
      kind: 'printed',
      checkCode,
      url: `${this.config.publicBaseUrl}/v/${token}`,
      keyId,
      issuedAt,
      approvedAt,
      reprint,
      vehicle,
      documents,
    };
  }

  /** An approved vehicle within the caller's jurisdiction (another assembly's is a 404): only it has a certificate. */
  private async approvedVehicle(id: string, actor: Actor): Promise<ApprovedVehicle> {
    const vehicle = withinJurisdiction(jurisdictionOf(actor), await this.stores.vehicles.findById(id), 'vehicle', id);
    const s = vehicle.toState();
    if (!s.approved || !s.dateApproved || !s.registrationNumber)
      throw new DomainError(
        'VEHICLE_NOT_APPROVED',
        'Only an approved vehicle has a certificate: approve it first (POST /vehicles/{id}/approve)',
      );
    return { ...s, dateApproved: s.dateApproved, registrationNumber: s.registrationNumber };
  }

  /** What a sheet shows of the vehicle (its public fields and assembly) and its documents at `at`. */
  private async sheet(
    s: VehicleState,
    at: Date,
  ): Promise<[PublicVehicle & { assembly?: string }, CertificateDocumentStatus[]]> {
    const [publicFields, assembly, driver] = await Promise.all([
      this.publicVehicle(s),
      s.assemblyId ? this.stores.assemblies.findById(s.assemblyId) : undefined,
      this.driverOf(s),
    ]);
    return [
      { ...publicFields, assembly: assembly?.toState().name },
      certificateDocuments(s, driver?.toState().licenseExpiry, at),
    ];
  }

  /** What a certificate's token says now, for anyone (counted per client address). */
  async check(token: string, clientAddress: string): Promise<CertificateCheck> {
    await this.limits.consume('certificate-check-address', clientAddress);
    const checkedAt = this.clock.now();
    const read = this.signer.check(token);
    if (!read.genuine) return { state: 'not_genuine', reason: read.reason, checkedAt };
    const { claims } = read;
    const vehicle = (await this.stores.vehicles.findById(claims.vehicleId))?.toState();
    const driver = vehicle ? await this.driverOf(vehicle) : undefined;
    const verdict = certificateVerdict(claims, vehicle, driver?.toState().licenseExpiry, checkedAt);
    const certificate = { keyId: read.keyId, issuedAt: claims.issuedAt, approvedAt: claims.approvedAt };
    // A withdrawn certificate vouches for nothing: the plate it was printed for, and no more.
    if (verdict.state === 'withdrawn' || !vehicle)
      return {
        state: 'withdrawn',
        reason: verdict.state === 'withdrawn' ? verdict.reason : 'vehicle_removed',
        checkedAt,
        certificate,
        vehicle: { registrationNumber: claims.registrationNumber },
      };
    const issuer = vehicle.assemblyId
      ? (await this.stores.assemblies.findById(vehicle.assemblyId))?.toState().name
      : undefined;
    return {
      state: verdict.state,
      checkedAt,
      ...(issuer !== undefined && { issuer }),
      ...(verdict.state === 'expired' && { expiredDocuments: verdict.expiredDocuments }),
      certificate,
      vehicle: await this.publicVehicle(vehicle),
      documents: verdict.documents,
      driver: driver ? { firstName: firstNameOf(driver.toState().name), rating: driver.rating ?? null } : null,
    };
  }

  /**
   * What a check of the vehicle's sticker would say now, found by plate or check code instead of a token (USSD, SMS):
   * the verdict on its current approval (withdrawn when it has none), its public fields and documents.
   */
  async current(vehicleId: string): Promise<VehicleCheck | undefined> {
    const s = (await this.stores.vehicles.findById(vehicleId))?.toState();
    if (!s) return undefined;
    const checkedAt = this.clock.now();
    const [vehicle, driver] = await Promise.all([this.publicVehicle(s), this.driverOf(s)]);
    if (!s.approved || !s.dateApproved)
      return {
        state: 'withdrawn',
        checkedAt,
        vehicle,
        documents: certificateDocuments(s, driver?.toState().licenseExpiry, checkedAt),
        assemblyId: s.assemblyId,
      };
    const claims = {
      vehicleId: s.id,
      registrationNumber: s.registrationNumber ?? '',
      approvedAt: s.dateApproved,
      issuedAt: checkedAt,
    };
    const verdict = certificateVerdict(claims, s, driver?.toState().licenseExpiry, checkedAt);
    // The vehicle's own approval is current by construction: the verdict is valid or expired.
    const documents = verdict.state === 'withdrawn' ? [] : verdict.documents;
    return { state: verdict.state, checkedAt, vehicle, documents, assemblyId: s.assemblyId };
  }

  /** The public keys certificates are checked with (JWKS). */
  jwks() {
    return this.signer.jwks();
  }

  /** The driver the certificate vouches for: the linked one while approved (a revoked driver is never shown). */
  private async driverOf(s: VehicleState) {
    return vouchedDriver(s.driverId ? await this.stores.drivers.findById(s.driverId) : undefined);
  }

  private async publicVehicle(s: VehicleState): Promise<PublicVehicle> {
    const [station, union] = await Promise.all([
      s.stationId ? this.stores.stations.findById(s.stationId) : undefined,
      s.transportUnionId ? this.stores.unions.findById(s.transportUnionId) : undefined,
    ]);
    return {
      registrationNumber: s.registrationNumber ?? '',
      make: s.make,
      model: s.model,
      color: s.color,
      type: s.type,
      capacity: s.capacity,
      transportUnion: union?.toState().name,
      station: station?.toState().name,
    };
  }
}
