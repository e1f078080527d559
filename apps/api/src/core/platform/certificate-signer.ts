import { createHash, createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import { isObjectId, type CertificateClaims, type NotGenuineReason } from '@transport/domain';

/** One public key as the JWKS publishes it (RFC 8037: an Ed25519 key is kty OKP, crv Ed25519). */
export interface CertificateJwk {
  kty: 'OKP';
  crv: 'Ed25519';
  x: string;
  kid: string;
  alg: 'EdDSA';
  use: 'sig';
}

export type CertificateCheck =
  { genuine: true; claims: CertificateClaims; keyId: string } | { genuine: false; reason: NotGenuineReason };

interface SigningKey {
  kid: string;
  privateKey: KeyObject;
  publicKey: KeyObject;
  jwk: CertificateJwk;
}

/** Longer than any token we sign: anything longer is refused before it is parsed. */
export const MAX_TOKEN_LENGTH = 400;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

function decodeJson(part: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The key id: the first 64 bits of the key's RFC 7638 thumbprint, so operators configure keys alone. */
function keyIdOf(x: string): string {
  const thumbprint = createHash('sha256')
    .update(JSON.stringify({ crv: 'Ed25519', kty: 'OKP', x }))
    .digest();
  return thumbprint.subarray(0, 8).toString('base64url');
}

/**
 * Signs and checks vehicle certificates' tokens: a JWS in compact form (RFC 7515) with EdDSA over Ed25519 (RFC 8037)
 * and the key id in its header, so anyone holding the JWKS can check one offline. The payload is kept short for the
 * QR code: `sub` (vehicle id), `reg` (plate), `apr` (the approval, seconds), `iat` (seconds). The first key signs,
 * every key verifies; a token under a key no longer configured is not genuine.
 */
export class Ed25519CertificateSigner {
  private readonly keys: SigningKey[];

  /** `keys`: base64 PKCS#8 DER Ed25519 private keys (CERTIFICATE_SIGNING_KEYS, checked by the configuration). */
  constructor(keys: readonly string[]) {
    if (keys.length === 0) throw new Error('A certificate signer needs at least one key');
    this.keys = keys.map((encoded) => {
      const privateKey = createPrivateKey({ key: Buffer.from(encoded, 'base64'), format: 'der', type: 'pkcs8' });
      const publicKey = createPublicKey(privateKey);
      const x = (publicKey.export({ format: 'jwk' }) as { x: string }).x;
      const kid = keyIdOf(x);
      return { kid, privateKey, publicKey, jwk: { kty: 'OKP', crv: 'Ed25519', x, kid, alg: 'EdDSA', use: 'sig' } };
    });
  }

  /** The key id new certificates are signed with. */
  get signingKeyId(): string {
    return this.keys[0].kid;
  }

  sign(claims: CertificateClaims): string {
    const { kid, privateKey } = this.keys[0];
    const input = `${encode({ alg: 'EdDSA', kid })}.${encode({
      sub: claims.vehicleId,
      reg: claims.registrationNumber,
      apr: seconds(claims.approvedAt),
      iat: seconds(claims.issuedAt),
    })}`;
    return `${input}.${sign(null, Buffer.from(input), privateKey).toString('base64url')}`;
  }

  /** Whether a token is one of ours, unchanged, under a key still configured; and if so what it says. */
  check(token: string): CertificateCheck {
    const notGenuine = (reason: NotGenuineReason): CertificateCheck => ({ genuine: false, reason });
    const parts = token.length <= MAX_TOKEN_LENGTH ? token.split('.') : [];
    if (parts.length !== 3 || !parts.every((p) => BASE64URL.test(p))) return notGenuine('malformed');
    const [headerPart, payloadPart, signaturePart] = parts;
    const header = decodeJson(headerPart);
    if (!header || header.alg !== 'EdDSA' || typeof header.kid !== 'string') return notGenuine('malformed');
    const key = this.keys.find((k) => k.kid === header.kid);
    if (!key) return notGenuine('unknown_key');
    const signature = Buffer.from(signaturePart, 'base64url');
    // A signature that decodes to other bytes than were sent (non-canonical base64url) is not the one we made.
    if (signature.length !== 64 || signature.toString('base64url') !== signaturePart)
      return notGenuine('bad_signature');
    if (!verify(null, Buffer.from(`${headerPart}.${payloadPart}`), key.publicKey, signature))
      return notGenuine('bad_signature');
    const payload = decodeJson(payloadPart);
    const { sub, reg, apr, iat } = payload ?? {};
    if (
      typeof sub !== 'string' ||
      !isObjectId(sub) ||
      typeof reg !== 'string' ||
      !Number.isSafeInteger(apr) ||
      !Number.isSafeInteger(iat)
    )
      return notGenuine('malformed');
    return {
      genuine: true,
      keyId: key.kid,
      claims: {
        vehicleId: sub,
        registrationNumber: reg,
        approvedAt: new Date((apr as number) * 1000),
        issuedAt: new Date((iat as number) * 1000),
      },
    };
  }

  /** The public keys, signing key first (RFC 7517 JWK Set). */
  jwks(): { keys: CertificateJwk[] } {
    return { keys: this.keys.map((k) => k.jwk) };
  }
}
