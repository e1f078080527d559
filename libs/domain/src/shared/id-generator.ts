import type { Clock } from './clock';
import { DomainError } from './domain-error';
import type { RandomSource } from './random-source';

/** Port: where new record ids come from. */
export interface IdGenerator {
  next(): string;
}

/** An id as the platform makes and accepts them: 24 lowercase hex characters (the layout of a MongoDB ObjectId). */
export const OBJECT_ID_PATTERN = /^[0-9a-f]{24}$/;

export function isObjectId(value: unknown): value is string {
  return typeof value === 'string' && OBJECT_ID_PATTERN.test(value);
}

export function assertObjectId(value: unknown, field: string): string {
  if (!isObjectId(value)) {
    throw new DomainError('INVALID_ID', `${field} must be a 24-character lowercase hex id`, field);
  }
  return value;
}

function hex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * Ids in the layout of MongoDB ObjectIds (24 hex characters: 4 bytes of seconds, then 8 more), so ids imported from
 * the service this interface came from keep their meaning and sort by creation second. The 8 bytes after the
 * timestamp are drawn afresh for every id (from a cryptographically strong source in production): an id tells nothing
 * about its neighbours. (MongoDB's own layout, a fixed per-process part and a counter, let anyone holding one public id
 * find the others made near it in a few dozen guesses.)
 */
export class ObjectIdGenerator implements IdGenerator {
  constructor(
    private readonly clock: Clock,
    private readonly random: RandomSource,
  ) {}

  next(): string {
    const seconds = Math.floor(this.clock.now().getTime() / 1000);
    return (seconds >>> 0).toString(16).padStart(8, '0') + hex(this.random.bytes(8));
  }
}

/** The creation time encoded in an ObjectId-style id (second precision). */
export function objectIdTime(id: string): Date {
  return new Date(parseInt(assertObjectId(id, 'id').slice(0, 8), 16) * 1000);
}

/** A list of ids without repeats, at most 100. */
export function idList(raw: readonly string[], field: string): string[] {
  if (!Array.isArray(raw) || raw.length > 100) {
    throw new DomainError('INVALID_ID_LIST', `${field} must be a list of at most 100 ids`, field);
  }
  return [...new Set(raw.map((id) => assertObjectId(id, field)))];
}
