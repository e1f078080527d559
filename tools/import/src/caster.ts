import { normalizePhone } from '@transport/domain';
import { refuse, type Doc } from './records';

/**
 * A field's type in the original's Mongoose schema: what Mongoose cast a value to before saving it. `plate` and
 * `card` are texts with a canonical form here (a registration number, a Ghana Card number), so one plate or card
 * in two spellings is one value, and the unique index finds the clash. `phone` and `name` are texts people typed
 * that the rules for new registrations refuse (a second number, `(0)` after +233; quotes, emoji): read in the form
 * those rules take, what could not be kept shown in the report beside what was stored.
 */
export type FieldType = 'date' | 'number' | 'boolean' | 'id' | 'text' | 'plate' | 'card' | 'phone' | 'name';

/** How a date written with slashes (`05/03/2027`) is read: day first (Ghana's way, the default) or month first. */
export type DateOrder = 'dmy' | 'mdy';

export const DATE_ORDERS: readonly DateOrder[] = ['dmy', 'mdy'];

/** A date the original kept as text, read by the import: the report shows both, so nothing is guessed silently. */
export interface DateRead {
  field: string;
  read: string;
  stored: string;
}

/** A value the original held in another type, cast as Mongoose would have cast it on save. */
export interface Cast {
  field: string;
  /** What the export holds (JSON: `"4"`, `"yes"`, `""`, `NaN`). */
  read: string;
  /** What was kept (JSON), or `absent` for a value that says "no value". */
  stored: string;
}

const BOOLEANS = new Map<string, boolean>([
  ['true', true],
  ['yes', true],
  ['1', true],
  ['false', false],
  ['no', false],
  ['0', false],
]);

