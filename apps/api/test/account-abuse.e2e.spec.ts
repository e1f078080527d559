import type { RunningApp } from '../src/app';
import { PeopleService } from '../src/people/people.service';
import type { ApiFixture } from './support/api-fixtures';
import { appOnTier } from './support/app-on-tier';
import { describeOnEachTier } from './support/test-app';

const PASSWORD = 'the-lagoon-at-keta-17';
/** Abena, the fixture's approver: her email and phone. */
const ABENA = 'abena@ama.gov.gh';
const ABENA_PHONE = '+233244000111';

/** Gives Abena a password through an invitation link. */
async function givePassword(running: RunningApp, f: ApiFixture, http: AppHttp): Promise<void> {
  await http()
    .post('/auth/invitations')
    .set('Authorization', f.keys.admin)
    .send({ user: f.ids.assemblyUser })
    .expect(202);
  const message = await running.database.prisma.outboxMessage.findFirst({
    where: { to: ABENA_PHONE },
    orderBy: { id: 'desc' },
  });
  const token = /token=([A-Za-z0-9_-]{43})/.exec(message?.text ?? '')?.[1];
  await http()
    .post('/auth/password')
    .set('X-Forwarded-For', '192.0.2.250')
    .send({ token, password: PASSWORD })
    .expect(204);
}
type AppHttp = ReturnType<typeof appOnTier>['http'];

/**
 * Issue 42: accounts strangers can abuse. Password-reset requests counted per email only let five anonymous requests
 * an hour block a staff member's own reset.
 */
describeOnEachTier('account abuse: password resets', (tier) => {
  const { running, fixture: f, http } = appOnTier(tier, { fixture: true, config: (c) => ({ ...c, trustProxy: 1 }) });

  beforeAll(() => givePassword(running, f, http));

  const texts = () => running.database.prisma.outboxMessage.count({ where: { to: ABENA_PHONE } });
  const askReset = async (from: string, cookie?: string) => {
    const req = http().post('/auth/password-reset').set('X-Forwarded-For', from);
    if (cookie) req.set('Cookie', cookie);
    const res = await req.send({ email: ABENA });
    await running.app.get(PeopleService).settled();
    return res;
  };

  it("never refuses the staff member's own reset because strangers used up the account's budget", async () => {
    // Abena has signed in from her office before, and holds a session on her phone (another address).
    await http()
      .post('/auth/sign-in')
      .set('X-Forwarded-For', '203.0.113.40')
      .send({ email: ABENA, password: PASSWORD })
      .expect(200);
    const phone = await http()
      .post('/auth/sign-in')
      .set('X-Forwarded-For', '203.0.113.41')
      .send({ email: ABENA, password: PASSWORD })
      .expect(200);
    const cookie = ((phone.headers['set-cookie'] as unknown as string[])[0] ?? '').split(';')[0];

    // Strangers, each from an address of their own, ask for her reset until the account's budget is used up.
    const before = await texts();
    for (let i = 1; i <= 5; i++) expect((await askReset(`198.51.100.${i}`)).status).toBe(202);
    expect((await askReset('198.51.100.6')).status).toBe(429);
    expect(await texts()).toBe(before + 5);

    // She asks from the address she signed in from: her link is sent.
    expect((await askReset('203.0.113.40')).status).toBe(202);
    expect(await texts()).toBe(before + 6);
    // And from a new address (her phone moved network), proving it is her with her session.
    expect((await askReset('203.0.113.99', cookie)).status).toBe(202);
    expect(await texts()).toBe(before + 7);
    // A stranger's stale or made-up cookie proves nothing.
    expect((await askReset('198.51.100.7', '__Host-tp_session=' + 'x'.repeat(43))).status).toBe(429);
    expect(await texts()).toBe(before + 7);
  });
});

describeOnEachTier('account abuse: wrong passwords for one account from many addresses', (tier) => {
  const ACROSS_ADDRESSES = 6;
  const {
    running,
    fixture: f,
    http,
  } = appOnTier(tier, {
    fixture: true,
    config: (c) => ({ ...c, trustProxy: 1, people: { ...c.people, signInPerAccountAllAddresses: ACROSS_ADDRESSES } }),
  });

  beforeAll(() => givePassword(running, f, http));

  const signIn = (from: string, password: string) =>
    http().post('/auth/sign-in').set('X-Forwarded-For', from).send({ email: ABENA, password });

  it('stops guesses at one account spread over many addresses, except from addresses the account signed in from', async () => {
    // Abena signs in from her office: that address is known for her account from now on.
    await signIn('203.0.113.50', PASSWORD).expect(200);
    // A botnet guesses her password, one try from each address (each address's own counts never fill). Her first
    // sign-in from the office, then a new address, counted as one of the account's attempts.
    for (let i = 1; i < ACROSS_ADDRESSES; i++)
      expect((await signIn(`198.51.100.${i}`, `guess-number-${i}`)).status).toBe(401);
    const stopped = await signIn('198.51.100.200', 'guess-number-200').expect(429);
    expect(stopped.body.detail).toMatch(/^Too many sign-ins for this account from addresses it has not signed in from/);
    // Even the right password from a new address waits (the price, documented): she is not locked out where she
    // signed in before.
    await signIn('198.51.100.201', PASSWORD).expect(429);
    await signIn('203.0.113.50', PASSWORD).expect(200);
  });
});
