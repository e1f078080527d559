import { allPassed } from '@transport/domain/testing';
import { appOnTier } from './support/app-on-tier';
import { describeOnEachTier } from './support/test-app';

// Issue 43: what the roadside trial found misleading or silent on the API's side. A failure on an approved vehicle
// withdraws its approval and sticker: the owner is told by SMS, under the rules of every SMS (verified owners only, the
// guarded sender). A plate typed with the letter O for zero is found. The sticker and the public page say colours by
// name, and an expired verdict says what a passenger should do and who issued the certificate. An invitation says which
// e-mail the person signs in with.

const FAILED_BRAKES = { ...allPassed(), brakes: false, spareTire: false };

describeOnEachTier('roadside notices and words (issue 43)', (tier) => {
  const { running, http, fixture: f } = appOnTier(tier, { fixture: true });
  let inspector = '';
  beforeAll(async () => {
    // An inspector of the fixture's first assembly (whose vehicles GR 1000-24 to GR 1004-24 are approved).
    const admin = (path: string, body: object) =>
      http().post(path).set('Authorization', f.keys.admin).send(body).expect(201);
    const user = (
      await admin('/assembly/users/add', {
        assembly: f.ids.assembly,
        name: 'Kojo Roadside',
        email: 'kojo.roadside@ama.gov.gh',
        phone: '0244999302',
        role: 'inspector',
      })
    ).body as { _id: string };
    inspector = (await admin('/admin/keys', { role: 'assembly', principal: user._id })).body.key;
  });
  const idOf = async (plate: string) =>
    (await running.database.prisma.vehicle.findFirstOrThrow({ where: { registrationNumber: plate } })).id;
  const inspect = async (plate: string, checklist: object, idempotencyKey?: string) => {
    const id = await idOf(plate);
    const req = http().post(`/vehicles/${id}/inspect`).set('Authorization', inspector);
    if (idempotencyKey) req.set('Idempotency-Key', idempotencyKey);
    return req.send({ inspectionChecklist: checklist }).expect(200);
  };
  const textsTo = async (phone: string) =>
    (await running.database.prisma.outboxMessage.findMany({ where: { to: phone }, orderBy: { id: 'asc' } })).map(
      (m) => m.text,
    );

  it("texts a verified owner that a failure withdrew the vehicle's approval and sticker, once, and nobody else", async () => {
    // GR 1001-24 and GR 1004-24 are approved, of Ama Owusu (0244123451), not verified yet.
    const ama = '+233244123451';
    const before = (await textsTo(ama)).length;
    const unverified = await inspect('GR 1001-24', FAILED_BRAKES);
    expect(unverified.body.approved).toBe(false);
    // Not verified: staff typed the number and nobody proved it is hers, as for reminders.
    expect((await textsTo(ama)).length).toBe(before);

    await http().post(`/vehicles/owner/${f.ids.owners[1]}/verify`).set('Authorization', f.keys.admin).expect(200);
    // A pass on an approved vehicle withdraws nothing and texts nothing.
    await inspect('GR 1004-24', allPassed());
    expect((await textsTo(ama)).length).toBe(before);

    const key = 'c5f1f7a4-7a43-4b59-9d8e-2f3b1c0a9e11';
    const failed = await inspect('GR 1004-24', FAILED_BRAKES, key);
    expect(failed.body.approved).toBe(false);
    const texts = (await textsTo(ama)).slice(before);
    expect(texts).toHaveLength(1);
    expect(texts[0]).toMatch(
      /^Vehicle GR 1004-24 failed an inspection on \d+ \w+ \d{4} \(spare tyre, brakes\): its approval and its sticker are withdrawn\./,
    );
    // The phone's replay of the same inspection (its answer lost) is the first answer, not a second text.
    await inspect('GR 1004-24', FAILED_BRAKES, key);
    // A second failure of a vehicle already withdrawn withdraws nothing more.
    await inspect('GR 1004-24', FAILED_BRAKES);
    expect((await textsTo(ama)).slice(before)).toHaveLength(1);
  });

  it('finds a plate typed with the letter O for the digit zero', async () => {
    for (const typed of ['GR 1OO3-24', 'gr1o03', 'GR 1003-24']) {
      const res = await http().get('/search').query({ query: typed }).set('Authorization', f.keys.assembly).expect(200);
      const plates = (res.body as Array<{ label: string }>).map((hit) => hit.label);
      expect(plates).toContain('GR 1003-24');
    }
  });

  it('says colours by name on the sticker and on the public page, never as hex codes', async () => {
    const id = await idOf('GR 1000-24');
    const sheet = await http().post(`/vehicles/${id}/certificate`).set('Authorization', f.keys.assembly).expect(200);
    expect(sheet.text).toMatch(/<dt>Colour<\/dt><dd><span class="swatch"[^>]*><\/span>Gold<\/dd>/);
    const token = /href="https?:\/\/[^"]+\/v\/([A-Za-z0-9_.-]+)"/.exec(sheet.text)?.[1];
    const check = await http().get(`/v/${token}`).set('Accept', 'text/html').expect(200);
    expect(check.text).toMatch(/<dt>Colour<\/dt><dd><span class="swatch"[^>]*><\/span>Gold<\/dd>/);
    // In words: the hex stays in the swatch's style only.
    for (const page of [sheet.text, check.text]) expect(page.replace(/style="[^"]*"/g, '')).not.toMatch(/#FFD700/i);
  });

  it('tells a passenger what to do with an expired certificate, and which assembly issued it', async () => {
    const id = await idOf('GR 1002-24');
    const sheet = await http().post(`/vehicles/${id}/certificate`).set('Authorization', f.keys.assembly).expect(200);
    const token = /href="https?:\/\/[^"]+\/v\/([A-Za-z0-9_.-]+)"/.exec(sheet.text)?.[1];
    await running.database.prisma.vehicle.update({
      where: { id },
      data: { roadWorthyExpiryDate: new Date(Date.now() - 86_400_000) },
    });
    const page = await http().get(`/v/${token}`).set('Accept', 'text/html').expect(200);
    expect(page.text).toContain('Expired');
    expect(page.text).toMatch(/its roadworthy certificate expired on/);
    expect(page.text).toContain('do not rely on this certificate: choose another vehicle if you can');
    expect(page.text).toContain('tell Accra Metropolitan Assembly, which issued this certificate, or the police');
    expect(page.text).toContain('issued by Accra Metropolitan Assembly');
    // The JSON answer (the contract) is unchanged: no issuer field.
    const json = await http().get(`/v/${token}`).set('Accept', 'application/json').expect(200);
    expect(json.body.state).toBe('expired');
    expect(json.body.issuer).toBeUndefined();
  });

  it('says in the invitation which e-mail the person signs in with, and carries it to the set-password screen', async () => {
    await http()
      .post('/auth/invitations')
      .set('Authorization', f.keys.admin)
      .send({ user: f.ids.assemblyUser })
      .expect(202);
    const [text] = (await textsTo('+233244000111')).slice(-1);
    expect(text).toContain('You sign in with abena@ama.gov.gh.');
    expect(text).toMatch(/#\/set-password\?token=[A-Za-z0-9_-]{43}&email=abena%40ama\.gov\.gh/);
  });
});
