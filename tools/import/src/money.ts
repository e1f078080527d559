import { DomainError, moneyFromCedis } from '@transport/domain';
import { number, RecordRefused, type Doc } from './records';

/** A value of the original that cannot be kept, left out of the record it belongs to, and why (for the report). */
export interface Dropped {
  field: string;
  value: unknown;
  reason: string;
}

/**
 * A required amount, exact to the millionth of a cedi (0.195, 10.125): a value with more decimals, or not a number, is
 * refused with the record (the report names the field and the value read). Never rounded.
 */
export function exactMoney(doc: Doc, field: string): number {
  return moneyFromCedis(number(doc, field), field);
}

/**
 * An optional amount: `value`, exact, when it can be kept (absent or null in the original: `fallback`); else the record
 * is kept without it (`value` undefined) and `dropped` says which value was left out and why.
 */
export function optionalExactMoney<F extends number | undefined>(
  doc: Doc,
  field: string,
  fallback: F,
): { value: number | F; dropped?: undefined } | { value: undefined; dropped: Dropped } {
  const read = doc[field];
  if (read === undefined || read === null) return { value: fallback };
  try {
    return { value: exactMoney(doc, field) };
  } catch (error) {
    if (!(error instanceof DomainError || error instanceof RecordRefused)) throw error;
    return {
      value: undefined,
      dropped: { field, value: read, reason: `${error.message}: imported without it (an amount is never rounded)` },
    };
  }
}
