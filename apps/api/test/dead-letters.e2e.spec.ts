import { createHmac } from 'node:crypto';
import { PaymentCallbacksService } from '../src/payments/payment-callbacks.service';
import { appOnTier } from './support/app-on-tier';
import { describeOnEachTier } from './support/test-app';

const PROVIDER_SECRET = 'dead-letter-provider-secret';
const sign = (raw: string) => `sha256=${createHmac('sha256', PROVIDER_SECRET).update(raw).digest('hex')}`;
const STRAY_LIMIT = 3;
const DAY = 86_400_000;

/** A callback as the provider sends it, for a payment this service does not know. */
const stray = (pad = '') =>
  JSON.stringify({
    ResponseCode: '0000',
    Message: 'success',
    Data: { Amount: 1, ClientReference: '65a1b2c3d4e5f60718293a4b', Description: pad },
  });

describeOnEachTier('the dead-letter table cannot be filled from outside', (tier) => {
  const { running, http } = appOnTier(tier, {
    config: (base) => ({
      ...base,
      provider: { ...base.provider, callbackSecret: PROVIDER_SECRET },
      payments: { ...base.payments, strayCallbacksPerAddressPerHour: STRAY_LIMIT },
    }),
  });
  const letters = () => running.database.prisma.paymentDeadLetter.count();
  const post = (token: string, raw: string, signature?: string) => {
    const req = http().post(`/payment/callback/${token}`).set('content-type', 'application/json');
    return (signature === undefined ? req : req.set('x-provider-signature', signature)).send(raw);
  };

  it('stores nothing for a callback with a missing or wrong signature, whatever its token (401)', async () => {
    const before = await letters();
    const raw = stray();
    for (const signature of [undefined, 'sha256=00', sign(`${raw} `)]) {
      const res = await post('x'.repeat(43), raw, signature).expect(401);
      expect(res.headers['content-type']).toMatch(/problem\+json/);
      expect(res.body.code).toBe('INVALID_SIGNATURE');
    }
    expect(await letters()).toBe(before);
  });

  it('refuses a callback body over 16 KiB with a 413 problem, and keeps none of it', async () => {
    const before = await letters();
    const raw = stray('x'.repeat(17 * 1024));
    const res = await post('y'.repeat(43), raw, sign(raw)).expect(413);
    expect(res.headers['content-type']).toMatch(/problem\+json/);
    expect(await letters()).toBe(before);
  });

  it('keeps callbacks to unknown tokens up to the per-address limit, then answers 429 with Retry-After and keeps no more', async () => {
    const before = await letters();
    const raw = stray();
    for (let i = 0; i < STRAY_LIMIT; i++) await post(`unknown-token-${i}`.padEnd(43, 'z'), raw, sign(raw)).expect(404);
    expect(await letters()).toBe(before + STRAY_LIMIT);
    const refused = await post('unknown-token-past'.padEnd(43, 'z'), raw, sign(raw)).expect(429);
    expect(refused.headers['content-type']).toMatch(/problem\+json/);
    expect(refused.body).toMatchObject({ code: 'RATE_LIMITED', status: 429 });
    expect(refused.body.detail).toMatch(/unknown or expired callback URLs/);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(3600);
    expect(await letters()).toBe(before + STRAY_LIMIT);
  });

  it('deletes dead letters older than DEAD_LETTER_RETENTION_DAYS (default 7), keeping younger ones', async () => {
    const now = Date.now();
    const letter = (ageMs: number, body: string) => ({
      receivedAt: new Date(now - ageMs),
      reason: 'unknown_token',
      headers: {},
      body,
    });
    await running.database.prisma.paymentDeadLetter.createMany({
      data: [letter(8 * DAY, 'old'), letter(7 * DAY + 60_000, 'just past'), letter(6 * DAY, 'young')],
    });
    expect(await running.app.get(PaymentCallbacksService).pruneDeadLetters()).toBeGreaterThanOrEqual(2);
    const bodies = (await running.database.prisma.paymentDeadLetter.findMany({ select: { body: true } })).map(
      (l) => l.body,
    );
    expect(bodies).toContain('young');
    expect(bodies).not.toContain('old');
    expect(bodies).not.toContain('just past');
  });
});
