import request from 'supertest';
import type { RunningApp } from '../src/app';
import { describeOnPostgres } from './support/postgres-only';
import { openTierStore, startTestApp, type TierStore } from './support/test-app';

// Activation as an attacker would try it: many wrong keys from many addresses, behind a proxy, on two instances.
describeOnPostgres('driver activation the driver owns', () => {
  let store: TierStore;
  let a: RunningApp;
  let b: RunningApp;
  let n = 0;

  beforeAll(async () => {
    store = await openTierStore('postgresql');
    const base = store.config();
    const config = {
      ...base,
      // One proxy in front: the client is the address X-Forwarded-For names.
      trustProxy: 1,
      activation: { ...base.activation, keyHours: 24, maxDelaySeconds: 1, perDriver: 100, perAddress: 3 },
    };
    a = await startTestApp(config);
    b = await startTestApp(config);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await store?.dispose();
  });

  const register = async () => {
    n += 1;
    const payload = (
      await request(a.app.getHttpServer())
        .post('/drivers/add')
        .send({
          name: `Driver ${n}`,
          phone: `02400000${String(n).padStart(2, '0')}`,
          email: `driver${n}@example.com`,
          license: `DL-A-${n}`,
          licenseClass: 'B',
          licenseExpiry: '2030-01-10',
          licenseIssueDate: '2021-01-10',
          idType: 'ghana_card',
          idNumber: `GHA-A-${n}`,
          gender: 'female',
        })
        .set('X-Forwarded-For', '192.0.2.200')
        .expect(201)
    ).body.payload as { _id: string; phone: string };
    // The key goes to the driver's phone only (the outbox stands in for the SMS gateway here).
    const sms = await a.database.prisma.outboxMessage.findFirst({
      where: { to: payload.phone },
      orderBy: { id: 'desc' },
    });
    return { ...payload, activationKey: /(\d{6})/.exec(sms?.text ?? '')?.[1] ?? '' };
  };
  const activate = (app: RunningApp, id: string, key: string, from: string) =>
    request(app.app.getHttpServer())
      .post(`/drivers/${id}/activate`)
      .set('X-Forwarded-For', from)
      .send({ activationKey: key });

  it("50 wrong keys from 50 addresses never delay the right key from the driver's own address", async () => {
    const driver = await register();
    const wrong = driver.activationKey === '000000' ? '111111' : '000000';
    const statuses: number[] = [];
    for (let i = 0; i < 50; i++) {
      const res = await activate(i % 2 ? a : b, driver._id, wrong, `198.51.100.${i + 1}`);
      statuses.push(res.status);
    }
    // Each address's wrong key delays that address only: none of them is held up by the others'.
    expect(new Set(statuses)).toEqual(new Set([422]));
    // The driver's phone, elsewhere, is taken at once.
    expect((await activate(b, driver._id, driver.activationKey, '203.0.113.9')).body).toMatchObject({ verified: true });
  });

  it("keys limits on the real client address behind a proxy: one client's limit does not block another", async () => {
    const drivers = [await register(), await register(), await register(), await register(), await register()];
    const wrong = (d: { activationKey: string }) => (d.activationKey === '000000' ? '111111' : '000000');
    // Client A: three tries (over both instances, counted together in PostgreSQL), then refused.
    for (const [i, d] of drivers.slice(0, 3).entries())
      await activate(i % 2 ? a : b, d._id, wrong(d), '198.51.100.77').expect(422);
    const limited = await activate(a, drivers[3]._id, wrong(drivers[3]), '198.51.100.77').expect(429);
    expect(limited.body.detail).toMatch(/from this address/);
    // Client B, through the same proxy (the same socket address), is not blocked by A's limit.
    expect(
      (await activate(b, drivers[4]._id, drivers[4].activationKey, '198.51.100.78').expect(200)).body,
    ).toMatchObject({ verified: true });
  });

  it('refuses a key past its lifetime (DRIVER_ACTIVATION_KEY_EXPIRED), writing nothing', async () => {
    const driver = await register();
    await a.database.prisma.driver.update({
      where: { id: driver._id },
      data: { activationKeyExpiresAt: new Date(Date.now() - 1000) },
    });
    const res = await activate(a, driver._id, driver.activationKey, '203.0.113.10').expect(422);
    expect(res.body.code).toBe('DRIVER_ACTIVATION_KEY_EXPIRED');
    const row = await a.database.prisma.driver.findUniqueOrThrow({ where: { id: driver._id } });
    expect({ verified: row.verified, attempts: row.activationAttempts }).toEqual({ verified: false, attempts: 0 });
  });
});
