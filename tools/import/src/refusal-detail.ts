import { DomainError } from '@transport/domain';
import type { Table } from './collections';
import type { Doc, RefusalCode } from './records';
import { ValueRefusal } from './value-reader';

/**
 * What a refusal tells the operator beyond its code and words: the field at fault, the value read there, and what to
 * do about it (which option, which mapping entry, which record holds the value, which refused record a reference
 * points at). One place decides it for every kind of refusal, so every report line carries the same parts.
 */
export interface RefusalDetail {
  field?: string;
  value?: unknown;
  hint?: string;
}

/** The collection each table's records come from (a reference names the table it points into). */
export const COLLECTION_OF_TABLE: Readonly<Record<Table, string>> = {
  regions: 'regions',
  assemblies: 'assemblies',
  assembly_users: 'assemblyusers',
  transport_unions: 'transportunions',
  stations: 'stations',
  vehicle_owners: 'vehicleowners',
  drivers: 'drivers',
  vehicles: 'vehicles',
  trips: 'trips',
  trip_services: 'trips',
  transactions: 'transactions',
  merchants: 'merchants',
};

const at = (doc: Doc, path: string): unknown =>
  path
    .split(/[.[\]]+/)
    .filter(Boolean)
    .reduce<unknown>((o, key) => (o as Doc | null | undefined)?.[key], doc);

/** A value as the report shows it: dates as ISO text, long text cut. */
function shown(value: unknown): unknown {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? String(value) : value.toISOString();
  if (typeof value === 'string' && value.length > 200) return `${value.slice(0, 200)}…`;
  if (value !== null && typeof value === 'object') {
    const text = JSON.stringify(value);
    return text.length > 200 ? `${text.slice(0, 200)}…` : value;
  }
  return value;
}

/**
 * The field a refusal names: the domain's own (`DomainError.field`), the mapping's, or the first word of the message
 * that is a field of the record (the importer's messages begin with it: "registrationNumber must be a string").
 */
function fieldOf(error: unknown, doc: Doc): string | undefined {
  if (error instanceof ValueRefusal) return error.problems[0]?.path;
  if (error instanceof DomainError && error.field && at(doc, error.field) !== undefined) return error.field;
  const words = (error as Error).message.match(/[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*/g) ?? [];
  return words.find((w) => at(doc, w) !== undefined) ?? (error instanceof DomainError ? error.field : undefined);
}

/** What to do about a record the mapping or the domain refused. */
export function detailOf(error: unknown, code: RefusalCode, collection: string, doc: Doc): RefusalDetail {
  const field = fieldOf(error, doc);
  const value = field === undefined ? undefined : shown(at(doc, field));
  const hint =
    code === 'INVALID_VALUE'
      ? `map the value in a mapping file: --map with "${collection}.${field}": {${JSON.stringify(value)}: <a value ` +
        `here>} (a dry run with --write-map writes the file to fill in)`
      : code === 'UNSAFE_FIELD'
        ? 'remove the field from the record in the original and export again'
        : `correct ${field ?? 'the record'} in the original and export again; the record is left out until then ` +
          '(the rest is imported)';
  return { field, value, hint };
}

/** What to do about a record that could not be read. */
export function readHint(code: RefusalCode): string {
  switch (code) {
    case 'CUT_SHORT':
      return 'the export was cut short: export the collection again (mongoexport or mongodump) and run the import again';
    case 'DAMAGED':
      return 'the backup is damaged: make it again with mongodump';
    case 'LINE_TOO_LONG':
      return 'the line is not one record: export the collection again with mongoexport (one record per line)';
    case 'UNSAFE_FIELD':
      return 'remove the field from the record in the original and export again';
    default:
      return 'correct the record in the file (it must be one JSON object), or export the collection again';
  }
}
