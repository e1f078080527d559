import { DomainError } from './domain-error';

/** The entries of a correction that were sent (a field sent as undefined is not a correction of it). */
export function definedOnly<T extends object>(changes: T): Partial<T> {
  return Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** Equal stored values: dates by their instant, everything else as it is. */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a instanceof Date) return b instanceof Date && a.getTime() === b.getTime();
  return a === b;
}

/** The fields, in the given order, whose checked new value differs from the current one. */
export function changedFields<F extends string>(
  fields: readonly F[],
  sent: Partial<Record<F, unknown>>,
  checked: Partial<Record<F, unknown>>,
  current: Partial<Record<F, unknown>>,
): F[] {
  return fields.filter((f) => sent[f] !== undefined && !sameValue(checked[f], current[f]));
}

/** A field that may not be corrected in the record's present state (CORRECTION_NOT_ALLOWED, 422). */
export function correctionNotAllowed(field: string, why: string): DomainError {
  return new DomainError('CORRECTION_NOT_ALLOWED', `${field} cannot be corrected ${why}`, field);
}
