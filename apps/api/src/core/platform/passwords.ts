import { randomBytes, scrypt, type ScryptOptions } from 'node:crypto';
import { sameBytes } from './secrets';

/**
 * People's passwords: scrypt (memory-hard) with N = 2^15, r = 8, p = 1, 32 MiB per hash (OWASP's floor for scrypt),
 * a 16-byte salt each, run by node's crypto on libuv's thread pool, off the event loop. The parameters are stored
 * with each hash, so they can be raised later without invalidating the old ones.
 */
const COST = { N: 2 ** 15, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;
/** Passwords longer than this are refused before hashing (scrypt's cost grows with them; nobody types more). */
export const PASSWORD_MAX = 200;
export const PASSWORD_MIN = 12;

function derive(password: string, salt: Buffer, cost: { N: number; r: number; p: number }): Promise<Buffer> {
  const options: ScryptOptions = { ...cost, maxmem: 256 * cost.N * cost.r };
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFC'), salt, KEY_LENGTH, options, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, COST);
  return `scrypt$${COST.N}$${COST.r}$${COST.p}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

/** A stored hash no password matches, verified against when the account is unknown so both answers take as long. */
export const UNUSABLE_HASH = `scrypt$${COST.N}$${COST.r}$${COST.p}$${Buffer.alloc(16).toString('base64url')}$${Buffer.alloc(KEY_LENGTH, 1).toString('base64url')}`;

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  const cost = { N: Number(n), r: Number(r), p: Number(p) };
  if (scheme !== 'scrypt' || !salt || !hash || ![cost.N, cost.r, cost.p].every(Number.isSafeInteger)) return false;
  if (password.length > PASSWORD_MAX) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await derive(password, Buffer.from(salt, 'base64url'), cost);
  return sameBytes(expected, actual);
}

/** Why a new password is refused, or undefined when it is acceptable (length, as NIST SP 800-63B asks, and not the email). */
export function passwordProblem(password: string, email: string): string | undefined {
  const length = [...password].length;
  if (length < PASSWORD_MIN) return `The password must be at least ${PASSWORD_MIN} characters long`;
  if (length > PASSWORD_MAX) return `The password must be at most ${PASSWORD_MAX} characters long`;
  if (/^(.)\1*$/u.test(password)) return 'The password must not repeat one character';
  if (password.toLowerCase().includes(email.split('@')[0].toLowerCase()))
    return 'The password must not contain your email address';
  return undefined;
}
