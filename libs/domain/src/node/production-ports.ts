/// <reference types="node" />
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Clock } from '../shared/clock';
import type { RandomSource } from '../shared/random-source';
import type { SecretHasher } from '../shared/secret-hasher';

// The production implementations of the ports the domain itself needs, for Node: the time from Date, randomness and
// hashing from Node's crypto. Nothing else (no files, no network, no environment). A separate entry point
// (`@transport/domain/node`) so that the main one stays free of Node's modules (the dashboard bundles it for browsers).

/** The wall clock. */
export class SystemClock implements Clock {
  now(): Date {
    return new Date();
  }
}

/** Cryptographically strong random bytes (Node's crypto.randomBytes): ids, activation keys, tokens. */
export class CryptoRandomSource implements RandomSource {
  bytes(length: number): Uint8Array {
    return new Uint8Array(randomBytes(length));
  }
}

/** The short id of a server secret that a hash names, so a hash made before a rotation finds its secret. */
export const secretId = (secret: string): string =>
  createHash('sha256').update(secret, 'utf8').digest('hex').slice(0, 8);

const sameText = (a: string, b: string): boolean => {
  const [x, y] = [Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8')];
  return x.length === y.length && timingSafeEqual(x, y);
};

/**
 * The SecretHasher for six-digit activation keys: HMAC-SHA256 keyed with a server secret that the database never
 * holds. A slow KDF buys nothing for a key drawn from a million values (anyone with the hashes tries them all either
 * way) and costs the event loop; without the server secret, a copy of the database cannot tell any key. The domain's
 * attempt limits guard the online guessing.
 *
 * The first secret makes new hashes; every listed secret still verifies the hashes it made (`hmac$<secret id>$<hex>`),
 * so a secret is rotated by putting the new one first and dropping the old one once its keys have expired. Hashes of
 * another scheme verify nothing.
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
    return sameText(createHmac('sha256', secret).update(key, 'utf8').digest('hex'), digest);
  }
}
