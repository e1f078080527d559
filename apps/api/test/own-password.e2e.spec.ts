import request from 'supertest';
import { createApp, type RunningApp } from '../src/app';
import { createRootLogger } from '../src/core/observability/logging';
import { PeopleService } from '../src/people/people.service';
import { loadApiFixture, type ApiFixture } from './support/api-fixtures';
import { describeOnEachTier, openTierStore, type TierStore } from './support/test-app';

const PASSWORD = 'the-harmattan-is-dry-42';
const NEW_PASSWORD = 'rain-on-the-tin-roof-at-kumasi';
const WRONG = 'not-her-password-at-all';
const PER_ACCOUNT = 3;
const CHANGE = '/auth/password/change';

/** Every line the service logged (the captured logger), to be searched for what must never be written. */
class CapturedLog {
  readonly raw: string[] = [];
  write(line: string): void {
    this.raw.push(line);
  }
}

/**
 * One log for both tiers' apps: nestjs-pino keeps the first app's logger as its root for good, so the second app's
 * events may be written there.
 */
const log = new CapturedLog();

// A person's own password change (POST /auth/password/change): with their current password, from a session with its
// CSRF token. Behind one balancer (TRUST_PROXY=1): each test plays its own client address, so the sign-in limits
// it counts are its own.
describeOnEachTier("a person's own password change", (tier) => {
  let store: TierStore;
  let running: RunningApp;
  let f: ApiFixture;
  const http = () => request(running.app.getHttpServer());

  beforeAll(async () => {
    store = await openTierStore(tier);
    const config = store.config({ logLevel: 'info', trustProxy: 1 });
    running = await createApp(
      { ...config, people: { ...config.people, signInPerAccount: PER_ACCOUNT } },
      { logger: createRootLogger('info', log) },
    );
    f = await loadApiFixture(running.database);
  });
  afterAll(async () => {
    await running?.close();
    await store?.dispose();
  });

  /** Gives the fixture's approver (Abena) `password` through an invitation link, as an admin would. */
  async function setPassword(password: string): Promise<void> {
    await http()
      .post('/auth/invitations')
      .set('Authorization', f.keys.admin)
      .send({ user: f.ids.assemblyUser })
      .expect(202);
    await http()
      .post('/auth/password')
      .send({ token: await lastLinkToken(), password })
      .expect(204);
  }

  async function lastLinkToken(): Promise<string> {
    const message = await running.database.prisma.outboxMessage.findFirst({
      where: { to: '+233244000111' },
      orderBy: { id: 'desc' },
    });
    const token = /token=([A-Za-z0-9_-]{43})/.exec(message?.text ?? '')?.[1];
    if (!token) throw new Error('no password link sent to Abena');
    return token;
  }

  async function signIn(address: string, password = PASSWORD) {
    const res = await http()
      .post('/auth/sign-in')
      .set('X-Forwarded-For', address)
      .send({ email: 'abena@ama.gov.gh', password });
    const cookie = ((res.headers['set-cookie'] as unknown as string[] | undefined) ?? [])[0]?.split(';')[0];
    return { res, cookie: cookie ?? '', csrf: (res.body as { csrfToken?: string }).csrfToken ?? '' };
  }

  const change = (
    session: { cookie: string; csrf: string },
    address: string,
    body: object = { currentPassword: PASSWORD, newPassword: NEW_PASSWORD },
  ) =>
    http()
      .post(CHANGE)
      .set('X-Forwarded-For', address)
      .set('Cookie', session.cookie)
      .set('X-CSRF-Token', session.csrf)
      .send(body);

  const alive = async (cookie: string) => (await http().get('/auth/session').set('Cookie', cookie)).status;

  beforeEach(() => setPassword(PASSWORD));

  it('changes the password with the current one: this session is renewed, every other one ends, audited', async () => {
    const here = await signIn('203.0.113.1');
    const elsewhere = await signIn('203.0.113.2');
    await http().post('/auth/password-reset').send({ email: 'abena@ama.gov.gh' }).expect(202);
    await running.app.get(PeopleService).settled();
    const openLink = await lastLinkToken();
    const before = await http().get('/auth/session').set('Cookie', here.cookie).expect(200);

    const res = await change(here, '203.0.113.1').expect(200);
    expect(res.headers['cache-control']).toBe('no-store');
    // The answer is the renewed session: a new cookie and CSRF token, the same person, the same absolute end.
    const setCookie = (res.headers['set-cookie'] as unknown as string[])[0];
    expect(setCookie).toMatch(/^__Host-tp_session=[A-Za-z0-9_-]{43};/);
    expect(setCookie).toContain('HttpOnly');
    expect(setCookie).toContain('SameSite=Strict');
    const renewed = { cookie: setCookie.split(';')[0], csrf: res.body.csrfToken as string };
    expect(renewed.cookie).not.toBe(here.cookie);
    expect(renewed.csrf).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(renewed.csrf).not.toBe(here.csrf);
    expect(res.body.person).toMatchObject({ _id: f.ids.assemblyUser, email: 'abena@ama.gov.gh', role: 'approver' });
    expect(res.body.endsAt).toBe(before.body.endsAt);

    // Every session of hers opened before the change has ended, this page's old cookie too; the renewed one works.
    expect(await alive(here.cookie)).toBe(401);
    expect(await alive(elsewhere.cookie)).toBe(401);
    const now = await http().get('/auth/session').set('Cookie', renewed.cookie).expect(200);
    expect(now.body.csrfToken).toBe(renewed.csrf);
    expect(await running.database.prisma.personSession.count({ where: { userId: f.ids.assemblyUser } })).toBe(1);
    // The renewed session works for changes with its new CSRF token only.
    await http().post('/auth/sign-out').set('Cookie', renewed.cookie).set('X-CSRF-Token', here.csrf).expect(403);

    // The old password no longer signs in; the new one does. A reset link sent before the change is void.
    expect((await signIn('203.0.113.3')).res.status).toBe(401);
    expect((await signIn('203.0.113.3', NEW_PASSWORD)).res.status).toBe(200);
    await http().post('/auth/password').send({ token: openLink, password: 'someone-else-sets-this' }).expect(410);

    // Audited as her own act, with neither password, nor the hash, nor a session token.
    const entry = await running.database.prisma.auditEntry.findFirst({
      where: { entity: 'assemblyUser', entityId: f.ids.assemblyUser, action: 'PasswordChanged' },
      orderBy: { id: 'desc' },
    });
    expect(entry).toMatchObject({ actorRole: 'assembly', actorId: f.ids.assemblyUser });
    expect(entry?.after).toEqual({ otherSessionsEnded: 1 });
    const recorded = JSON.stringify(entry, (_key, value: unknown) =>
      typeof value === 'bigint' ? String(value) : value,
    );
    for (const secret of [PASSWORD, NEW_PASSWORD, 'scrypt$', renewed.cookie.split('=')[1], renewed.csrf])
      expect(recorded).not.toContain(secret);
  });

  it('refuses a wrong current password (403), changing nothing, and counts it as a failed sign-in', async () => {
    const address = '198.51.100.20';
    const session = await signIn(address);
    const other = await signIn('198.51.100.21');
    const wrong = await change(session, address, { currentPassword: WRONG, newPassword: NEW_PASSWORD }).expect(403);
    expect(wrong.headers['content-type']).toContain('application/problem+json');
    expect(wrong.body).toMatchObject({
      code: 'CURRENT_PASSWORD_WRONG',
      detail: 'Your current password is not right',
    });
    // Nothing changed: both sessions live, the old password still signs in, the new one does not.
    expect(await alive(session.cookie)).toBe(200);
    expect(await alive(other.cookie)).toBe(200);
    expect((await signIn('198.51.100.22', NEW_PASSWORD)).res.status).toBe(401);
    expect((await signIn('198.51.100.22')).res.status).toBe(200);

    // The failures of both routes share one count per account and address: one wrong change, two wrong sign-ins,
    // and that address is done, for both, even with the right password.
    expect((await signIn(address, WRONG)).res.status).toBe(401);
    expect((await signIn(address, WRONG)).res.status).toBe(401);
    const limited = await change(session, address);
    expect(limited.status).toBe(429);
    expect(limited.body.detail).toMatch(/^Too many failed sign-ins for this account from this address/);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect((await signIn(address)).res.status).toBe(429);
    expect((await signIn('198.51.100.23')).res.status).toBe(200);
  });

  it('cannot be used to guess: a burst of wrong current passwords gets no more tries than the limit', async () => {
    const address = '198.51.100.30';
    const session = await signIn('198.51.100.31');
    const attempts = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        change(session, address, { currentPassword: `${WRONG}-${i}`, newPassword: NEW_PASSWORD }),
      ),
    );
    const statuses = attempts.map((res) => res.status).sort();
    expect(statuses).toEqual([...Array(PER_ACCOUNT).fill(403), ...Array(8 - PER_ACCOUNT).fill(429)]);
  });

  it('refuses a new password the policy refuses (422 WEAK_PASSWORD), and the current one again', async () => {
    const address = '198.51.100.40';
    const session = await signIn(address);
    for (const [newPassword, detail] of [
      ['short', 'The password must be at least 12 characters long'],
      ['abena-abena-abena', 'The password must not contain your email address'],
      ['aaaaaaaaaaaaaaaa', 'The password must not repeat one character'],
      [PASSWORD, 'The new password must not be the current one'],
    ]) {
      const res = await change(session, address, { currentPassword: PASSWORD, newPassword }).expect(422);
      expect(res.body).toMatchObject({ code: 'WEAK_PASSWORD', detail });
    }
    expect(await alive(session.cookie)).toBe(200);
    expect((await signIn('198.51.100.41')).res.status).toBe(200);
  });

  it('is for people signed in: no CSRF token 403, anonymous 401, an ended session 401, an API key 403', async () => {
    const session = await signIn('198.51.100.50');
    const body = { currentPassword: PASSWORD, newPassword: NEW_PASSWORD };
    const forged = await http().post(CHANGE).set('Cookie', session.cookie).send(body).expect(403);
    expect(forged.body.code).toBe('CSRF_REJECTED');
    await http().post(CHANGE).set('Cookie', session.cookie).set('X-CSRF-Token', 'x'.repeat(43)).send(body).expect(403);
    expect((await http().post(CHANGE).send(body).expect(401)).body.code).toBe('UNAUTHORIZED');
    await http()
      .post(CHANGE)
      .set('Cookie', `__Host-tp_session=${'A'.repeat(43)}`)
      .send(body)
      .expect(401);
    // Keys are for machines, not people: an assembly user's own key may not change their password, nor an admin's.
    const key = await http().post(CHANGE).set('Authorization', f.keys.assembly).send(body).expect(403);
    expect(key.body).toMatchObject({
      code: 'FORBIDDEN',
      detail: 'This operation is for people signed in to the dashboard, not API keys',
    });
    await http().post(CHANGE).set('Authorization', f.keys.admin).send(body).expect(403);
    // Nothing changed.
    expect(await alive(session.cookie)).toBe(200);
    expect((await signIn('198.51.100.51')).res.status).toBe(200);
  });

  it('refuses a malformed body with 400, before any password is checked or counted', async () => {
    const address = '198.51.100.60';
    const session = await signIn(address);
    for (const body of [
      {},
      { currentPassword: PASSWORD },
      { newPassword: NEW_PASSWORD },
      { currentPassword: '', newPassword: NEW_PASSWORD },
      { currentPassword: 42, newPassword: NEW_PASSWORD },
      { currentPassword: PASSWORD, newPassword: ['a', 'b'] },
      { currentPassword: PASSWORD, newPassword: 'x'.repeat(201) },
      { currentPassword: 'x'.repeat(201), newPassword: NEW_PASSWORD },
      { currentPassword: PASSWORD, newPassword: NEW_PASSWORD, email: 'someone.else@ama.gov.gh' },
    ]) {
      const res = await change(session, address, body);
      expect([JSON.stringify(body).slice(0, 60), res.status, res.body.code]).toEqual([
        JSON.stringify(body).slice(0, 60),
        400,
        'VALIDATION_FAILED',
      ]);
    }
    await http()
      .post(CHANGE)
      .set('Cookie', session.cookie)
      .set('X-CSRF-Token', session.csrf)
      .set('Content-Type', 'application/json')
      .send('{"currentPassword":')
      .expect(400);
    // None of them counted: the limit of three failures is untouched.
    for (let i = 0; i < PER_ACCOUNT - 1; i++) expect((await signIn(address, WRONG)).res.status).toBe(401);
    expect((await signIn(address)).res.status).toBe(200);
  });

  it('never writes a password to the logs', () => {
    expect(log.raw.some((line) => line.includes('"event":"password_changed"'))).toBe(true);
    expect(log.raw.some((line) => line.includes('"event":"password_change_refused"'))).toBe(true);
    for (const secret of [PASSWORD, NEW_PASSWORD, WRONG])
      expect([secret, log.raw.filter((line) => line.includes(secret))]).toEqual([secret, []]);
  });
});
