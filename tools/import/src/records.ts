import { assertObjectId, DomainError, objectIdTime, type DomainErrorCode, type IdGenerator } from '@transport/domain';
import type { ReadFailureCode } from './reader';

/** One record of an export, after Extended JSON is read: ids as 24-hex strings, dates as Date, numbers as numbers. */
export type Doc = Record<string, unknown>;

/**
 * Every reason a record is skipped, as the report and the summary name it: the domain's code where the domain decided,
 * a read failure, or one of the importer's own (a field of the wrong shape, a reference to nothing here, a value
 * another record already holds, another refusal of the database).
 */
export type RefusalCode =
  | DomainErrorCode
  | ReadFailureCode
  | 'INVALID_FIELD'
  | 'REFERENCE_MISSING'
  | 'DUPLICATE_VALUE'
  | 'DATABASE_REFUSED'
  | 'DELETED'
  | 'SUPERSEDED';

/** Why a record is skipped: a stable code (the domain's where it decided) and words for the report. */
export class RecordRefused extends Error {
  constructor(
    readonly code: RefusalCode,
    message: string,
  ) {
    super(message);
  }
}

/** The refusal of any error a record's mapping or the domain raised; anything else is a bug and propagates. */
export function refusalOf(error: unknown): RecordRefused | undefined {
  if (error instanceof RecordRefused) return error;
  if (error instanceof DomainError) return new RecordRefused(error.code, error.message);
  return undefined;
}

export const refuse = (code: RefusalCode, message: string): never => {
  throw new RecordRefused(code, message);
};

/** The id generator of a record that already has its id: the domain's constructors then keep it. */
export const keepId = (id: string): IdGenerator => ({ next: () => id });

export function text(doc: Doc, field: string): string {
  const value = doc[field];
  if (typeof value !== 'string') return refuse('INVALID_FIELD', `${field} must be a string`);
  return value;
}

export function optionalText(doc: Doc, field: string): string | undefined {
  const value = doc[field];
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string') return refuse('INVALID_FIELD', `${field} must be a string`);
  return value;
}

export function number(doc: Doc, field: string): number {
  const value = doc[field];
  if (typeof value !== 'number' || !Number.isFinite(value)) return refuse('INVALID_FIELD', `${field} must be a number`);
  return value;
}

export function optionalNumber(doc: Doc, field: string): number | undefined {
  return doc[field] === undefined || doc[field] === null ? undefined : number(doc, field);
}

export function flag(doc: Doc, field: string): boolean {
  const value = doc[field] ?? false;
  if (typeof value !== 'boolean') return refuse('INVALID_FIELD', `${field} must be true or false`);
  return value;
}

/**
 * A date: a BSON date (`$date`) or an ISO 8601 string, as the original's documents hold them (dates people wrote,
 * `05/03/2027`, are read before this, in the import's date order: caster.ts). A string that starts like a day and a
 * month is refused rather than given to `Date`, which reads it month first whatever was meant.
 */
export function date(doc: Doc, field: string): Date {
  const value = doc[field];
  if (typeof value === 'string' && /^\s*\d{1,2}\D/.test(value))
    return refuse('INVALID_FIELD', `${field} ${JSON.stringify(value)} is not a date the import reads unambiguously`);
  const parsed = value instanceof Date ? value : typeof value === 'string' ? new Date(value) : undefined;
  if (!parsed || Number.isNaN(parsed.getTime())) return refuse('INVALID_FIELD', `${field} must be a date`);
  return parsed;
}

export function optionalDate(doc: Doc, field: string): Date | undefined {
  return doc[field] === undefined || doc[field] === null ? undefined : date(doc, field);
}

export function optionalId(doc: Doc, field: string): string | undefined {
  const value = doc[field];
  return value === undefined || value === null ? undefined : assertObjectId(value, field);
}

export function ids(doc: Doc, field: string): string[] {
  const value = doc[field] ?? [];
  if (!Array.isArray(value)) return refuse('INVALID_FIELD', `${field} must be a list of ids`);
  return value.map((id) => assertObjectId(id, field));
}

export function object(doc: Doc, field: string): Doc {
  const value = doc[field];
  if (value === null || typeof value !== 'object' || Array.isArray(value) || value instanceof Date)
    return refuse('INVALID_FIELD', `${field} must be an object`);
  return value as Doc;
}

/** What every stored record carries: `_id`, `createdAt`, `updatedAt` and `__v`, kept as they are. */
export interface Meta {
  id: string;
  createdAt: Date;
  updatedAt: Date;
  version: number;
}

/**
 * The record's identity and times. A record without `createdAt` gets its ObjectId's time (MongoDB ids carry their
 * creation second); without `updatedAt`, its `createdAt`; without `__v`, 0.
 */
export function meta(doc: Doc): Meta {
  const id = assertObjectId(doc._id, '_id');
  const createdAt = optionalDate(doc, 'createdAt') ?? objectIdTime(id);
  const updatedAt = optionalDate(doc, 'updatedAt') ?? createdAt;
  if (updatedAt < createdAt) refuse('INVALID_FIELD', 'updatedAt is before createdAt');
  const version = doc.__v ?? 0;
  if (typeof version !== 'number' || !Number.isSafeInteger(version) || version < 0)
    refuse('INVALID_FIELD', '__v must be a whole number, 0 or more');
  return { id, createdAt, updatedAt, version: version as number };
}

/** The assembly an original record belongs to, under either name the original used. */
export const assemblyOf = (doc: Doc): string | undefined =>
  optionalId(doc, doc.assembly !== undefined ? 'assembly' : 'assemblyId');
