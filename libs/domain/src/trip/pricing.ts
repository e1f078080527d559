import { assertMoney, MONEY_UNITS_PER_PESEWA } from '../shared/money';
import { boundedNumber } from '../shared/values';

/** Prices in millionths of a cedi (exact money, `MONEY_DECIMALS`) per kilometre and per minute. */
export interface Pricing {
  readonly id: string;
  readonly type: string;
  readonly pricePerKm: number;
  readonly pricePerMinute: number;
}

/** Kilometres; an intracity trip longer than this is a data error. */
export const MAX_TRIP_KM = 1_000;
export const MAX_TRIP_MINUTES = 24 * 60;

/**
 * The fare for a distance and a duration, in millionths of a cedi: a whole number of pesewas, the nearest to the
 * fare (a distance is measured, not counted, so the fare of a new trip is what can be charged: two decimals). The
 * prices are exact; only the product with a measured distance is rounded, once, to the pesewa.
 */
export function estimatePrice(pricing: Pricing, distanceKm: number, minutes: number): number {
  const km = boundedNumber(distanceKm, 'distance', 0, MAX_TRIP_KM);
  const min = boundedNumber(minutes, 'minutes', 0, MAX_TRIP_MINUTES);
  const fare =
    (assertMoney(pricing.pricePerKm, 'pricePerKm') * km + assertMoney(pricing.pricePerMinute, 'pricePerMinute') * min) /
    MONEY_UNITS_PER_PESEWA;
  return assertMoney(Math.round(fare) * MONEY_UNITS_PER_PESEWA, 'price');
}
