import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { RandomSource } from '@transport/domain';
import { CryptoRandomSource } from '@transport/domain/node';

// The one home of the app's secret handling: the SHA-256 it stores of high-entropy tokens, the constant-time
// comparison of anything secret, and the random tokens it hands out.

/** The lower-case hex SHA-256 of a text's UTF-8 bytes: what is stored of a token with 256 bits of entropy. */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** Whether two byte strings are the same, in time that does not depend on where they differ. */
export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Whether two strings are the same, in time that does not depend on where they differ. */
export function sameSecret(a: string, b: string): boolean {
  return sameBytes(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

const cryptoRandom = new CryptoRandomSource();

/** A url-safe random token (base64url) of `bytes` random bytes: 256 bits unless told, from `random` when given. */
export function randomToken(bytes = 32, random: RandomSource = cryptoRandom): string {
  return Buffer.from(random.bytes(bytes)).toString('base64url');
}

/** API keys: 256 random bits, url-safe, with a prefix naming the role so a leaked key is recognisable. */
export function newApiKey(role: string): string {
  return `tp_${role}_${randomToken()}`;
}

/** Keys carry 256 bits of entropy, so one SHA-256 is enough and keeps the lookup indexable. */
export function hashApiKey(key: string): string {
  return sha256Hex(key);
}

// The activation-key hasher (HmacSecretHasher) is the library's: @transport/domain/node.

/** A merchant's notification signing secret in the Standard Webhooks format: `whsec_` and 32 random bytes in base64. */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}
