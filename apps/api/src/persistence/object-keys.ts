import { createHash } from 'node:crypto';
import type { ObjectMetadata } from '../core/ports';

/** What an object key may be (every adapter refuses anything else, so a key means the same thing everywhere). */
const KEY = /^[A-Za-z0-9][A-Za-z0-9/._-]{0,511}$/;

export function assertObjectKey(key: string): void {
  if (!KEY.test(key) || key.includes('..') || key.includes('//'))
    throw new Error(`Object key "${key}" must be 1 to 512 letters, digits and /._- (no "..", no "//")`);
}

/** The SHA-256 (hex) of the bytes. */
export const sha256Hex = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/** Refuses bytes whose SHA-256 is not the one given (a truncated upload, a caller's mix-up): nothing is stored. */
export function assertChecksum(bytes: Uint8Array, metadata: ObjectMetadata): void {
  const actual = sha256Hex(bytes);
  if (actual !== metadata.sha256)
    throw new Error(`The bytes' SHA-256 is ${actual}, not the ${metadata.sha256} they were stored with`);
}
