import request from 'supertest';
import type { RunningApp } from '../src/app';
import { loadApiFixture, type ApiFixture } from './support/api-fixtures';
import { describeOnPostgres } from './support/postgres-only';
import { appOnTier } from './support/app-on-tier';
import { describeOnEachTier, openTierStore, startTestApp, type TierStore } from './support/test-app';

const body = (reference: string, over: object = {}) => ({
  amount: 5,
  description: 'Trip payment',
  reference,
  callBackUrl: 'https://merchant.example.com/payments/callback',
  customerPhone: '0244111222',
  requestType: 'mobile_money',
  ...over,
});

// Two instances on one PostgreSQL database: the limits are counted in the database, so N instances never allow N
// times the limit.
describeOnPostgres('payment request limits, shared by every instance', () => {
  let store: TierStore;
  let a: RunningApp;
  let b: RunningApp;
  let f: ApiFixture;

  beforeAll(async () => {
    store = await openTierStore('postgresql');
    const base = store.config();
    const config = { ...base, payments: { ...base.payments, perPhonePerHour: 2, perMerchantPerMinute: 4 } };
    a = await startTestApp(config);
    b = await startTestApp(config);
    f = await loadApiFixture(a.database);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await store?.dispose();
  });

  const pay = (app: RunningApp, reference: string, over: object = {}) =>
    request(app.app.getHttpServer())
      .post('/payment/request')
      .set('Authorization', f.keys.merchantA)
      .send(body(reference, over));

  it('limits prompts to one customer phone across instances (429 with Retry-After), and nothing is stored', async () => {
    await pay(a, 'LIM-1').expect(201);
    await pay(b, 'LIM-2').expect(201);
    const refused = await pay(a, 'LIM-3').expect(429);
    expect(refused.body).toMatchObject({ code: 'RATE_LIMITED', status: 429 });
    expect(refused.body.detail).toMatch(/customer phone/);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(3600);
    expect(await a.database.prisma.transaction.count({ where: { reference: 'LIM-3' } })).toBe(0);
    // A repeat of a stored request is a read: it is not refused.
    await pay(b, 'LIM-1').expect(200);
    // The counters hold no phone number.
    const keys = await a.database.prisma.rateLimit.findMany({ select: { key: true } });
    expect(keys.map((k) => k.key).join(' ')).not.toMatch(/244111222/);
  });

  it('limits requests per merchant across instances', async () => {
    // LIM-1, LIM-2 and the refused LIM-3 counted; one more request is allowed, then the merchant is refused.
    await pay(b, 'LIM-4', { customerPhone: '0244333444' }).expect(201);
    const refused = await pay(a, 'LIM-5', { customerPhone: '0244555666' }).expect(429);
    expect(refused.body.detail).toMatch(/merchant/);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
  });
});

describeOnEachTier('payment operator and merchant controls', (tier) => {
  const { running, fixture: f, http } = appOnTier(tier, { fixture: true });

  it('lets a merchant rotate its signing secret with an overlap (shown once, no-store, audited without secrets)', async () => {
    const res = await http()
      .post('/payment/signing-secret/rotate')
      .set('Authorization', f.keys.merchantA)
      .send({ overlapHours: 2 })
      .expect(200);
    expect(res.body.signingSecret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(res.headers['cache-control']).toBe('no-store');
    const row = await running.database.prisma.merchant.findUniqueOrThrow({ where: { id: f.ids.merchantA } });
    expect(row).toMatchObject({ signingSecret: res.body.signingSecret, previousSigningSecret: 's' });
    expect(row.previousSecretUntil?.toISOString()).toBe(res.body.previousSecretValidUntil);
    const audit = await running.database.prisma.auditEntry.findFirstOrThrow({
      where: { entityId: f.ids.merchantA, action: 'MerchantSigningSecretRotated' },
    });
    expect(audit.after).toEqual({ previousSecretUntil: res.body.previousSecretValidUntil });
    expect(JSON.stringify([audit.before, audit.after])).not.toContain(res.body.signingSecret.slice(6));
    await http()
      .post('/payment/signing-secret/rotate')
      .set('Authorization', f.keys.merchantA)
      .send({ overlapHours: 1000 })
      .expect(400);
    await http().post('/payment/signing-secret/rotate').set('Authorization', f.keys.admin).send({}).expect(403);
  });

  it('lets only an operator redeliver a notification or resume a merchant', async () => {
    const unknown = 'ffffffffffffffffffffffff';
    const redeliver = await http()
      .post(`/payment/notifications/${unknown}/redeliver`)
      .set('Authorization', f.keys.admin)
      .expect(409);
    expect(redeliver.body.code).toBe('NOTIFICATION_NOT_REDELIVERABLE');
    await http().post('/payment/notifications/nope/redeliver').set('Authorization', f.keys.admin).expect(400);
    await http().post(`/payment/notifications/${unknown}/redeliver`).set('Authorization', f.keys.merchantA).expect(403);
    expect(
      (
        await http()
          .post(`/payment/merchants/${f.ids.merchantA}/notifications/resume`)
          .set('Authorization', f.keys.admin)
          .expect(200)
      ).body,
    ).toEqual({ resumed: 0 });
    await http()
      .post(`/payment/merchants/${unknown}/notifications/resume`)
      .set('Authorization', f.keys.admin)
      .expect(404);
    await http()
      .post(`/payment/merchants/${f.ids.merchantA}/notifications/resume`)
      .set('Authorization', f.keys.merchantA)
      .expect(403);
  });
});

describeOnEachTier('the per-phone payment limit counts per merchant and phone', (tier) => {
  const { running, fixture: f } = appOnTier(tier, {
    fixture: true,
    config: (base) => ({ ...base, payments: { ...base.payments, perPhonePerHour: 2 } }),
  });
  const pay = (key: string, reference: string) =>
    request(running.app.getHttpServer())
      .post('/payment/request')
      .set('Authorization', key)
      .send(body(reference, { customerPhone: '0244777888' }));

  it("one merchant using up a customer's phone limit does not block that customer for another merchant", async () => {
    await pay(f.keys.merchantA, 'PHONE-A1').expect(201);
    await pay(f.keys.merchantA, 'PHONE-A2').expect(201);
    expect((await pay(f.keys.merchantA, 'PHONE-A3').expect(429)).body.detail).toMatch(/customer phone/);
    await pay(f.keys.merchantB, 'PHONE-B1').expect(201);
    await pay(f.keys.merchantB, 'PHONE-B2').expect(201);
    await pay(f.keys.merchantB, 'PHONE-B3').expect(429);
  });
});
