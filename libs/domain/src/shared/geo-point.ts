import { DomainError } from './domain-error';

/** A GeoJSON point: coordinates in the order [longitude, latitude]. */
export interface GeoPoint {
  readonly type: 'Point';
  readonly coordinates: readonly [number, number];
}

const finite = (n: unknown) => typeof n === 'number' && Number.isFinite(n);

export function geoPoint(longitude: number, latitude: number, field = 'location'): GeoPoint {
  if (!finite(longitude) || longitude < -180 || longitude > 180) {
    throw new DomainError('INVALID_LOCATION', `${field}: longitude must be a number from -180 to 180`, field);
  }
  if (!finite(latitude) || latitude < -90 || latitude > 90) {
    throw new DomainError('INVALID_LOCATION', `${field}: latitude must be a number from -90 to 90`, field);
  }
  return { type: 'Point', coordinates: [longitude, latitude] };
}

/** Checks a value received as GeoJSON and returns a clean copy. */
export function parseGeoPoint(value: unknown, field = 'location'): GeoPoint {
  const v = value as { type?: unknown; coordinates?: unknown } | null;
  if (
    !v ||
    typeof v !== 'object' ||
    v.type !== 'Point' ||
    !Array.isArray(v.coordinates) ||
    v.coordinates.length !== 2
  ) {
    throw new DomainError(
      'INVALID_LOCATION',
      `${field} must be a GeoJSON Point with coordinates [longitude, latitude]`,
      field,
    );
  }
  return geoPoint(v.coordinates[0] as number, v.coordinates[1] as number, field);
}
