import { DomainError } from './domain-error';

/** The checklist of `items` on which every item passed (a fresh object each time). */
export function everyItemPassed<I extends string>(items: readonly I[]): Readonly<Record<I, boolean>> {
  return Object.fromEntries(items.map((item) => [item, true])) as Record<I, boolean>;
}

/**
 * A fixed list of yes/no checks, given as an object: exactly the listed items, each a boolean. A missing, extra or
 * non-boolean item is refused (INVALID_CHECKLIST on `field`), never guessed. Used by the vehicle inspection and the
 * driver approval.
 */
export function parseChecklist<I extends string>(
  raw: unknown,
  items: readonly I[],
  field: string,
): Readonly<Record<I, boolean>> {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new DomainError('INVALID_CHECKLIST', `${field} must be an object with ${items.join(', ')}`, field);
  }
  const given = raw as Record<string, unknown>;
  const extra = Object.keys(given).filter((key) => !(items as readonly string[]).includes(key));
  const missing = items.filter((item) => typeof given[item] !== 'boolean');
  if (extra.length > 0 || missing.length > 0) {
    const parts = [
      extra.length ? `unknown items: ${extra.join(', ')}` : '',
      missing.length ? `needs true/false for: ${missing.join(', ')}` : '',
    ];
    throw new DomainError('INVALID_CHECKLIST', `${field} ${parts.filter(Boolean).join('; ')}`, field);
  }
  const out = {} as Record<I, boolean>;
  for (const item of items) out[item] = given[item] as boolean;
  return out;
}
