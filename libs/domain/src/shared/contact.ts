import { DomainError } from './domain-error';

/**
 * Ghana phone numbers in one canonical form, +233 followed by nine digits: `0244123456`, `+233244123456`,
 * `233244123456` and `+233 24 412 3456` are the same number. Numbers of other countries are kept in E.164 form.
 */
export function normalizePhone(raw: string, field = 'phone'): string {
  const compact = typeof raw === 'string' ? raw.replace(/[\s\-().]/g, '') : '';
  let digits: string | undefined;
  if (/^0\d{9}$/.test(compact)) digits = `233${compact.slice(1)}`;
  else if (/^\+?233\d{9}$/.test(compact)) digits = compact.replace(/^\+/, '');
  else if (/^\+[1-9]\d{7,14}$/.test(compact) && !compact.startsWith('+233')) digits = compact.slice(1);
  if (!digits) {
    throw new DomainError(
      'INVALID_PHONE',
      `${field} must be a phone number such as 0244123456 or +233244123456`,
      field,
    );
  }
  return `+${digits}`;
}

/**
 * A phone number we may text: normalised (every spelling of a Ghanaian number is the same number), and within the
 * country calling codes allowed (`countryCodes`, e.g. ['233']; configured by the app). A number of any other country is
 * refused (PHONE_NOT_ALLOWED), naming the field: an SMS abroad costs many times a local one, and a registry for Ghana
 * has no business texting one (SMS pumping, toll fraud). Country calling codes are prefix-free, so a prefix test is exact.
 */
export function textablePhone(raw: string, countryCodes: readonly string[], field = 'phone'): string {
  const phone = normalizePhone(raw, field);
  if (!isTextable(phone, countryCodes)) {
    const codes = countryCodes.map((c) => `+${c}`).join(', ');
    throw new DomainError(
      'PHONE_NOT_ALLOWED',
      `${field} must be a phone number of a country we text (${codes}), such as 0244123456`,
      field,
    );
  }
  return phone;
}

/** Whether a normalised phone number (+digits) is within the country calling codes allowed. */
export function isTextable(phone: string, countryCodes: readonly string[]): boolean {
  return countryCodes.some((code) => phone.startsWith(`+${code}`));
}

/** The forms of a phone number that someone may type when searching: used to match either spelling. */
export function phoneSearchForms(query: string): string[] {
  const compact = query.replace(/[\s\-().]/g, '');
  const forms = new Set<string>([compact]);
  if (/^0\d+$/.test(compact)) forms.add(`+233${compact.slice(1)}`);
  if (/^\+?233\d+$/.test(compact)) forms.add(`0${compact.replace(/^\+?233/, '')}`);
  return [...forms];
}

const EMAIL =
  /^[a-z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/;

/** Lower-cased and checked; 254 characters at most (the SMTP limit). */
export function normalizeEmail(raw: string, field = 'email'): string {
  const email = typeof raw === 'string' ? raw.trim().toLowerCase() : '';
  if (email.length > 254 || !EMAIL.test(email)) {
    throw new DomainError('INVALID_EMAIL', `${field} must be an email address`, field);
  }
  return email;
}

/** GhanaPostGPS digital address: two letters, then 3-4 digits, then 4 digits, e.g. AK-039-5028 (upper-cased). */
export function normalizeDigitalAddress(raw: string, field = 'digitalAddress'): string {
  const value = typeof raw === 'string' ? raw.trim().toUpperCase() : '';
  if (!/^[A-Z]{2}-\d{3,4}-\d{4}$/.test(value)) {
    throw new DomainError(
      'INVALID_DIGITAL_ADDRESS',
      `${field} must be a GhanaPostGPS address such as AK-039-5028`,
      field,
    );
  }
  return value;
}

/**
 * Names and labels as people write them, in any script: letters, marks, digits, spaces and . , ' ’ & ( ) / # : + @ _ -.
 * Control characters, markup and statement punctuation (< > ; { } $ ` \ " =) and emoji are refused: they are never part
 * of a name, a vehicle make or a description, and refusing them keeps them out of every screen and report downstream.
 */
const PLAIN_TEXT = /^[\p{L}\p{M}\p{N} .,'\u2019&()/#:+@_-]+$/u;

/** A required piece of text: trimmed, not empty, bounded, plain. */
export function requireText(raw: unknown, field: string, max = 200): string {
  const value = typeof raw === 'string' ? raw.trim().replace(/\s+/g, ' ') : '';
  if (value.length === 0 || value.length > max) {
    throw new DomainError('INVALID_TEXT', `${field} must be text of 1 to ${max} characters`, field);
  }
  if (!PLAIN_TEXT.test(value)) {
    throw new DomainError(
      'INVALID_TEXT',
      `${field} may contain letters, digits, spaces and . , ' & ( ) / # : + @ _ - only`,
      field,
    );
  }
  return value;
}
