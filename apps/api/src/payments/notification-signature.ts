import { createHmac } from 'node:crypto';
import { sameSecret } from '../core/platform/secrets';

/**
 * Merchant notifications are signed as Standard Webhooks (https://www.standardwebhooks.com), so merchants can verify
 * them with any Standard Webhooks library (`standardwebhooks` on npm, Svix's) or by hand:
 *
 *   webhook-id:        the notification id; the same on every attempt (deduplicate on it)
 *   webhook-timestamp: unix seconds when this attempt was signed
 *   webhook-signature: v1,<base64 HMAC-SHA256(key, `${webhook-id}.${webhook-timestamp}.${raw body}`)>
 *
 * The key is the base64 part of the merchant's `whsec_...` signing secret. The id is inside what is signed, so a
 * captured delivery replayed under another id fails verification. Several signatures may be sent, space-separated
 * (during a secret rotation): any one that verifies is enough. Refuse timestamps more than a few minutes off.
 */
export const SIGNATURE_HEADERS = {
  id: 'webhook-id',
  timestamp: 'webhook-timestamp',
  signature: 'webhook-signature',
} as const;

const SECRET_PREFIX = 'whsec_';

/**
 * The HMAC key of a secret: the decoded base64 of a `whsec_` secret; a secret issued before that format (any other
 * string) is used as its UTF-8 bytes, which is what Standard Webhooks libraries do with `{ format: 'raw' }`.
 */
function keyOf(secret: string): Buffer {
  return secret.startsWith(SECRET_PREFIX)
    ? Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64')
    : Buffer.from(secret, 'utf8');
}

/** One `v1,<base64>` signature of a notification attempt. */
export function signNotification(secret: string, id: string, timestamp: number, body: string): string {
  return `v1,${createHmac('sha256', keyOf(secret)).update(`${id}.${timestamp}.${body}`, 'utf8').digest('base64')}`;
}

/** The `webhook-signature` header: one signature per secret in force (two during a rotation's overlap). */
export function signatureHeader(secrets: readonly string[], id: string, timestamp: number, body: string): string {
  return secrets.map((secret) => signNotification(secret, id, timestamp, body)).join(' ');
}

/** The merchant's side, used by our tests and given as the reference implementation. */
export function verifyNotification(
  secret: string,
  headers: Record<string, string | undefined>,
  body: string,
  now = Date.now(),
  toleranceSeconds = 300,
): boolean {
  const id = headers[SIGNATURE_HEADERS.id];
  const timestamp = Number(headers[SIGNATURE_HEADERS.timestamp]);
  if (!id || !Number.isInteger(timestamp) || Math.abs(now / 1000 - timestamp) > toleranceSeconds) return false;
  const expected = signNotification(secret, id, timestamp, body);
  return (headers[SIGNATURE_HEADERS.signature] ?? '').split(' ').some((given) => sameSecret(given, expected));
}
