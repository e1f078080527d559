import { createHash, randomBytes, scryptSync, timingSafeEqual } from 'node:crypto';

/** API keys: 256 random bits, url-safe, with a prefix naming the role so a leaked key is recognisable. */
export function newApiKey(role: string): string {
  return `tp_${role}_${randomBytes(32).toString('base64url')}`;
}

/** Keys carry 256 bits of entropy, so one SHA-256 is enough and keeps the lookup indexable. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** Low-entropy secrets (six-digit activation keys) get a salted, slow hash. */
export function hashShortSecret(secret: string): string {
  const salt = randomBytes(16);
  const hash = scryptSync(secret, salt, 32);
  return `scrypt$${salt.toString('base64url')}$${hash.toString('base64url')}`;
}

export function verifyShortSecret(secret: string, stored: string): boolean {
  const [scheme, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = scryptSync(secret, Buffer.from(salt, 'base64url'), expected.length);
  return timingSafeEqual(expected, actual);
}

/** The SecretHasher port over scrypt (salted, slow), for activation keys. */
export class ScryptSecretHasher {
  hash(secret: string): string {
    return hashShortSecret(secret);
  }
  verify(secret: string, hash: string): boolean {
    return verifyShortSecret(secret, hash);
  }
}

/** A merchant's notification signing secret in the Standard Webhooks format: `whsec_` and 32 random bytes in base64. */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}
