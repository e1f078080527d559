import { requireText } from '../shared/contact';
import { DomainError } from '../shared/domain-error';
import type { GeoPoint } from '../shared/geo-point';
import type { InspectionOutcome } from './inspection-grades';

/**
 * Signs of fraud for the assembly admin (issue 46, item 6). The fraud they look for is the roadworthy sticker issued
 * without a real inspection: an inspection typed in minutes after the last, away from the vehicle's station, with a
 * photo taken for another vehicle, by an inspector who passes nearly everything, or a sticker with no photo at all.
 * Each sign is a flag for a person to look at, never a verdict: flags never refuse or undo any work.
 *
 * - `quick-succession`: two inspections by the same inspector made less than `minMinutesBetween` apart (by the
 *   phone's time of each: offline inspections arrive in bursts, but were made when the phone says);
 * - `far-from-station`: an inspection made more than `maxKmFromStation` km (great-circle, haversine) from the
 *   vehicle's station, when both places are known (the inspection's from the phone, the station's set by an admin);
 * - `photo-reused`: a photo whose bytes (SHA-256) were sent before for another inspection or another vehicle (the
 *   same photo sent again for the same inspection is a replay, not a sign);
 * - `pass-rate-outlier`: an inspector whose pass rate differs from the rest of the assembly beyond chance (see
 *   `passRateOutlier`);
 * - `sticker-without-photos`: a sticker printed for a vehicle whose last inspection has no photo evidence.
 */
export const FRAUD_FLAG_KINDS = [
  'quick-succession',
  'far-from-station',
  'photo-reused',
  'pass-rate-outlier',
  'sticker-without-photos',
] as const;
export type FraudFlagKind = (typeof FRAUD_FLAG_KINDS)[number];

/** An assembly's thresholds for the signs (its admin sets them; the defaults below until then). */
export interface FraudThresholds {
  /** A real roadworthy inspection of the ten items takes longer than this, in whole minutes. */
  readonly minMinutesBetween: number;
  /** How far from the vehicle's station an inspection may be made, in whole km. */
  readonly maxKmFromStation: number;
  /** How many inspections an inspector, and the rest of the assembly, must have made before rates are compared. */
  readonly minInspectionsForRate: number;
}

/**
 * The defaults: ten items cannot honestly be checked in under 10 minutes; 5 km covers a station and the testing
 * ground beside it in any town; below 20 inspections a rate says too little to put a name on a list.
 */
export const DEFAULT_FRAUD_THRESHOLDS: FraudThresholds = {
  minMinutesBetween: 10,
  maxKmFromStation: 5,
  minInspectionsForRate: 20,
};

/** The whole numbers each threshold may take. */
export const FRAUD_THRESHOLD_LIMITS: Readonly<Record<keyof FraudThresholds, readonly [number, number]>> = {
  minMinutesBetween: [1, 240],
  maxKmFromStation: [1, 500],
  minInspectionsForRate: [5, 1000],
};

/** Checks a whole set of thresholds (every field, whole numbers within FRAUD_THRESHOLD_LIMITS). */
export function parseFraudThresholds(value: unknown): FraudThresholds {
  const body = (value ?? {}) as Record<string, unknown>;
  const parsed: Record<string, number> = {};
  for (const [field, [min, max]] of Object.entries(FRAUD_THRESHOLD_LIMITS)) {
    const n = body[field];
    if (typeof n !== 'number' || !Number.isInteger(n) || n < min || n > max)
      throw new DomainError('INVALID_VALUE', `${field} must be a whole number from ${min} to ${max}`, field);
    parsed[field] = n;
  }
  return parsed as unknown as FraudThresholds;
}

/**
 * Two inspections by one inspector closer in time than the minimum: the minutes between them (rounded down to a
 * tenth), or undefined when there is no other inspection or the gap is long enough.
 */
export function quickSuccession(
  madeAt: Date,
  nearest: Date | undefined,
  minMinutesBetween: number,
): { minutes: number } | undefined {
  if (!nearest) return undefined;
  const minutes = Math.abs(madeAt.getTime() - nearest.getTime()) / 60_000;
  return minutes < minMinutesBetween ? { minutes: Math.floor(minutes * 10) / 10 } : undefined;
}

const EARTH_RADIUS_KM = 6371.0088;

