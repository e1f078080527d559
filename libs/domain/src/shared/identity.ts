import { DomainError } from './domain-error';

/** Identity documents accepted for owners and drivers. */
export const ID_TYPES = ['ghana_card', 'passport', 'voter_id', 'drivers_license', 'ssnit'] as const;
export type IdType = (typeof ID_TYPES)[number];

export function oneOf<T extends string>(allowed: readonly T[], raw: unknown, field: string): T {
  if (typeof raw !== 'string' || !(allowed as readonly string[]).includes(raw)) {
    throw new DomainError('INVALID_VALUE', `${field} must be one of ${allowed.join(', ')}`, field);
  }
  return raw as T;
}

/** Identity-document and licence numbers: letters, digits, hyphens and slashes, kept upper case. */
export function documentNumber(raw: unknown, field: string): string {
  const value = typeof raw === 'string' ? raw.trim().toUpperCase() : '';
  if (!/^[A-Z0-9][A-Z0-9/-]{2,29}$/.test(value)) {
    throw new DomainError(
      'INVALID_DOCUMENT_NUMBER',
      `${field} must be 3 to 30 letters, digits, hyphens or slashes`,
      field,
    );
  }
  return value;
}
