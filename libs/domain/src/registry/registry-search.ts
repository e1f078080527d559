import type { DriverState } from '../driver/driver';
import type { VehicleOwnerState } from '../owner/vehicle-owner';
import { phoneSearchForms } from '../shared/contact';
import { failedInspectionItems, unrecordedInspectionItems } from '../vehicle/inspection-checklist';
import type { VehicleState } from '../vehicle/vehicle';

/**
 * Finding any record of the registry (vehicles, drivers, owners) from one search box, as staff type it: a plate in
 * any spelling, a VIN, a name, a phone number in local or international form, a licence number, an email.
 */
export const REGISTRY_KINDS = ['vehicle', 'driver', 'owner'] as const;
export type RegistryKind = (typeof REGISTRY_KINDS)[number];

/** Fewer letters and digits than this match too much to be a search (and trigram indexes serve three and more). */
export const MIN_SEARCH_CHARACTERS = 3;
export const MAX_SEARCH_LENGTH = 100;

/** What one query is compared with, field by field. */
export interface SearchTerms {
  /** Trimmed, inner spaces collapsed: compared case-insensitively with names and emails. */
  readonly text: string;
  /** Letters and digits only, upper case: compared with plates (by theirs) and with VINs and licence numbers. */
  readonly key: string;
  /** Upper case, spaces collapsed: compared with licence numbers as stored (DL-0001-2020). */
  readonly upper: string;
  /** The local and international forms of a phone number, when the query looks like (part of) one; else none. */
  readonly phones: readonly string[];
}

/**
 * A plate's search key: "GR 1001-24", "gr1001 24" and "GR-1001-24" are all "GR100124". The letter O reads as the digit
 * zero ("GR 1OO1-24" is typed for "GR 1001-24" on a phone's keyboard, and the two look alike on a dirty plate): both
 * the stored plate and the query are folded, so a plate that really has an O is still found. VINs, compared with the
 * same key, never contain an O (ISO 3779).
 */
export function registrationSearchKey(raw: string): string {
  return raw
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, '')
    .replace(/O/g, '0');
}

/** The letters and digits of a query (any script): what the minimum length counts. */
export function searchCharacters(raw: string): number {
  return (raw.match(/[\p{L}\p{N}]/gu) ?? []).length;
}

export function searchTerms(raw: string): SearchTerms {
  const text = raw.trim().replace(/\s+/g, ' ');
  const compact = text.replace(/[\s\-().]/g, '');
  const looksLikePhone = /^\+?\d{3,}$/.test(compact);
  return {
    text,
    key: registrationSearchKey(text),
    upper: text.toUpperCase(),
    phones: looksLikePhone ? phoneSearchForms(compact) : [],
  };
}

/** Where a vehicle stands, as staff name it: what a search hit shows, so the person knows what the record needs. */
export const VEHICLE_STANDINGS = ['approved', 'awaiting_approval', 'inspection_failed', 'awaiting_inspection'] as const;
export type VehicleStanding = (typeof VEHICLE_STANDINGS)[number];

export function vehicleStanding(
  v: Pick<VehicleState, 'approved' | 'inspected' | 'inspectionChecklist'>,
): VehicleStanding {
  if (v.approved) return 'approved';
  if (!v.inspected || !v.inspectionChecklist) return 'awaiting_inspection';
  if (failedInspectionItems(v.inspectionChecklist).length > 0) return 'inspection_failed';
  // A checklist of an older version (imported) with items not recorded needs a new inspection before approval.
  return unrecordedInspectionItems(v.inspectionChecklist).length > 0 ? 'awaiting_inspection' : 'awaiting_approval';
}

export const DRIVER_STANDINGS = ['approved', 'revoked', 'awaiting_approval'] as const;
export type DriverStanding = (typeof DRIVER_STANDINGS)[number];

export function driverStanding(d: Pick<DriverState, 'approved' | 'revocation'>): DriverStanding {
  if (d.approved) return 'approved';
  return d.revocation ? 'revoked' : 'awaiting_approval';
}

export const OWNER_STANDINGS = ['verified', 'unverified'] as const;
export type OwnerStanding = (typeof OWNER_STANDINGS)[number];

export function ownerStanding(o: Pick<VehicleOwnerState, 'verified'>): OwnerStanding {
  return o.verified ? 'verified' : 'unverified';
}

/** One record a search found, whole, with its kind. */
export type RegistryRecord =
  | { readonly kind: 'vehicle'; readonly record: VehicleState }
  | { readonly kind: 'driver'; readonly record: DriverState }
  | { readonly kind: 'owner'; readonly record: VehicleOwnerState };
