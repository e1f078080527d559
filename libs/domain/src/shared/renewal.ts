import { DomainError } from './domain-error';
import { validDate } from './values';

/**
 * The rule every renewed document follows (a roadworthy certificate, an insurance policy, a driving licence): its new
 * expiry must still be ahead (`RENEWAL_EXPIRED` otherwise: an expired document renews nothing) and later than the one
 * it replaces (`RENEWAL_NOT_LATER`: an earlier date would shorten the cover, which is a correction, not a renewal).
 * A document recorded for the first time only has to be ahead.
 */
export function renewedExpiry(current: Date | undefined, next: Date, field: string, at: Date): Date {
  const expiry = validDate(next, field);
  if (expiry <= at)
    throw new DomainError(
      'RENEWAL_EXPIRED',
      `${field} must be in the future: an expired document renews nothing`,
      field,
    );
  if (current && expiry <= current)
    throw new DomainError(
      'RENEWAL_NOT_LATER',
      `${field} must be later than the one it replaces (${current.toISOString().slice(0, 10)})`,
      field,
    );
  return expiry;
}
