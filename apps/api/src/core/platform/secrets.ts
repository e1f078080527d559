import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { RandomSource, SecretHasher } from '@transport/domain';
import { CryptoRandomSource } from './crypto-random-source';

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

/** The short id of a server secret that a hash names, so a hash made before a rotation finds its secret. */
export const secretId = (secret: string): string => sha256Hex(secret).slice(0, 8);

/**
 * The SecretHasher port for six-digit activation keys: HMAC-SHA256 keyed with a server secret (ACTIVATION_KEY_SECRETS)
 * that the database never holds. A slow KDF buys nothing for a key drawn from a million values (anyone with the hashes
 * tries them all either way) and cost the event loop 150 ms a registration (one address slowed every caller); without
 * the server secret, a copy of the database cannot tell any key. The attempt limits guard the online guessing.
 *
 * The first secret makes new hashes; every listed secret still verifies the hashes it made (`hmac$<secret id>$<hex>`),
 * so a secret is rotated by putting the new one first and dropping the old one once its keys have expired
 * (ACTIVATION_KEY_HOURS). Hashes of another scheme (the scrypt hashes of earlier releases) verify nothing.
 */
export class HmacSecretHasher implements SecretHasher {
  private readonly byId: Map<string, string>;

  constructor(private readonly secrets: readonly string[]) {
    if (secrets.length === 0) throw new Error('HmacSecretHasher needs at least one secret');
    this.byId = new Map(secrets.map((secret) => [secretId(secret), secret]));
  }

  hash(key: string): string {
    const secret = this.secrets[0];
    return `hmac$${secretId(secret)}$${createHmac('sha256', secret).update(key, 'utf8').digest('hex')}`;
  }

  verify(key: string, stored: string): boolean {
    const [scheme, id, digest] = stored.split('$');
    const secret = scheme === 'hmac' && digest ? this.byId.get(id) : undefined;
    if (!secret) return false;
    return sameSecret(createHmac('sha256', secret).update(key, 'utf8').digest('hex'), digest);
  }
}

/** A merchant's notification signing secret in the Standard Webhooks format: `whsec_` and 32 random bytes in base64. */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}
