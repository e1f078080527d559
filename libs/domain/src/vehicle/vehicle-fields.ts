import { DomainError } from '../shared/domain-error';
import type { DomainErrorCode } from '../shared/error-codes';

/** Vehicle types the platform registers (the interface leaves them open; these are Ghana's road-transport kinds). */
export const VEHICLE_TYPES = ['taxi', 'minibus', 'bus', 'tricycle', 'motorcycle', 'other'] as const;
export type VehicleType = (typeof VEHICLE_TYPES)[number];

export const MAX_CAPACITY = 100;
/** Kilograms. */
export const MAX_WEIGHT_KG = 100_000;
/** Litres. */
export const MAX_FUEL_LITRES = 2_000;

const invalid = (code: DomainErrorCode, field: string, message: string) => new DomainError(code, message, field);

/** Upper case with single spaces, e.g. " gr  1234-24 " -> "GR 1234-24". */
export function normalizeRegistrationNumber(raw: string): string {
  const value = typeof raw === 'string' ? raw.trim().replace(/\s+/g, ' ').toUpperCase() : '';
  if (!/^[A-Z0-9][A-Z0-9 -]{1,19}$/.test(value)) {
    throw invalid(
      'INVALID_REGISTRATION_NUMBER',
      'registrationNumber',
      'registrationNumber must be 2 to 20 letters, digits, spaces or hyphens, such as GR 1234-24',
    );
  }
  return value;
}

/** ISO 3779: 17 characters, digits and capital letters except I, O and Q. */
export function normalizeVin(raw: string): string {
  const value = typeof raw === 'string' ? raw.trim().toUpperCase() : '';
  if (!/^[A-HJ-NPR-Z0-9]{17}$/.test(value)) {
    throw invalid('INVALID_VIN', 'vin', 'vin must be 17 characters: digits and letters other than I, O and Q');
  }
  return value;
}

/** `#RGB` or `#RRGGBB`, kept upper case. */
export function normalizeColor(raw: string): string {
  const value = typeof raw === 'string' ? raw.trim().toUpperCase() : '';
  if (!/^#(?:[0-9A-F]{3}|[0-9A-F]{6})$/.test(value)) {
    throw invalid('INVALID_COLOR', 'color', 'color must be a hex colour such as #FFF or #FFD700');
  }
  return value;
}

export function parseVehicleType(raw: string): VehicleType {
  if (!(VEHICLE_TYPES as readonly string[]).includes(raw)) {
    throw invalid('INVALID_VEHICLE_TYPE', 'type', `type must be one of ${VEHICLE_TYPES.join(', ')}`);
  }
  return raw as VehicleType;
}
