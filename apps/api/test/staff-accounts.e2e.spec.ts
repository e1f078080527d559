import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { driverRegistration } from './support/api-fixtures';
import { appOnTier } from './support/app-on-tier';
import { describeOnEachTier } from './support/test-app';

const PASSWORD = 'yaw-keeps-the-station-books';

describeOnEachTier('staff accounts: one account per person, and off-boarding', (tier) => {
  const { running, fixture: f, http } = appOnTier(tier, { fixture: true });
  /** The assembly admin of the fixture's assembly (made here), and her key. */
  let efua: { id: string; key: string };

  beforeAll(async () => {
    const user = await http()
      .post('/assembly/users/add')
      .set('Authorization', f.keys.admin)
      .send({
        assembly: f.ids.assembly,
        name: 'Efua Admin',
        email: 'efua@ama.gov.gh',
        phone: '0244000777',
        role: 'admin',
      })
      .expect(201);
    const key = await http()
      .post('/admin/keys')
      .set('Authorization', f.keys.admin)
      .send({ role: 'assembly', principal: user.body._id })
      .expect(201);
    efua = { id: user.body._id, key: key.body.key };
  });

  const addUser = (key: string, fields: { email: string; phone: string; role?: string; assembly?: string }) =>
    http()
      .post('/assembly/users/add')
      .set('Authorization', key)
      .send({ assembly: f.ids.assembly, name: 'Someone', role: 'inspector', ...fields });

  async function lastLinkToken(phone: string): Promise<string> {
    const message = await running.database.prisma.outboxMessage.findFirst({
      where: { to: phone },
      orderBy: { id: 'desc' },
    });
    const token = /#\/set-password\?token=([A-Za-z0-9_-]{43})/.exec(message?.text ?? '')?.[1];
    if (!token) throw new Error(`no password link sent to ${phone}`);
    return token;
  }

  async function signIn(email: string, password: string) {
    const res = await http().post('/auth/sign-in').send({ email, password });
    const cookie = ((res.headers['set-cookie'] as unknown as string[] | undefined) ?? [])[0]?.split(';')[0];
    return { res, cookie };
  }

  it('refuses a second account for a phone or email another assembly user holds, whoever asks (409)', async () => {
    // Abena (the fixture's approver) holds 0244000111: her admin cannot make an inspector of her as well.
    const phone = await addUser(efua.key, { email: 'abena.inspects@ama.gov.gh', phone: '+233 24 400 0111' }).expect(
      409,
    );
    expect(phone.headers['content-type']).toContain('application/problem+json');
    expect(phone.body).toMatchObject({
      code: 'ASSEMBLY_USER_PHONE_TAKEN',
      detail: 'Another assembly user has this phone number: a person has one account, with one role',
    });
    // Nor an approver of herself, nor anyone an account in another assembly already holds.
    expect(
      (await addUser(efua.key, { email: 'efua2@ama.gov.gh', phone: '0244000777', role: 'approver' })).body.code,
    ).toBe('ASSEMBLY_USER_PHONE_TAKEN');
    const otherPhone = await addUser(f.keys.admin, { email: 'kweku2@ama.gov.gh', phone: '0244000333' }).expect(409);
    expect(otherPhone.body.code).toBe('ASSEMBLY_USER_PHONE_TAKEN');
    const email = await addUser(f.keys.admin, { email: 'ABENA@ama.gov.gh', phone: '0244000666' }).expect(409);
    expect(email.body.code).toBe('ASSEMBLY_USER_EMAIL_TAKEN');
    expect(await running.database.prisma.assemblyUser.count({ where: { phone: '+233244000666' } })).toBe(0);
  });

  it('shows the national admin who created which staff account', async () => {
    const yaw = (await addUser(efua.key, { email: 'yaw@ama.gov.gh', phone: '0244000888' }).expect(201)).body;
    expect(yaw.disabledAt).toBeNull();
    const entries = await http()
      .get('/audit/entries?entity=assemblyUser&limit=500')
      .set('Authorization', f.keys.admin)
      .expect(200);
    const created = (entries.body as Array<{ entityId: string; action: string; actor: object; after: object }>).filter(
      (e) => e.action === 'assemblyUserCreated',
    );
    expect(created.find((e) => e.entityId === yaw._id)).toMatchObject({
      actor: { role: 'assembly', id: efua.id },
      after: { email: 'yaw@ama.gov.gh', role: 'inspector' },
    });
    expect(created.find((e) => e.entityId === efua.id)).toMatchObject({ actor: { role: 'admin' } });
    const byEfua = await http()
      .get(`/audit/entries?actor=${efua.id}&entity=assemblyUser`)
      .set('Authorization', f.keys.admin)
      .expect(200);
    expect(byEfua.body.map((e: { entityId: string }) => e.entityId)).toContain(yaw._id);
  });

  it('disables a user at once (sessions, keys, sign-in), audited, until they are enabled again', async () => {
    const yaw = (await addUser(f.keys.admin, { email: 'yaw.off@ama.gov.gh', phone: '0244000555' }).expect(201)).body;
    await http().post('/auth/invitations').set('Authorization', f.keys.admin).send({ user: yaw._id }).expect(202);
    await http()
      .post('/auth/password')
      .send({ token: await lastLinkToken('+233244000555'), password: PASSWORD })
      .expect(204);
    const session = await signIn('yaw.off@ama.gov.gh', PASSWORD);
    expect(session.res.status).toBe(200);
    const key = (
      await http()
        .post('/admin/keys')
        .set('Authorization', f.keys.admin)
        .send({ role: 'assembly', principal: yaw._id })
        .expect(201)
    ).body.key as string;
    await http().get('/assembly/users').set('Authorization', key).expect(200);
    await http().get('/auth/session').set('Cookie', session.cookie!).expect(200);
    // The two changes open to callers without a key still take a session, and refuse it without its CSRF token (the
    // fuzz tier found the 403 undeclared).
    const noToken = await http()
      .post('/drivers/add')
      .set('Cookie', session.cookie!)
      .send(driverRegistration({ email: 'csrf.probe@example.com', phone: '0207000999' }));
    expect([noToken.status, noToken.body.code]).toEqual([403, 'CSRF_REJECTED']);
    const noTokenActivate = await http()
      .post('/drivers/65a000000000000000000000/activate')
      .set('Cookie', session.cookie!)
      .send({ activationKey: '123456' });
    expect([noTokenActivate.status, noTokenActivate.body.code]).toEqual([403, 'CSRF_REJECTED']);
    // A reset link asked for before the off-boarding must not outlive it.
    await http().post('/auth/password-reset').send({ email: 'yaw.off@ama.gov.gh' }).expect(202);
    const pendingLink = await lastLinkToken('+233244000555');

    // Only an assembly admin of the same assembly (or a national admin) may; nobody disables themselves.
    const approver = await http().post(`/assembly/users/${yaw._id}/disable`).set('Authorization', f.keys.assembly);
    expect(approver.status).toBe(403);
    expect(approver.body.code).toBe('DUTY_NOT_ALLOWED');
    await http().post(`/assembly/users/${f.ids.otherAssemblyUser}/disable`).set('Authorization', efua.key).expect(404);
    const self = await http().post(`/assembly/users/${efua.id}/disable`).set('Authorization', efua.key).expect(422);
    expect(self.body.code).toBe('CANNOT_DISABLE_SELF');

    const disabled = await http().post(`/assembly/users/${yaw._id}/disable`).set('Authorization', efua.key).expect(200);
    expect(disabled.body.disabledAt).toEqual(expect.any(String));
    // At once: the session, the key and the password are all refused.
    await http().get('/auth/session').set('Cookie', session.cookie!).expect(401);
    await http()
      .post('/drivers/65a000000000000000000000/activate')
      .set('Cookie', session.cookie!)
      .send({ activationKey: '123456' })
      .expect(401);
    await http().get('/assembly/users').set('Authorization', key).expect(401);
    expect(await running.database.prisma.personSession.count({ where: { userId: yaw._id } })).toBe(0);
    const refused = await signIn('yaw.off@ama.gov.gh', PASSWORD);
    expect(refused.res.status).toBe(403);
    expect(refused.res.body.code).toBe('ACCOUNT_DISABLED');
    expect(refused.cookie).toBeUndefined();
    // A wrong password says nothing about the account.
    expect((await signIn('yaw.off@ama.gov.gh', 'not-his-password-at-all')).res.body.code).toBe('INVALID_CREDENTIALS');
    await http().post('/auth/password').send({ token: pendingLink, password: 'a-password-after-leaving' }).expect(410);
    const invite = await http().post('/auth/invitations').set('Authorization', f.keys.admin).send({ user: yaw._id });
    expect(invite.status).toBe(409);
    expect(invite.body.code).toBe('ASSEMBLY_USER_DISABLED');
    // ...an answer the contract declares (the fuzz tier found it undeclared).
    const contract = JSON.parse(readFileSync(join(__dirname, '..', 'openapi.json'), 'utf8'));
    expect(Object.keys(contract.paths['/auth/invitations'].post.responses)).toContain('409');
    for (const path of ['/drivers/add', '/drivers/{id}/activate'])
      expect(Object.keys(contract.paths[path].post.responses)).toEqual(expect.arrayContaining(['401', '403']));
    // Disabling twice changes nothing; the list shows who is disabled.
    await http().post(`/assembly/users/${yaw._id}/disable`).set('Authorization', f.keys.admin).expect(200);
    const listed = await http().get(`/assembly/users/${yaw._id}`).set('Authorization', f.keys.admin).expect(200);
    expect(listed.body.disabledAt).toBe(disabled.body.disabledAt);

    // Re-enabling is its own, explicit act: sign-in and the key work again, the old session stays ended.
    await http().post(`/assembly/users/${yaw._id}/enable`).set('Authorization', f.keys.assembly).expect(403);
    const enabled = await http()
      .post(`/assembly/users/${yaw._id}/enable`)
      .set('Authorization', f.keys.admin)
      .expect(200);
    expect(enabled.body.disabledAt).toBeNull();
    await http().get('/auth/session').set('Cookie', session.cookie!).expect(401);
    await http().get('/assembly/users').set('Authorization', key).expect(200);
    expect((await signIn('yaw.off@ama.gov.gh', PASSWORD)).res.status).toBe(200);

    const history = await running.database.prisma.auditEntry.findMany({
      where: {
        entity: 'assemblyUser',
        entityId: yaw._id,
        action: { in: ['AssemblyUserDisabled', 'AssemblyUserEnabled'] },
      },
      orderBy: { id: 'asc' },
    });
    expect(history.map((e) => [e.action, e.actorRole, e.actorId === efua.id])).toEqual([
      ['AssemblyUserDisabled', 'assembly', true],
      ['AssemblyUserEnabled', 'admin', false],
    ]);

    // A national admin off-boards anyone, in any assembly.
    await http()
      .post(`/assembly/users/${f.ids.otherAssemblyUser}/disable`)
      .set('Authorization', f.keys.admin)
      .expect(200);
    await http().get('/assembly/users').set('Authorization', f.keys.otherAssembly).expect(401);
  });
});
