import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * How merchants verify our notifications (documented in the OpenAPI description and the README):
 *
 *   Webhook-Id:        the notification id; the same on every attempt (deduplicate on it)
 *   Webhook-Timestamp: unix seconds when this attempt was signed
 *   Webhook-Signature: v1=<hex HMAC-SHA256(signingSecret, `${Webhook-Timestamp}.${raw body}`)>
 *
 * Verify with a constant-time comparison and refuse timestamps far from your clock (replays).
 */
export const SIGNATURE_HEADERS = {
  id: 'webhook-id',
  timestamp: 'webhook-timestamp',
  signature: 'webhook-signature',
} as const;

export function signNotification(secret: string, timestamp: number, body: string): string {
  return `v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`, 'utf8').digest('hex')}`;
}

/** The merchant's side, used by our tests and given as the reference implementation. */
export function verifyNotification(
  secret: string,
  headers: Record<string, string | undefined>,
  body: string,
  now = Date.now(),
  toleranceSeconds = 300,
): boolean {
  const timestamp = Number(headers[SIGNATURE_HEADERS.timestamp]);
  const given = headers[SIGNATURE_HEADERS.signature] ?? '';
  if (!Number.isInteger(timestamp) || Math.abs(now / 1000 - timestamp) > toleranceSeconds) return false;
  const expected = Buffer.from(signNotification(secret, timestamp, body));
  const actual = Buffer.from(given);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