/** The great-circle distance between two points in km (haversine, on the mean Earth radius). */
export function distanceKm(a: GeoPoint, b: GeoPoint): number {
  const rad = (deg: number) => (deg * Math.PI) / 180;
  const [lon1, lat1] = a.coordinates;
  const [lon2, lat2] = b.coordinates;
  const h =
    Math.sin(rad(lat2 - lat1) / 2) ** 2 +
    Math.cos(rad(lat1)) * Math.cos(rad(lat2)) * Math.sin(rad(lon2 - lon1) / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/**
 * An inspection made farther than the maximum from the vehicle's station: the distance (km, to a tenth), or undefined
 * when either place is unknown or it is near enough.
 */
export function farFromStation(
  where: GeoPoint | undefined,
  station: GeoPoint | undefined,
  maxKmFromStation: number,
): { km: number } | undefined {
  if (!where || !station) return undefined;
  const km = distanceKm(where, station);
  return km > maxKmFromStation ? { km: Math.round(km * 10) / 10 } : undefined;
}

/** Where a photo was sent: the vehicle and the inspection (its Idempotency-Key). */
export interface PhotoUse {
  readonly vehicleId: string;
  readonly inspectionKey: string;
}

/**
 * A photo whose bytes were sent before for another inspection (another vehicle, or the same vehicle under another
 * inspection key): the first such earlier use, or undefined. Earlier uses for this same inspection are replays.
 */
export function photoReused(photo: PhotoUse, earlier: readonly PhotoUse[]): PhotoUse | undefined {
  return earlier.find((e) => e.vehicleId !== photo.vehicleId || e.inspectionKey !== photo.inspectionKey);
}

/** A sticker printed with no photo of the inspection behind it. */
export function stickerWithoutPhotos(photosOfLastInspection: number): boolean {
  return photosOfLastInspection === 0;
}

/** Whether an inspection counts as passed in a pass rate (passed, or passed with advice). */
export function isPassingOutcome(outcome: InspectionOutcome | string): boolean {
  return outcome === 'passed' || outcome === 'passedWithAdvice';
}

/** Inspections passed out of inspections made. */
export interface PassCount {
  readonly passed: number;
  readonly total: number;
}

/** z for a two-sided 95% interval. */
export const Z_95 = 1.959964;

/**
 * The Wilson score interval of a proportion: unlike the plain p ± z·√(p(1−p)/n) it stays within 0..1 and keeps a
 * sound width for small counts and for rates of 0 or 1 (20 passes out of 20 reads 0.84..1, not 1..1).
 */
export function wilsonInterval({ passed, total }: PassCount, z = Z_95): { low: number; high: number } {
  if (total <= 0) return { low: 0, high: 1 };
  const p = passed / total;
  const z2 = z * z;
  const centre = p + z2 / (2 * total);
  const spread = z * Math.sqrt((p * (1 - p)) / total + z2 / (4 * total * total));
  const scale = 1 + z2 / total;
  return { low: Math.max(0, (centre - spread) / scale), high: Math.min(1, (centre + spread) / scale) };
}

export interface PassRateOutlier {
  /** `high`: passes far more than the rest (the sticker sold without looking); `low`: fails far more. */
  readonly direction: 'high' | 'low';
  readonly inspector: PassCount;
  readonly others: PassCount;
}

/**
 * An inspector whose pass rate is an outlier against the rest of the assembly's inspectors (compared with the others
 * only, so one busy inspector cannot pull the yardstick towards himself). Both need `minInspections` at least; then
 * the 95% Wilson intervals of the two rates must not overlap. Two non-overlapping 95% intervals is a strict test (a
 * difference this large arises by chance far less than 5% of the time), which is what a name on a review list needs:
 * 20 passes out of 20 stands out against 30 of 60, not against 16 of 20.
 */
export function passRateOutlier(
  inspector: PassCount,
  others: PassCount,
  minInspections: number,
): PassRateOutlier | undefined {
  if (inspector.total < minInspections || others.total < minInspections) return undefined;
  const own = wilsonInterval(inspector);
  const rest = wilsonInterval(others);
  if (own.low > rest.high) return { direction: 'high', inspector, others };
  if (own.high < rest.low) return { direction: 'low', inspector, others };
  return undefined;
}

/** What a flag records to explain itself (the numbers behind it); each kind its own. */
export type FraudFlagDetails =
  | { kind: 'quick-succession'; minutes: number; minMinutes: number; previousInspection?: string }
  | { kind: 'far-from-station'; km: number; maxKm: number; station: string }
  | { kind: 'photo-reused'; sha256: string; earlierVehicle: string; earlierInspectionKey: string }
  | {
      kind: 'pass-rate-outlier';
      direction: 'high' | 'low';
      passed: number;
      total: number;
      othersPassed: number;
      othersTotal: number;
    }
  | { kind: 'sticker-without-photos'; inspectionKey?: string };

const percent = (passed: number, total: number) => `${Math.round((100 * passed) / total)}%`;

/** The plain English sentence of a flag (the dashboard says the same in its reader's language). */
export function explainFraudFlag(details: FraudFlagDetails): string {
  switch (details.kind) {
    case 'quick-succession':
      return `Inspection recorded ${details.minutes} minutes after another by the same inspector (the minimum is ${details.minMinutes})`;
    case 'far-from-station':
      return `Inspection made ${details.km} km from the vehicle's station (more than ${details.maxKm} km)`;
    case 'photo-reused':
      return 'A photo of this inspection was sent before for another inspection (the same SHA-256)';
    case 'pass-rate-outlier':
      return `The inspector passed ${details.passed} of ${details.total} (${percent(details.passed, details.total)}); the rest of the assembly ${details.othersPassed} of ${details.othersTotal} (${percent(details.othersPassed, details.othersTotal)}): ${details.direction === 'high' ? 'far more' : 'far fewer'} passes than chance explains`;
    case 'sticker-without-photos':
      return 'A sticker was printed for a vehicle whose last inspection has no photo';
  }
}

/** The longest reason for clearing a flag. */
export const FRAUD_CLEAR_REASON_MAX = 500;

/** Who cleared a flag, when, and why. */
export interface FraudFlagClearance {
  readonly clearedAt: Date;
  readonly clearedBy: string;
  readonly reason: string;
}

/**
 * Clears a flag: the admin looked and says why it is no fraud (or what was done), in plain text of 1 to 500
 * characters; a flag is cleared once (409 FRAUD_FLAG_ALREADY_CLEARED).
 */
export function clearFraudFlag(
  flag: { readonly clearedAt?: Date },
  input: { by: string; reason: unknown },
  at: Date,
): FraudFlagClearance {
  const reason = requireText(input.reason, 'reason', FRAUD_CLEAR_REASON_MAX);
  if (flag.clearedAt) throw new DomainError('FRAUD_FLAG_ALREADY_CLEARED', 'This flag is cleared already');
  return { clearedAt: at, clearedBy: input.by, reason };
}
