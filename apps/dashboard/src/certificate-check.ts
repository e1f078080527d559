import type { components } from '@transport/api-client';

// Checking a vehicle certificate's token on this device: the service's public keys (its JWKS), fetched when there is
// a signal and kept in localStorage, verify the token's Ed25519 signature with WebCrypto, with no network at all.
// The state as of now (withdrawn, expired) only the service knows: it is asked for when there is a signal.

export type CheckAnswer = components['schemas']['CertificateCheckResponse'];
type Jwk = components['schemas']['CertificateJwkResponse'];

export interface KeySet {
  keys: Jwk[];
  fetchedAt: string;
}

/** What the token says, when its signature holds; or why it is not genuine. */
export type LocalVerdict =
  | { genuine: true; keyId: string; vehicleId: string; plate: string; approvedAt: Date; issuedAt: Date }
  | { genuine: false; reason: 'malformed' | 'unknown_key' | 'bad_signature' }
  /** The phone has no keys yet: it cannot tell genuine from forged (never says "not genuine" then). */
  | { genuine: undefined; reason: 'no_keys' };

const STORED_KEYS = 'transport.certificate-keys';
const BASE64URL = /^[A-Za-z0-9_-]+$/;

function bytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

function json(part: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(new TextDecoder().decode(bytes(part)));
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The token in what a QR code or a person gave: the check URL (…/v/<token>) or the token itself. */
export function tokenIn(text: string): string | undefined {
  const trimmed = text.trim();
  const fromUrl = /\/v\/([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)\/?(?:[?#].*)?$/.exec(trimmed)?.[1];
  if (fromUrl) return fromUrl;
  return /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(trimmed) ? trimmed : undefined;
}

/** The keys as last kept on this device. */
export function storedKeys(): KeySet | undefined {
  try {
    const stored = JSON.parse(localStorage.getItem(STORED_KEYS) ?? 'null') as KeySet | null;
    return stored && Array.isArray(stored.keys) ? stored : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The service's keys, fetched now and kept; without a signal, the ones kept before. Called when the dashboard loads and
 * at each sign-in (not only at an online check), so a phone that never checked a certificate with a signal has them,
 * and a rotated key reaches it with the next load.
 */
export async function currentKeys(): Promise<KeySet | undefined> {
  try {
    const response = await fetch('/.well-known/jwks.json', { cache: 'no-cache' });
    if (!response.ok) return storedKeys();
    const fetched: KeySet = {
      keys: ((await response.json()) as { keys: Jwk[] }).keys,
      fetchedAt: new Date().toISOString(),
    };
    localStorage.setItem(STORED_KEYS, JSON.stringify(fetched));
    return fetched;
  } catch {
    return storedKeys();
  }
}

/** The token's signature checked against the keys, on this device (a compact JWS, EdDSA over Ed25519). */
export async function verifyHere(token: string, keys: readonly Jwk[]): Promise<LocalVerdict> {
  if (keys.length === 0) return { genuine: undefined, reason: 'no_keys' };
  const parts = token.split('.');
  if (parts.length !== 3 || !parts.every((p) => BASE64URL.test(p))) return { genuine: false, reason: 'malformed' };
  const [headerPart, payloadPart, signaturePart] = parts;
  const header = json(headerPart);
  if (!header || header.alg !== 'EdDSA' || typeof header.kid !== 'string')
    return { genuine: false, reason: 'malformed' };
  const jwk = keys.find((k) => k.kid === header.kid);
  if (!jwk) return { genuine: false, reason: 'unknown_key' };
  const key = await crypto.subtle.importKey(
    'jwk',
    { kty: jwk.kty, crv: jwk.crv, x: jwk.x },
    { name: 'Ed25519' },
    false,
    ['verify'],
  );
  const signature = bytes(signaturePart);
  // Other characters that decode to the same bytes are not the signature that was made (the service refuses them).
  const canonical = btoa(String.fromCharCode(...signature))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
  if (canonical !== signaturePart) return { genuine: false, reason: 'bad_signature' };
  const signed = new TextEncoder().encode(`${headerPart}.${payloadPart}`);
  const holds = signature.length === 64 && (await crypto.subtle.verify({ name: 'Ed25519' }, key, signature, signed));
  if (!holds) return { genuine: false, reason: 'bad_signature' };
  const payload = json(payloadPart);
  if (!payload || typeof payload.sub !== 'string' || typeof payload.reg !== 'string')
    return { genuine: false, reason: 'malformed' };
  return {
    genuine: true,
    keyId: jwk.kid,
    vehicleId: payload.sub,
    plate: payload.reg,
    approvedAt: new Date(Number(payload.apr) * 1000),
    issuedAt: new Date(Number(payload.iat) * 1000),
  };
}

/** The state as of now, from the service; undefined without a signal (or when it cannot answer). */
export async function stateNow(token: string): Promise<CheckAnswer | undefined> {
  try {
    const response = await fetch(`/v/${token}`, { headers: { Accept: 'application/json' }, cache: 'no-cache' });
    return response.ok ? ((await response.json()) as CheckAnswer) : undefined;
  } catch {
    return undefined;
  }
}
