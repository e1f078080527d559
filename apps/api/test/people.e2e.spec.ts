import request from 'supertest';
import { PeopleService } from '../src/people/people.service';
import { describeOnPostgres } from './support/postgres-only';
import { appOnTier } from './support/app-on-tier';
import { describeOnEachTier } from './support/test-app';

const PASSWORD = 'kente-cloth-at-dawn-42';

describeOnEachTier('people sign in to the dashboard (invitations, sessions, CSRF)', (tier) => {
  const {
    running,
    fixture: f,
    http,
  } = appOnTier(tier, {
    fixture: true,
    config: (config) => ({ ...config, people: { ...config.people, signInPerAccount: 4 } }),
  });

  /** Asks for a reset link, and waits for what is done after the answer (looking the account up, sending it). */
  async function askReset(email: string): Promise<void> {
    await http().post('/auth/password-reset').send({ email }).expect(202);
    await running.app.get(PeopleService).settled();
  }

  /** The last text message sent to a phone (the local outbox), and the link's token in it. */
  async function lastLink(phone: string): Promise<{ text: string; token: string }> {
    const message = await running.database.prisma.outboxMessage.findFirst({
      where: { to: phone },
      orderBy: { id: 'desc' },
    });
    const token = /#\/set-password\?token=([A-Za-z0-9_-]{43})/.exec(message?.text ?? '')?.[1];
    if (!message || !token) throw new Error(`no password link sent to ${phone}`);
    return { text: message.text, token };
  }

  async function invite(userId: string): Promise<string> {
    await http().post('/auth/invitations').set('Authorization', f.keys.admin).send({ user: userId }).expect(202);
    return (await lastLink('+233244000111')).token;
  }

  async function signIn(email: string, password: string) {
    const res = await http().post('/auth/sign-in').send({ email, password });
    const cookie = ((res.headers['set-cookie'] as unknown as string[] | undefined) ?? [])[0]?.split(';')[0];
    return { res, cookie, csrf: (res.body as { csrfToken?: string }).csrfToken };
  }

  it('invites a user, who sets a password once, signs in, works with the CSRF token and signs out', async () => {
    const token = await invite(f.ids.assemblyUser);
    const { text } = await lastLink('+233244000111');
    expect(text).toContain('Accra Metropolitan Assembly: you are invited');
    expect(text).toContain('http://127.0.0.1:3000/dashboard/#/set-password?token=');

    // A weak password is refused and the link stays usable; a good one is set once.
    const weak = await http().post('/auth/password').send({ token, password: 'short' }).expect(422);
    expect(weak.body).toMatchObject({
      code: 'WEAK_PASSWORD',
      detail: 'The password must be at least 12 characters long',
    });
    await http().post('/auth/password').send({ token, password: 'abena-abena-abena' }).expect(422);
    await http().post('/auth/password').send({ token, password: PASSWORD }).expect(204);
    const reused = await http().post('/auth/password').send({ token, password: PASSWORD }).expect(410);
    expect(reused.body.code).toBe('LINK_EXPIRED');

    // Sending the link and setting the password are in the user's history, without the token or the hash.
    const history = await running.database.prisma.auditEntry.findMany({
      where: { entity: 'assemblyUser', entityId: f.ids.assemblyUser },
      orderBy: { id: 'asc' },
    });
    expect(history.map((e) => [e.action, e.actorRole])).toEqual([
      ['InvitationSent', 'admin'],
      ['PasswordSet', 'assembly'],
    ]);
    const recorded = JSON.stringify(history.map((e) => [e.before, e.after]));
    expect(recorded).not.toContain(token);
    expect(recorded).not.toContain('scrypt$');
    const stored = await running.database.prisma.personCredential.findUnique({ where: { userId: f.ids.assemblyUser } });
    expect(stored?.passwordHash).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(stored?.passwordHash).not.toContain(PASSWORD);

    // A wrong password and an unknown email get the same answer.
    const wrong = await signIn('abena@ama.gov.gh', 'not-the-password-at-all');
    const unknown = await signIn('nobody@ama.gov.gh', PASSWORD);
    expect(wrong.res.status).toBe(401);
    expect(unknown.res.status).toBe(401);
    expect(wrong.res.body.detail).toEqual(unknown.res.body.detail);
    expect(wrong.res.body.code).toBe('INVALID_CREDENTIALS');
    expect(wrong.cookie).toBeUndefined();

    const { res, cookie, csrf } = await signIn('ABENA@ama.gov.gh', PASSWORD);
    expect(res.status).toBe(200);
    const setCookie = (res.headers['set-cookie'] as unknown as string[])[0];
    expect(setCookie).toMatch(/^__Host-tp_session=[A-Za-z0-9_-]{43};/);
    expect(setCookie).toContain('Path=/;');
    expect(setCookie).not.toContain('Domain');
    expect(setCookie).toContain('HttpOnly');
    expect(setCookie).toContain('Secure');
    expect(setCookie).toContain('SameSite=Strict');
    expect(res.body.person).toMatchObject({ _id: f.ids.assemblyUser, role: 'approver', assembly: f.ids.assembly });
    expect(res.body.person.assemblyName).toBe('Accra Metropolitan Assembly');
    // Only the token's hash is kept.
    const sessionToken = cookie!.split('=')[1];
    const sessions = await running.database.prisma.personSession.findMany({ where: { userId: f.ids.assemblyUser } });
    expect(sessions).toHaveLength(1);
    expect(sessions[0].id).toMatch(/^[0-9a-f]{64}$/);
    expect(sessions[0].id).not.toBe(sessionToken);

    const session = await http().get('/auth/session').set('Cookie', cookie!).expect(200);
    expect(session.body.csrfToken).toBe(csrf);

    // The session acts as the user's assembly key would: every field of its assembly's vehicles.
    const vehicle = await http().get(`/vehicles/${f.ids.freshVehicle}`).set('Cookie', cookie!).expect(200);
    expect(vehicle.body.ownerID).toBeDefined();

    // A change without the CSRF token (what a forged cross-site request would be) is refused and changes nothing.
    const renew = { roadWorthyExpiryDate: '2031-06-30' };
    const forged = await http().post(`/vehicles/${f.ids.freshVehicle}/renew`).set('Cookie', cookie!).send(renew);
    expect(forged.status).toBe(403);
    expect(forged.body.code).toBe('CSRF_REJECTED');
    await http()
      .post(`/vehicles/${f.ids.freshVehicle}/renew`)
      .set('Cookie', cookie!)
      .set('X-CSRF-Token', 'x'.repeat(43))
      .send(renew)
      .expect(403);
    const renewed = await http()
      .post(`/vehicles/${f.ids.freshVehicle}/renew`)
      .set('Cookie', cookie!)
      .set('X-CSRF-Token', csrf!)
      .send(renew)
      .expect(200);
    expect(renewed.body.roadWorthyExpiryDate).toBe('2031-06-30T00:00:00.000Z');
    const audit = await running.database.prisma.auditEntry.findFirst({
      where: { entityId: f.ids.freshVehicle },
      orderBy: { id: 'desc' },
    });
    expect(audit).toMatchObject({ actorRole: 'assembly', actorId: f.ids.assemblyUser });

    await http().post('/auth/sign-out').set('Cookie', cookie!).expect(403);
    const out = await http().post('/auth/sign-out').set('Cookie', cookie!).set('X-CSRF-Token', csrf!).expect(204);
    expect((out.headers['set-cookie'] as unknown as string[])[0]).toMatch(/^__Host-tp_session=;/);
    const after = await http().get('/auth/session').set('Cookie', cookie!).expect(401);
    expect(after.body.detail).toBe('Your session has ended; sign in again');
    expect(await running.database.prisma.personSession.count({ where: { userId: f.ids.assemblyUser } })).toBe(0);
  });

  it('ends a session left idle, and one past its end, whatever the activity', async () => {
    const { cookie } = await signIn('abena@ama.gov.gh', PASSWORD);
    await http().get('/auth/session').set('Cookie', cookie!).expect(200);
    const id = (await running.database.prisma.personSession.findFirstOrThrow({ orderBy: { createdAt: 'desc' } })).id;
    await running.database.prisma.personSession.update({
      where: { id },
      data: { lastSeenAt: new Date(Date.now() - 31 * 60_000) },
    });
    await http().get('/auth/session').set('Cookie', cookie!).expect(401);

    const second = await signIn('abena@ama.gov.gh', PASSWORD);
    const secondId = (await running.database.prisma.personSession.findFirstOrThrow({ orderBy: { createdAt: 'desc' } }))
      .id;
    await running.database.prisma.personSession.update({
      where: { id: secondId },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    await http().get('/vehicles/all').set('Cookie', second.cookie!).expect(401);
    // An unknown session token is refused too, even on a route open to anonymous callers.
    await http()
      .get('/vehicles/all')
      .set('Cookie', `__Host-tp_session=${'A'.repeat(43)}`)
      .expect(401);
    await http().get('/vehicles/all').expect(200);
  });

  it('resets a forgotten password by a link to the phone, ending open sessions; says nothing about unknown emails', async () => {
    const before = await running.database.prisma.outboxMessage.count();
    await askReset('nobody@example.com');
    expect(await running.database.prisma.outboxMessage.count()).toBe(before);

    const open = await signIn('abena@ama.gov.gh', PASSWORD);
    expect(open.res.status).toBe(200);
    await askReset('Abena@ama.gov.gh');
    const { text, token } = await lastLink('+233244000111');
    expect(text).toContain('set a new password within 60 minutes');
    await http().post('/auth/password').send({ token, password: 'a-new-password-for-her' }).expect(204);
    await http().get('/auth/session').set('Cookie', open.cookie!).expect(401);
    expect((await signIn('abena@ama.gov.gh', PASSWORD)).res.status).toBe(401);
    expect((await signIn('abena@ama.gov.gh', 'a-new-password-for-her')).res.status).toBe(200);

    // An expired link sets nothing.
    await askReset('abena@ama.gov.gh');
    const late = await lastLink('+233244000111');
    await running.database.prisma.personToken.updateMany({
      where: { usedAt: null },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    await http().post('/auth/password').send({ token: late.token, password: PASSWORD }).expect(410);
    await http().post('/auth/password').send({ token: 'not a token', password: PASSWORD }).expect(400);
  });

  it('lets an assembly admin invite only their own users, and keeps sessions for people', async () => {
    const created = await http()
      .post('/assembly/users/add')
      .set('Authorization', f.keys.admin)
      .send({
        assembly: f.ids.assembly,
        name: 'Efua Admin',
        email: 'efua@ama.gov.gh',
        phone: '0244000999',
        role: 'admin',
      })
      .expect(201);
    await http()
      .post('/auth/invitations')
      .set('Authorization', f.keys.admin)
      .send({ user: created.body._id })
      .expect(202);
    await http()
      .post('/auth/password')
      .send({ token: (await lastLink('+233244000999')).token, password: 'she-sets-the-users-up' })
      .expect(204);
    const efua = await signIn('efua@ama.gov.gh', 'she-sets-the-users-up');
    const asEfua = (path: string, body: object) =>
      http().post(path).set('Cookie', efua.cookie!).set('X-CSRF-Token', efua.csrf!).send(body);
    await asEfua('/auth/invitations', { user: f.ids.assemblyUser }).expect(202);
    // Another assembly's user is not found; an approver may not invite (the duty of an assembly admin).
    await asEfua('/auth/invitations', { user: f.ids.otherAssemblyUser }).expect(404);
    const approver = await http()
      .post('/auth/invitations')
      .set('Authorization', f.keys.assembly)
      .send({ user: f.ids.assemblyUser })
      .expect(403);
    expect(approver.body.code).toBe('DUTY_NOT_ALLOWED');
    // The session route is for sessions: a key is refused.
    await http().get('/auth/session').set('Authorization', f.keys.assembly).expect(403);
  });

  it("lets assembly staff read their own assembly's records' history, and nothing else of the audit log", async () => {
    await http()
      .post(`/vehicles/${f.ids.linkedVehicle}/renew`)
      .set('Authorization', f.keys.assembly)
      .send({ insuranceExpiryDate: '2031-01-31' })
      .expect(200);
    const own = await http()
      .get(`/audit?entity=vehicle&id=${f.ids.linkedVehicle}`)
      .set('Authorization', f.keys.assembly)
      .expect(200);
    expect(own.body.map((e: { action: string }) => e.action)).toContain('VehicleInsuranceRenewed');
    expect(own.body[0]).toHaveProperty('after');
    await http()
      .get(`/audit?entity=vehicle&id=${f.ids.linkedVehicle}`)
      .set('Authorization', f.keys.otherAssembly)
      .expect(404);
    await http()
      .get(`/audit?entity=apiKey&id=${f.ids.linkedVehicle}`)
      .set('Authorization', f.keys.assembly)
      .expect(403);
    await http().get('/audit/entries').set('Authorization', f.keys.assembly).expect(403);
  });
  it('limits failed sign-ins per account and address, refusing even the right password past the limit', async () => {
    const fail = async (n: number) => {
      for (let i = 0; i < n; i++) expect((await signIn('abena@ama.gov.gh', `guess-number-${i}`)).res.status).toBe(401);
    };
    // A success clears the count of failures before it.
    await fail(3);
    expect((await signIn('abena@ama.gov.gh', 'a-new-password-for-her')).res.status).toBe(200);
    await fail(4);
    const refused = await signIn('abena@ama.gov.gh', 'a-new-password-for-her');
    expect(refused.res.status).toBe(429);
    expect(refused.res.body.code).toBe('RATE_LIMITED');
    expect(refused.res.headers['retry-after']).toMatch(/^\d+$/);
    expect(refused.cookie).toBeUndefined();
  });
});

describeOnPostgres('the per-address limit on password links', () => {
  const { running } = appOnTier('postgresql', {
    fixture: true,
    config: (config) => ({ ...config, people: { ...config.people, signInPerAddress: 3 } }),
  });

  it('counts asking for and using links from one address, so one address cannot text every account', async () => {
    const http = () => request(running.app.getHttpServer());
    await http().post('/auth/password-reset').send({ email: 'a@ama.gov.gh' }).expect(202);
    await http().post('/auth/password-reset').send({ email: 'b@ama.gov.gh' }).expect(202);
    await http()
      .post('/auth/password')
      .send({ token: 'A'.repeat(43), password: 'a-guess-at-a-link' })
      .expect(410);
    const refused = await http().post('/auth/password-reset').send({ email: 'c@ama.gov.gh' }).expect(429);
    expect(refused.body.code).toBe('RATE_LIMITED');
    await http().post('/auth/sign-in').send({ email: 'abena@ama.gov.gh', password: 'anything-at-all' }).expect(429);
  });
});
