import { passedDriverChecklist } from '@transport/domain/testing';
import { driverRegistration } from './support/api-fixtures';
import { appOnTier } from './support/app-on-tier';
import { describeOnEachTier } from './support/test-app';

/** Abena, the fixture's approver (f.keys.assembly), and her phone number. */
const ABENA_PHONE = '+233244000111';

/**
 * Issue 42: one person cannot act alone. An approver who puts their own phone on a pending driver cannot send
 * themselves its activation key nor approve the driver; whoever registers a driver for them cannot approve it.
 */
describeOnEachTier('separation of duties: a driver on the road takes two people', (tier) => {
  const { running, fixture: f, http } = appOnTier(tier, { fixture: true, config: (c) => ({ ...c, trustProxy: 1 }) });
  /** A second approver of the fixture's assembly, made by the national admin (so at once able to act). */
  let kofi: { id: string; key: string };

  beforeAll(async () => {
    const user = await http()
      .post('/assembly/users/add')
      .set('Authorization', f.keys.admin)
      .send({
        assembly: f.ids.assembly,
        name: 'Kofi Approver',
        email: 'kofi@ama.gov.gh',
        phone: '0244000999',
        role: 'approver',
      })
      .expect(201);
    const key = await http()
      .post('/admin/keys')
      .set('Authorization', f.keys.admin)
      .send({ role: 'assembly', principal: user.body._id })
      .expect(201);
    kofi = { id: user.body._id, key: key.body.key };
  });

  const lastKeyTo = async (phone: string) =>
    /(\d{6})/.exec(
      (await running.database.prisma.outboxMessage.findFirst({ where: { to: phone }, orderBy: { id: 'desc' } }))
        ?.text ?? '',
    )?.[1];
  const approve = (id: string, key: string) =>
    http().post(`/drivers/${id}/approve`).set('Authorization', key).send({ approvalChecklist: passedDriverChecklist });

  it('refuses the approver who corrected a pending driver to their own phone the key and the approval', async () => {
    const registered = await http()
      .post('/drivers/add')
      .set('X-Forwarded-For', '198.51.100.70')
      .send(driverRegistration({ email: `yaa.${tier}@example.com`, phone: '0207100001', assembly: f.ids.assembly }))
      .expect(201);
    const id = registered.body.payload._id as string;
    // Abena corrects the phone to her own number: allowed (a typo happens), but she vouches for nothing more.
    const corrected = await http()
      .post(`/drivers/${id}/correct`)
      .set('Authorization', f.keys.assembly)
      .set('If-Match', '0')
      .send({ phone: ABENA_PHONE })
      .expect(200);
    expect(corrected.body.phone).toBe(ABENA_PHONE);
    const own = await http().post(`/drivers/${id}/activation-key`).set('Authorization', f.keys.assembly).expect(422);
    expect(own.headers['content-type']).toContain('application/problem+json');
    expect(own.body.code).toBe('DRIVER_KEY_SENDER_SET_PHONE');
    expect(await lastKeyTo(ABENA_PHONE)).toBeUndefined();

    // A second approver sends the key to the new number (vouching for it); the driver activates with it.
    await http().post(`/drivers/${id}/activation-key`).set('Authorization', kofi.key).expect(200);
    const key = await lastKeyTo(ABENA_PHONE);
    await http()
      .post(`/drivers/${id}/activate`)
      .set('X-Forwarded-For', '198.51.100.71')
      .send({ activationKey: key })
      .expect(200);
    const refused = await approve(id, f.keys.assembly).expect(422);
    expect(refused.body.code).toBe('DRIVER_APPROVER_SET_CONTACT');
    expect((await running.database.prisma.driver.findUniqueOrThrow({ where: { id } })).approved).toBe(false);
    expect((await approve(id, kofi.key).expect(200)).body.approved).toBe(true);
    expect(await running.database.prisma.driver.findUniqueOrThrow({ where: { id } })).toMatchObject({
      approvedBy: kofi.id,
      phoneSetBy: f.ids.assemblyUser,
    });

    // The audit log shows the chain: who set the number, who sent the key, who approved.
    const history = await http().get(`/audit?entity=driver&id=${id}`).set('Authorization', f.keys.admin).expect(200);
    const chain = (
      history.body as Array<{ action: string; actor: { id: string }; after: Record<string, unknown> }>
    ).map((e) => [e.action, e.actor.id]);
    expect(chain).toEqual([
      ['DriverRegistered', 'anonymous'],
      ['DriverCorrected', f.ids.assemblyUser],
      ['DriverActivationKeyVoided', f.ids.assemblyUser],
      ['DriverActivationKeyReissued', kofi.id],
      ['DriverActivated', 'anonymous'],
      ['DriverApproved', kofi.id],
    ]);
    expect(history.body[1].after).toMatchObject({ phone: ABENA_PHONE, phoneSetBy: f.ids.assemblyUser });
  });

  it('refuses the approval to the approver who registered the driver with its contact details', async () => {
    const registered = await http()
      .post('/drivers/add')
      .set('Authorization', f.keys.assembly)
      .send(driverRegistration({ email: `esi.${tier}@example.com`, phone: '0207100002' }))
      .expect(201);
    const id = registered.body.payload._id as string;
    await http()
      .post(`/drivers/${id}/activate`)
      .set('X-Forwarded-For', '198.51.100.72')
      .send({ activationKey: await lastKeyTo('+233207100002') })
      .expect(200);
    expect((await approve(id, f.keys.assembly).expect(422)).body.code).toBe('DRIVER_APPROVER_SET_CONTACT');
    await approve(id, kofi.key).expect(200);
  });
});

