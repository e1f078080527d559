import request from 'supertest';
import { createApp, type RunningApp } from '../src/app';
import { loadApiFixture, type ApiFixture } from './support/api-fixtures';
import { describeOnEachTier, openTierStore, type TierStore } from './support/test-app';

const PASSWORD = 'the-harmattan-is-dry-42';
const LANGUAGE = '/auth/language';

// A person's own language (PUT /auth/language): stored with them, from their session with its CSRF token, answered
// in the session's person and applied at their next sign-in. Behind one balancer (TRUST_PROXY=1): each sign-in plays
// its own client address.
describeOnEachTier("a person's own language", (tier) => {
  let store: TierStore;
  let running: RunningApp;
  let f: ApiFixture;
  const http = () => request(running.app.getHttpServer());

  beforeAll(async () => {
    store = await openTierStore(tier);
    running = await createApp(store.config({ trustProxy: 1 }));
    f = await loadApiFixture(running.database);
    // Abena (an approver of the fixture's assembly) and Kweku (an inspector of another) get passwords.
    for (const [user, phone] of [
      [f.ids.assemblyUser, '+233244000111'],
      [f.ids.otherAssemblyUser, '+233244000333'],
    ]) {
      await http().post('/auth/invitations').set('Authorization', f.keys.admin).send({ user }).expect(202);
      const message = await running.database.prisma.outboxMessage.findFirst({
        where: { to: phone },
        orderBy: { id: 'desc' },
      });
      const token = /token=([A-Za-z0-9_-]{43})/.exec(message?.text ?? '')?.[1];
      await http().post('/auth/password').send({ token, password: PASSWORD }).expect(204);
    }
  });
  afterAll(async () => {
    await running?.close();
    await store?.dispose();
  });

  let address = 0;
  async function signIn(email: string) {
    const res = await http()
      .post('/auth/sign-in')
      .set('X-Forwarded-For', `203.0.113.${++address}`)
      .send({ email, password: PASSWORD })
      .expect(200);
    const cookie = (res.headers['set-cookie'] as unknown as string[])[0].split(';')[0];
    return { res, cookie, csrf: res.body.csrfToken as string };
  }
  const choose = (session: { cookie: string; csrf: string }, language: unknown) =>
    http().put(LANGUAGE).set('Cookie', session.cookie).set('X-CSRF-Token', session.csrf).send({ language });
  const stored = async (id: string) =>
    (await running.database.prisma.assemblyUser.findUniqueOrThrow({ where: { id } })).language;

  it('is English until chosen; the choice is stored, answered, read back and applied at the next sign-in', async () => {
    const abena = await signIn('abena@ama.gov.gh');
    expect(abena.res.body.person.language).toBe('en');
    const before = await running.database.prisma.assemblyUser.findUniqueOrThrow({ where: { id: f.ids.assemblyUser } });

    const res = await choose(abena, 'TW ').expect(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body.person).toMatchObject({ _id: f.ids.assemblyUser, language: 'tw' });
    expect(res.body.csrfToken).toBe(abena.csrf);
    expect(await stored(f.ids.assemblyUser)).toBe('tw');
    // A preference, not a change of the record: its revision is the same.
    const after = await running.database.prisma.assemblyUser.findUniqueOrThrow({ where: { id: f.ids.assemblyUser } });
    expect(after.version).toBe(before.version);

    const session = await http().get('/auth/session').set('Cookie', abena.cookie).expect(200);
    expect(session.body.person.language).toBe('tw');
    expect((await signIn('abena@ama.gov.gh')).res.body.person.language).toBe('tw');
  });

  it('answers a replay the same and changes nothing', async () => {
    const abena = await signIn('abena@ama.gov.gh');
    const first = await choose(abena, 'ee').expect(200);
    const again = await choose(abena, 'ee').expect(200);
    expect(again.body.person).toEqual(first.body.person);
    expect(await stored(f.ids.assemblyUser)).toBe('ee');
  });

  it('refuses a language the service does not speak with 400 INVALID_LANGUAGE, and a body without one; nothing changes', async () => {
    const abena = await signIn('abena@ama.gov.gh');
    await choose(abena, 'dag').expect(200);
    for (const language of ['fr', 'english', '', 'x'.repeat(21)]) {
      const res = await choose(abena, language).expect(400);
      expect(res.headers['content-type']).toContain('application/problem+json');
      if (language === 'fr' || language === 'english' || language === '')
        expect(res.body).toMatchObject({ status: 400, code: 'INVALID_LANGUAGE' });
    }
    for (const language of [undefined, 7, ['tw']]) await choose(abena, language).expect(400);
    expect(await stored(f.ids.assemblyUser)).toBe('dag');
  });

  it('changes only the signed-in person: another person, with their own session, changes their own', async () => {
    const abena = await signIn('abena@ama.gov.gh');
    await choose(abena, 'ha').expect(200);
    const kweku = await signIn('kweku@tma.gov.gh');
    const res = await choose(kweku, 'gaa').expect(200);
    expect(res.body.person._id).toBe(f.ids.otherAssemblyUser);
    expect(await stored(f.ids.otherAssemblyUser)).toBe('gaa');
    expect(await stored(f.ids.assemblyUser)).toBe('ha');
    // Abena's cookie with Kweku's CSRF token (or none) is refused.
    await choose({ cookie: abena.cookie, csrf: kweku.csrf }, 'en').expect(403);
    await http().put(LANGUAGE).set('Cookie', abena.cookie).send({ language: 'en' }).expect(403);
    expect(await stored(f.ids.assemblyUser)).toBe('ha');
  });

  it('is chosen when staff are added (optional: English without one); a code not spoken is 400 and adds nobody', async () => {
    const add = (email: string, phone: string, language?: string) =>
      http()
        .post('/assembly/users/add')
        .set('Authorization', f.keys.admin)
        .send({ assembly: f.ids.assembly, name: 'Esi Quaye', email, phone, role: 'inspector', language });
    const ewe = await add('esi@ama.gov.gh', '0244000555', 'EE').expect(201);
    expect(ewe.body.language).toBe('ee');
    expect(await stored(ewe.body._id)).toBe('ee');
    const plain = await add('yaw@ama.gov.gh', '0244000556').expect(201);
    expect(plain.body.language).toBe('en');
    expect(await stored(plain.body._id)).toBe('en');
    const refused = await add('ama@ama.gov.gh', '0244000557', 'fr').expect(400);
    expect(refused.body.code).toBe('INVALID_LANGUAGE');
    expect(await running.database.prisma.assemblyUser.count({ where: { email: 'ama@ama.gov.gh' } })).toBe(0);
    // An update of the record (disabling) leaves the language the person chose.
    await http()
      .post(`/assembly/users/${ewe.body._id}/disable`)
      .set('Authorization', f.keys.admin)
      .expect(200)
      .expect((res) => expect(res.body.language).toBe('ee'));
    expect(await stored(ewe.body._id)).toBe('ee');
  });

  it("sends a member of staff's invitation link in their language, and an English speaker's in English", async () => {
    const add = (email: string, phone: string, language?: string) =>
      http()
        .post('/assembly/users/add')
        .set('Authorization', f.keys.admin)
        .send({ assembly: f.ids.assembly, name: 'Adwoa Ofori', email, phone, role: 'inspector', language });
    const invited = async (user: string, phone: string) => {
      await http().post('/auth/invitations').set('Authorization', f.keys.admin).send({ user }).expect(202);
      const message = await running.database.prisma.outboxMessage.findFirst({ where: { to: phone } });
      return message?.text ?? '';
    };
    const twi = await add('adwoa@ama.gov.gh', '0244000601', 'tw').expect(201);
    const twiText = await invited(twi.body._id, '+233244000601');
    expect(twiText).toMatch(/^Accra Metropolitan Assembly: wɔato wo nsa frɛ .* Fa adwoa@ama\.gov\.gh kɔ mu\./);
    expect(twiText).toMatch(/token=[A-Za-z0-9_-]{43}&email=adwoa%40ama\.gov\.gh$/);
    const english = await add('kojo@ama.gov.gh', '0244000602').expect(201);
    expect(await invited(english.body._id, '+233244000602')).toMatch(
      /^Accra Metropolitan Assembly: you are invited to the assembly dashboard\. You sign in with kojo@ama\.gov\.gh\./,
    );
  });

  it('refuses anyone not signed in (401), an ended session (401) and an API key (403: keys are not people)', async () => {
    await http().put(LANGUAGE).send({ language: 'tw' }).expect(401);
    const abena = await signIn('abena@ama.gov.gh');
    await http().post('/auth/sign-out').set('Cookie', abena.cookie).set('X-CSRF-Token', abena.csrf).expect(204);
    await choose(abena, 'tw').expect(401);
    const key = await http().put(LANGUAGE).set('Authorization', f.keys.assembly).send({ language: 'tw' });
    expect(key.status).toBe(403);
    expect(key.body.code).toBe('FORBIDDEN');
  });
});