const SLASHED = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4}|\d{2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?$/;
const MONTHS = 'January February March April May June July August September October November December'.split(' ');
const YEAR = /^(19|20)\d\d$/;

/**
 * A date written with its parts separated (`05/03/2027`, `5.3.27`, `05-03-2027 14:30`), read in the given order.
 * Ghana's clock is UTC, so the date is a UTC one. A date impossible in that order is refused, saying what the other
 * order would read, so an export made month first is noticed at once and not half-imported.
 */
export function slashedDate(value: string, order: DateOrder): Date | undefined {
  const read = readSlashed(value, order);
  if (read !== 'impossible') return read;
  const otherOrder = order === 'dmy' ? 'mdy' : 'dmy';
  const other = readSlashed(value, otherOrder);
  const hint =
    other instanceof Date
      ? `; ${order === 'dmy' ? 'month' : 'day'} first it would be ${other.getUTCDate()} ${MONTHS[other.getUTCMonth()]} ${other.getUTCFullYear()} (--date-order ${otherOrder})`
      : '';
  return refuse(
    'INVALID_FIELD',
    `${JSON.stringify(value)} is not a date ${order === 'dmy' ? 'day' : 'month'} first${hint}`,
  );
}

function readSlashed(value: string, order: DateOrder): Date | undefined | 'impossible' {
  const parts = SLASHED.exec(value.trim());
  if (!parts) return undefined;
  const [first, second] = [Number(parts[1]), Number(parts[2])];
  const [day, month] = order === 'dmy' ? [first, second] : [second, first];
  // Two digits: 00-69 is this century, 70-99 the last (a 1995 vehicle's make year); the report shows the date stored.
  const year = parts[3].length === 2 ? Number(parts[3]) + (Number(parts[3]) < 70 ? 2000 : 1900) : Number(parts[3]);
  const time = [parts[4], parts[5], parts[6]].map((p) => Number(p ?? 0));
  const date = new Date(Date.UTC(year, month - 1, day, time[0], time[1], time[2]));
  const exact = date.getUTCMonth() === month - 1 && date.getUTCDate() === day && time[0] < 24 && time[1] < 60;
  return exact ? date : 'impossible';
}

const valueAt = (doc: Doc, keys: readonly string[]): { found: boolean; value?: unknown } => {
  let holder: unknown = doc;
  for (const key of keys.slice(0, -1)) {
    holder = (holder as Doc)[key];
    if (holder === null || typeof holder !== 'object' || Array.isArray(holder) || holder instanceof Date)
      return { found: false };
  }
  const last = keys[keys.length - 1];
  return Object.hasOwn(holder as Doc, last) ? { found: true, value: (holder as Doc)[last] } : { found: false };
};

/** A copy of the document with the value at the path replaced or (undefined) left out; the rest is shared. */
function withValue(doc: Doc, keys: readonly string[], value: unknown): Doc {
  const [head, ...rest] = keys;
  const copy = { ...doc };
  if (rest.length > 0) copy[head] = withValue(doc[head] as Doc, rest, value);
  else if (value === undefined) delete copy[head];
  else copy[head] = value;
  return copy;
}

/**
 * The record with each typed field cast as the original's Mongoose schema cast it on save: a number or a boolean
 * kept as text (`"4"`, `"yes"`, `1`), a date as text (`05/03/2027`, read in `order`) or as a year (`2015`), and
 * `""` or NaN for "no value" (left out, as an absent optional field is). Each cast is told to `castValue`, each date
 * read from text to `readDate`, so the report lists them. What cannot be cast is left for the mapping to refuse.
 * The objects along a changed path are copied: the document read is never modified, and one with nothing to cast
 * is returned as it is.
 */
export function castRecord(
  doc: Doc,
  types: Readonly<Record<string, FieldType>>,
  order: DateOrder,
  readDate: (d: DateRead) => void,
  castValue: (c: Cast) => void,
): Doc {
  let out = doc;
  for (const [path, type] of Object.entries(types)) {
    const keys = path.split('.');
    const { found, value: raw } = valueAt(doc, keys);
    if (!found) continue;
    const cast = castOne(raw, type, order);
    if (cast === unchanged) continue;
    out = withValue(out, keys, cast);
    if (type === 'date' && typeof raw === 'string' && cast instanceof Date && !YEAR.test(raw.trim()))
      readDate({ field: path, read: raw, stored: cast.toISOString() });
    else castValue({ field: path, read: shown(raw), stored: cast === undefined ? 'absent' : shown(cast) });
  }
  return out;
}

const unchanged = Symbol('unchanged');

/**
 * A Ghanaian registration number in its canonical form, `GR 1234-24` (region letters, a space, the number, a hyphen,
 * the year or series), from the forms people write it in (`GR-1234-24`, `gr1234 24`); undefined for another shape,
 * which the domain's own rule then judges as it is.
 */
export function canonicalPlate(raw: string): string | undefined {
  const parts = /^([A-Z]{1,3})[\s-]*(\d{1,5})[\s-]*(\d{2}|[A-Z])$/.exec(raw.trim().toUpperCase());
  return parts ? `${parts[1]} ${parts[2]}-${parts[3]}` : undefined;
}

/**
 * A Ghanaian phone number as people write it, in the canonical form (`+233244123456`): `+233 (0) 24 ...`, `00233...`,
 * nine digits without the leading 0, and of two numbers (`0244123456 / 0205555555`) the first. Undefined for a
 * shape none of these reads; the domain's rule then judges the value as it is.
 */
export function typedPhone(raw: string): string | undefined {
  const first = raw.split(/\s*(?:\/|,|;|\bor\b)\s*/)[0];
  let compact = first.replace(/\(0\)/g, '').replace(/[\s\-().]/g, '');
  if (compact.startsWith('00')) compact = `+${compact.slice(2)}`;
  if (/^[2-5]\d{8}$/.test(compact)) compact = `0${compact}`;
  if (/^0\d{9}$/.test(compact)) return `+233${compact.slice(1)}`;
  if (/^\+?233\d{9}$/.test(compact)) return `+${compact.replace(/^\+/, '')}`;
  return undefined;
}

/** Characters the domain's names allow (libs/domain's PLAIN_TEXT): letters, marks, digits, spaces, . , ' & ( ) / # : + @ _ - */
const NAME_CHARACTER = /[\p{L}\p{M}\p{N} .,'\u2019&()/#:+@_-]/u;

/**
 * A name as the domain's rule reads it: double quotes (straight or curly) as apostrophes, any other character it
 * refuses (an emoji) left out, spaces collapsed. Undefined when nothing is left.
 */
export function plainName(raw: string): string | undefined {
  const quoted = raw.replace(/["\u201C\u201D\u00AB\u00BB]/g, "'");
  const kept = [...quoted]
    .filter((c) => NAME_CHARACTER.test(c))
    .join('')
    .replace(/\s+/g, ' ')
    .trim();
  return kept === '' ? undefined : kept;
}

function phoneTaken(raw: string): boolean {
  try {
    normalizePhone(raw);
    return true;
  } catch {
    return false;
  }
}

/** A Ghana Card number in its printed form, `GHA-123456789-0`, from `gha 123456789 0`, `GHA1234567890`, ... */
export function canonicalCard(raw: string): string | undefined {
  const parts = /^GHA[\s-]*(\d{9})[\s-]*(\d)$/.exec(raw.trim().toUpperCase());
  return parts ? `GHA-${parts[1]}-${parts[2]}` : undefined;
}

const shown = (value: unknown) => (typeof value === 'number' && Number.isNaN(value) ? 'NaN' : JSON.stringify(value));

function castOne(raw: unknown, type: FieldType, order: DateOrder): unknown {
  if (raw === '' || (typeof raw === 'number' && Number.isNaN(raw))) return type === 'id' ? null : undefined;
  switch (type) {
    case 'number': {
      if (typeof raw !== 'string' || raw.trim() === '') return unchanged;
      const n = Number(raw.trim());
      return Number.isFinite(n) ? n : unchanged;
    }
    case 'boolean': {
      if (raw === 1 || raw === 0) return raw === 1;
      if (typeof raw !== 'string') return unchanged;
      const b = BOOLEANS.get(raw.trim().toLowerCase());
      return b === undefined ? unchanged : b;
    }
    case 'date': {
      // A year alone (a vehicle's makeYear as the form took it): the first of January of that year.
      if ((typeof raw === 'number' && YEAR.test(String(raw))) || (typeof raw === 'string' && YEAR.test(raw.trim())))
        return new Date(Date.UTC(Number(raw), 0, 1));
      if (typeof raw !== 'string') return unchanged;
      return slashedDate(raw, order) ?? unchanged;
    }
    case 'plate':
    case 'card': {
      if (typeof raw !== 'string') return unchanged;
      const canonical = type === 'plate' ? canonicalPlate(raw) : canonicalCard(raw);
      return canonical === undefined || canonical === raw ? unchanged : canonical;
    }
    case 'phone':
    case 'name': {
      if (typeof raw !== 'string') return unchanged;
      // Only what the rule refuses is read again: a value it takes is the domain's to normalise, as for a new one.
      if (type === 'phone' ? phoneTaken(raw) : [...raw].every((c) => NAME_CHARACTER.test(c))) return unchanged;
      const read = type === 'phone' ? typedPhone(raw) : plainName(raw);
      return read === undefined || read === raw ? unchanged : read;
    }
    case 'id':
    case 'text':
      return unchanged;
  }
}

/** Every distinct cast, per `collection.field`, with its count and an example id (at most 1,000 per field listed). */
export class CastTally {
  private readonly casts = new Map<string, Map<string, Cast & { records: number; example?: string }>>();
  /** Records with a value cast, per `collection.field`: every one counted, listed or not. */
  readonly records = new Map<string, number>();

  add(collection: string, cast: Cast, id?: string): void {
    const field = `${collection}.${cast.field}`;
    this.records.set(field, (this.records.get(field) ?? 0) + 1);
    const values = this.casts.get(field) ?? new Map<string, Cast & { records: number; example?: string }>();
    this.casts.set(field, values);
    const key = `${cast.read}\u0000${cast.stored}`;
    const entry = values.get(key);
    if (entry) entry.records += 1;
    else if (values.size < 1000) values.set(key, { ...cast, records: 1, example: id });
  }

  entries(): { collection: string; field: string; read: string; stored: string; records: number; example?: string }[] {
    return [...this.casts.entries()].flatMap(([field, values]) =>
      [...values.values()].map((c) => ({ collection: field.split('.')[0], ...c })),
    );
  }
}
