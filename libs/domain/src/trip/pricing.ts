import { assertPesewas } from '../shared/money';
import { boundedNumber } from '../shared/values';

/** Prices in pesewas per kilometre and per minute. */
export interface Pricing {
  readonly id: string;
  readonly type: string;
  readonly pricePerKm: number;
  readonly pricePerMinute: number;
}

/** Kilometres; an intracity trip longer than this is a data error. */
export const MAX_TRIP_KM = 1_000;
export const MAX_TRIP_MINUTES = 24 * 60;

/** The fare for a distance and a duration, rounded to the nearest pesewa. */
export function estimatePrice(pricing: Pricing, distanceKm: number, minutes: number): number {
  const km = boundedNumber(distanceKm, 'distance', 0, MAX_TRIP_KM);
  const min = boundedNumber(minutes, 'minutes', 0, MAX_TRIP_MINUTES);
  return assertPesewas(Math.round(pricing.pricePerKm * km + pricing.pricePerMinute * min), 'price');
}