describeOnEachTier('separation of duties: staff who may approve take a second person to create', (tier) => {
  const { running, fixture: f, http } = appOnTier(tier, { fixture: true });
  const PASSWORD = 'two-admins-sign-for-this';

  const addUser = (key: string, fields: { name: string; email: string; phone: string; role: string }) =>
    http()
      .post('/assembly/users/add')
      .set('Authorization', key)
      .send({ assembly: f.ids.assembly, ...fields });
  const keyFor = async (principal: string) =>
    (
      await http()
        .post('/admin/keys')
        .set('Authorization', f.keys.admin)
        .send({ role: 'assembly', principal })
        .expect(201)
    ).body.key as string;
  const confirm = (id: string, key: string) => http().post(`/assembly/users/${id}/confirm`).set('Authorization', key);
  async function setPassword(id: string, phone: string) {
    await http().post('/auth/invitations').set('Authorization', f.keys.admin).send({ user: id }).expect(202);
    const message = await running.database.prisma.outboxMessage.findFirst({
      where: { to: phone },
      orderBy: { id: 'desc' },
    });
    const token = /token=([A-Za-z0-9_-]{43})/.exec(message?.text ?? '')?.[1];
    await http().post('/auth/password').send({ token, password: PASSWORD }).expect(204);
  }

  it('makes an approver an assembly admin creates wait until another admin confirms it; an inspector acts at once', async () => {
    // The first admin of an assembly is made by the national admin, and acts at once.
    const efua = (
      await addUser(f.keys.admin, {
        name: 'Efua',
        email: 'efua@ama.gov.gh',
        phone: '0244000701',
        role: 'admin',
      }).expect(201)
    ).body;
    expect(efua.awaitingConfirmation).toBe(false);
    const efuaKey = await keyFor(efua._id);

    // Efua makes an approver and an admin with phone numbers of her own: neither can act yet.
    const yaw = (
      await addUser(efuaKey, { name: 'Yaw', email: 'yaw@ama.gov.gh', phone: '0244000702', role: 'approver' }).expect(
        201,
      )
    ).body;
    const ama = (
      await addUser(efuaKey, { name: 'Ama', email: 'ama@ama.gov.gh', phone: '0244000703', role: 'admin' }).expect(201)
    ).body;
    expect([yaw.awaitingConfirmation, ama.awaitingConfirmation]).toEqual([true, true]);
    const yawKey = await keyFor(yaw._id);
    await http().get('/assembly/users').set('Authorization', yawKey).expect(401);
    await http()
      .get('/assembly/users')
      .set('Authorization', await keyFor(ama._id))
      .expect(401);
    await setPassword(yaw._id, '+233244000702');
    const refused = await http()
      .post('/auth/sign-in')
      .send({ email: 'yaw@ama.gov.gh', password: PASSWORD })
      .expect(403);
    expect(refused.body.code).toBe('ACCOUNT_NOT_CONFIRMED');

    // Nobody confirms their own making, nor an approver (not their duty).
    expect((await confirm(yaw._id, efuaKey).expect(422)).body.code).toBe('ASSEMBLY_USER_CONFIRMER_IS_CREATOR');
    expect((await confirm(yaw._id, f.keys.assembly).expect(403)).body.code).toBe('DUTY_NOT_ALLOWED');
    expect(
      (await running.database.prisma.assemblyUser.findUniqueOrThrow({ where: { id: yaw._id } })).awaitingConfirmation,
    ).toBe(true);

    // A second admin (made by the national admin) confirms; then the approver acts.
    const kwame = (
      await addUser(f.keys.admin, {
        name: 'Kwame',
        email: 'kwame@ama.gov.gh',
        phone: '0244000704',
        role: 'admin',
      }).expect(201)
    ).body;
    const confirmed = await confirm(yaw._id, await keyFor(kwame._id)).expect(200);
    expect(confirmed.body.awaitingConfirmation).toBe(false);
    await http().get('/assembly/users').set('Authorization', yawKey).expect(200);
    await http().post('/auth/sign-in').send({ email: 'yaw@ama.gov.gh', password: PASSWORD }).expect(200);
    // The national admin confirms too; again changes nothing.
    expect((await confirm(ama._id, f.keys.admin).expect(200)).body.awaitingConfirmation).toBe(false);
    await confirm(ama._id, efuaKey).expect(200);

    // An inspector approves nothing: made by an assembly admin, it acts at once.
    const kojo = (
      await addUser(efuaKey, { name: 'Kojo', email: 'kojo@ama.gov.gh', phone: '0244000705', role: 'inspector' }).expect(
        201,
      )
    ).body;
    expect(kojo.awaitingConfirmation).toBe(false);
    await http()
      .get('/assembly/users')
      .set('Authorization', await keyFor(kojo._id))
      .expect(200);

    // The audit log shows who made and who confirmed each account.
    const entries = await http()
      .get(`/audit/entries?entity=assemblyUser&limit=500`)
      .set('Authorization', f.keys.admin)
      .expect(200);
    const about = (id: string) =>
      (entries.body as Array<{ entityId: string; action: string; actor: { id: string } }>)
        .filter((e) => e.entityId === id && /Created|Confirmed/.test(e.action))
        .map((e) => [e.action, e.actor.id])
        .reverse();
    expect(about(yaw._id)).toEqual([
      ['assemblyUserCreated', efua._id],
      ['AssemblyUserConfirmed', kwame._id],
    ]);
  });
});
