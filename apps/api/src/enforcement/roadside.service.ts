import { Inject, Injectable } from '@nestjs/common';
import {
  certificateDocuments,
  certificateVerdict,
  driverStanding,
  normalizePhone,
  registrationSearchKey,
  vouchedDriver,
  type Actor,
  type Clock,
  type DataStores,
  DomainError,
  parseGeoPoint,
  type IdGenerator,
  type Page,
  type PageRequest,
  type VehicleState,
} from '@transport/domain';
import { assertAssemblyDuty } from '../core/auth/duties';
import type { Ed25519CertificateSigner } from '../core/platform/certificate-signer';
import type { EnforcementStore, RoadsideCheckRecord } from '../core/ports';
import type { PublicRegistry } from '../core/public-registry';
import { CERTIFICATE_SIGNER, CLOCK, ENFORCEMENT_STORE, ID_GENERATOR, PUBLIC_REGISTRY, STORES } from '../core/tokens';
import { toNoticeSummary, type RoadsideCheckResponse } from './enforcement.dto';

/** What an officer asks at the roadside: a plate (any spelling) or the certificate's token, and what the driver said. */
export interface RoadsideQuestion {
  plate?: string;
  token?: string;
  license?: string;
  phone?: string;
  madeAt?: Date;
  /** A GeoJSON Point as sent (checked here: 400 INVALID_LOCATION). */
  location?: unknown;
}

/** Letters and digits, upper case: a licence number as typed at the roadside ("dl-7 2020" is "DL72020"). */
const licenceKey = (raw: string) => raw.toUpperCase().replace(/[^A-Z0-9]/g, '');

/**
 * The roadside check (issue 47): an enforcer finds a vehicle by plate or by its sticker's QR token and learns whether
 * the sticker is genuine and current, its documents' dates, whether the person driving is its approved driver, and its
 * open notices. Every check is logged (who, when, where given, which vehicle) for the officer's assembly's admin.
 */
@Injectable()
export class RoadsideService {
  constructor(
    @Inject(STORES) private readonly stores: DataStores,
    @Inject(ENFORCEMENT_STORE) private readonly enforcement: EnforcementStore,
    @Inject(PUBLIC_REGISTRY) private readonly registry: PublicRegistry,
    @Inject(CERTIFICATE_SIGNER) private readonly signer: Ed25519CertificateSigner,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
  ) {}

  async check(question: RoadsideQuestion, actor: Actor): Promise<RoadsideCheckResponse> {
    await assertAssemblyDuty(this.stores.assemblyUsers, actor, 'checkVehicles');
    const now = this.clock.now();
    // The phone is checked before anything is looked up: a malformed number is the officer's typing, a 400.
    const phone = question.phone === undefined ? undefined : normalizePhone(question.phone, 'phone');
    const location = question.location === undefined ? undefined : parseGeoPoint(question.location, 'location');
    if ((question.plate === undefined) === (question.token === undefined))
      throw new DomainError('INVALID_VALUE', 'Send either plate or token (one of them)', 'plate');
    const found = await this.find(question);
    const vehicle = found.vehicleId ? (await this.stores.vehicles.findById(found.vehicleId))?.toState() : undefined;
    await this.enforcement.addCheck({
      id: this.ids.next(),
      officerId: actor.id,
      assemblyId: actor.assemblyId ?? '',
      ...(vehicle && { vehicleId: vehicle.id }),
      by: question.token !== undefined ? 'token' : 'plate',
      ...(question.plate !== undefined && { query: question.plate.trim().slice(0, 40) }),
      madeAt: question.madeAt ?? now,
      ...(location && { location }),
      createdAt: now,
    });
    if (!vehicle)
      return {
        checkedAt: now.toISOString(),
        vehicle: null,
        sticker: found.notGenuine ? { state: 'not_genuine', reason: found.notGenuine } : { state: 'unknown' },
        documents: [],
        driver: null,
        openNotices: [],
      };
    const linked = vehicle.driverId ? await this.stores.drivers.findById(vehicle.driverId) : undefined;
    const vouched = vouchedDriver(linked)?.toState();
    const claims = found.claims ?? ownApproval(vehicle, now);
    const verdict = claims
      ? certificateVerdict(claims, vehicle, vouched?.licenseExpiry, now)
      : ({ state: 'withdrawn', reason: 'approval_withdrawn' } as const);
    const documents =
      verdict.state === 'withdrawn' ? certificateDocuments(vehicle, vouched?.licenseExpiry, now) : verdict.documents;
    const notices = await this.enforcement.openNoticesOf(vehicle.id);
    const asked = question.license !== undefined || phone !== undefined;
    const driver = linked?.toState();
    const matches =
      driver !== undefined &&
      driverStanding(driver) === 'approved' &&
      ((question.license !== undefined && licenceKey(question.license) === licenceKey(driver.license)) ||
        (phone !== undefined && phone === driver.phone));
    return {
      checkedAt: now.toISOString(),
      vehicle: {
        _id: vehicle.id,
        registrationNumber: vehicle.registrationNumber ?? '',
        make: vehicle.make ?? null,
        model: vehicle.model ?? null,
        color: vehicle.color ?? null,
        type: vehicle.type ?? null,
        assembly: vehicle.assemblyId ?? null,
      },
      sticker:
        verdict.state === 'withdrawn' ? { state: 'withdrawn', reason: verdict.reason } : { state: verdict.state },
      documents: documents.map((d) => ({
        document: d.document,
        expiresOn: d.expiresOn.toISOString(),
        expired: d.expired,
      })),
      driver: asked
        ? {
            approvedDriver: matches,
            ...(matches && { name: driver.name, licenseExpiry: driver.licenseExpiry.toISOString() }),
          }
        : null,
      openNotices: notices.map((n) => toNoticeSummary(n, now)),
    };
  }

  /** The log of checks: an assembly admin's own assembly's officers' (duty readCheckLog), the national admin's all. */
  async checks(page: PageRequest, actor: Actor): Promise<Page<RoadsideCheckRecord>> {
    await assertAssemblyDuty(this.stores.assemblyUsers, actor, 'readCheckLog');
    return this.enforcement.listChecks(actor.role === 'assembly' ? (actor.assemblyId ?? '') : undefined, page);
  }

  private async find(question: RoadsideQuestion) {
    if (question.token !== undefined) {
      const read = this.signer.check(question.token);
      if (!read.genuine) return { notGenuine: read.reason };
      return { vehicleId: read.claims.vehicleId, claims: read.claims };
    }
    const key = registrationSearchKey(question.plate ?? '');
    return { vehicleId: key.length >= 3 ? await this.registry.vehicleIdByPlateKey(key) : undefined };
  }
}

/** A vehicle found by plate is judged on its own current approval (none: its sticker vouches for nothing). */
function ownApproval(s: VehicleState, now: Date) {
  if (!s.approved || !s.dateApproved) return undefined;
  return { vehicleId: s.id, registrationNumber: s.registrationNumber ?? '', approvedAt: s.dateApproved, issuedAt: now };
}
