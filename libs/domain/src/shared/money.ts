import { DomainError } from './domain-error';

/**
 * Money is held in integer pesewas (minor units of the Ghana cedi) so sums and comparisons are exact; the wire shows
 * cedis as numbers with at most two decimals. The ceiling (20 million cedis, far above any mobile-money limit) keeps
 * every amount inside a PostgreSQL integer column and every sum exact.
 */
export const MAX_PESEWAS = 2_000_000_000; // twenty million cedis: fits a PostgreSQL integer column

export function assertPesewas(value: number, field: string): number {
  if (!Number.isSafeInteger(value) || value < 0 || value > MAX_PESEWAS) {
    throw new DomainError(
      'INVALID_AMOUNT',
      `${field} must be a whole number of pesewas from 0 to ${MAX_PESEWAS}`,
      field,
    );
  }
  return value;
}

/** Cedis as sent by a client (25.5) to pesewas (2550); more than two decimals is refused rather than rounded. */
export function cedisToPesewas(cedis: number, field: string): number {
  if (typeof cedis !== 'number' || !Number.isFinite(cedis) || cedis < 0) {
    throw new DomainError('INVALID_AMOUNT', `${field} must be a non-negative amount in cedis`, field);
  }
  const pesewas = Math.round(cedis * 100);
  if (Math.abs(pesewas - cedis * 100) > 1e-6) {
    throw new DomainError('INVALID_AMOUNT', `${field} must have at most two decimals`, field);
  }
  return assertPesewas(pesewas, field);
}

export function pesewasToCedis(pesewas: number): number {
  return pesewas / 100;
}
