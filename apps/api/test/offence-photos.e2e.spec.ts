import { createHash } from 'node:crypto';
import { appOnTier } from './support/app-on-tier';
import { GPS_TEXT, jpeg, png } from './support/images';
import { describeOnEachTier } from './support/test-app';

// Issue 47, items 3 and 7: evidence photos of a roadside notice, sent by the recording officer's phone after the
// notice with a key per photo (a replay is one photo), checked by their bytes, read by those who may read the notice
// and shown on the public notice page without the location; and the officer's own day.

const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const hasGps = (bytes: Buffer) => bytes.includes(Buffer.from(GPS_TEXT, 'latin1'));
const binary = (res: NodeJS.EventEmitter, done: (error: Error | null, body: Buffer) => void) => {
  const chunks: Buffer[] = [];
  res.on('data', (chunk: Buffer) => chunks.push(chunk));
  res.on('end', () => done(null, Buffer.concat(chunks)));
};
const OFFENCE = {
  code: 'TF-01',
  description: 'Operating without a valid sticker',
  bylaw: 's. 12(1)',
  fine: 20_000,
  daysToPay: 14,
  surcharge: 5_000,
};

describeOnEachTier('offence photos and the officer’s day (issue 47)', (tier) => {
  const { running, http, fixture: f } = appOnTier(tier, { fixture: true });
  const keys = { officer: '', colleague: '', otherAssembly: '', admin: '' };
  let officerId = '';
  let notice = '';
  const post = (path: string, key: string, body: object = {}) => http().post(path).set('Authorization', key).send(body);
  const send = (bytes: Buffer, key: string | undefined, as: string | null = keys.officer, query = '') => {
    const req = http().post(`/enforcement/notices/${notice}/photos${query}`).set('Content-Type', 'image/jpeg');
    if (as) req.set('Authorization', as);
    if (key) req.set('Idempotency-Key', key);
    return req.send(bytes);
  };
  const photoRows = () => running.database.prisma.noticePhoto.count({ where: { noticeId: notice } });

  beforeAll(async () => {
    const made = async (assembly: string, name: string, phone: string, role: string) => {
      const user = (
        await post('/assembly/users/add', f.keys.admin, {
          assembly,
          name,
          email: `${phone}@ama.gov.gh`,
          phone,
          role,
        }).expect(201)
      ).body as { _id: string };
      const key = (await post('/admin/keys', f.keys.admin, { role: 'assembly', principal: user._id }).expect(201)).body
        .key as string;
      return { id: user._id, key };
    };
    const officer = await made(f.ids.assembly, 'Kojo Evidence', '0244999501', 'enforcer');
    officerId = officer.id;
    keys.officer = officer.key;
    keys.colleague = (await made(f.ids.assembly, 'Abena Colleague', '0244999502', 'enforcer')).key;
    keys.otherAssembly = (await made(f.ids.otherAssembly, 'Yaw Elsewhere', '0244999503', 'enforcer')).key;
    keys.admin = (await made(f.ids.assembly, 'Efua Supervisor', '0244999504', 'admin')).key;
    await post('/enforcement/catalogue', keys.admin, { offences: [OFFENCE] }).expect(201);
    notice = (
      await post('/enforcement/offences', keys.officer, {
        vehicle: f.ids.linkedVehicle,
        codes: ['TF-01'],
        driver: f.ids.workingDriver,
      }).expect(201)
    ).body._id;
  });

  it('keeps the officer’s photo of the notice once, however often the phone sends it with its key', async () => {
    const bytes = jpeg({ gps: true });
    const query = '?takenAt=2026-12-07T09:12:00.000Z&longitude=-0.187&latitude=5.6037';
    const first = await send(bytes, 'photo-1', keys.officer, query).expect(201);
    expect(first.body).toMatchObject({
      notice,
      sentBy: officerId,
      contentType: 'image/jpeg',
      sha256: sha(bytes),
      size: bytes.length,
      takenAt: '2026-12-07T09:12:00.000Z',
    });
    // The officer does not see the place (approvers, assembly admins and national admins do).
    expect(first.body.takenWhere).toBeUndefined();
    const again = await send(bytes, 'photo-1', keys.officer, query).expect(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body._id).toBe(first.body._id);
    expect(await photoRows()).toBe(1);
    const listed = await http().get(`/enforcement/notices/${notice}/photos`).set('Authorization', keys.admin);
    expect(listed.status).toBe(200);
    expect(listed.body).toHaveLength(1);
    expect(listed.body[0].takenWhere).toEqual({ type: 'Point', coordinates: [-0.187, 5.6037] });
  });

  it('refuses what is not an image (415), a photo over 5 MB (413), no key (400) and no credentials (401)', async () => {
    const before = await photoRows();
    const text = await send(Buffer.from('not an image at all'), 'photo-text').expect(415);
    expect(text.body).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE' });
    const large = await send(Buffer.concat([jpeg(), Buffer.alloc(5 * 1024 * 1024)]), 'photo-large').expect(413);
    expect(large.body).toMatchObject({ code: 'BODY_TOO_LARGE' });
    expect((await send(jpeg(), undefined).expect(400)).body).toMatchObject({ code: 'INVALID_VALUE' });
    expect((await send(jpeg(), 'photo-anonymous', null).expect(401)).body).toMatchObject({
      code: 'UNAUTHORIZED',
    });
    expect(await photoRows()).toBe(before);
  });

  it('lets another assembly’s officer neither add nor see (404), and a colleague who did not record it only read (403)', async () => {
    const before = await photoRows();
    expect((await send(png(), 'photo-other', keys.otherAssembly)).status).toBe(404);
    expect(
      (await http().get(`/enforcement/notices/${notice}/photos`).set('Authorization', keys.otherAssembly)).status,
    ).toBe(404);
    const colleague = await send(png(), 'photo-colleague', keys.colleague);
    expect(colleague.status).toBe(403);
    expect(colleague.body).toMatchObject({ code: 'DUTY_NOT_ALLOWED' });
    expect(
      (await http().get(`/enforcement/notices/${notice}/photos`).set('Authorization', keys.colleague)).status,
    ).toBe(200);
    // An admin of the notice's assembly adds evidence too.
    await send(png(), 'photo-admin', keys.admin).expect(201);
    expect(await photoRows()).toBe(before + 1);
  });

  it('serves the photo to readers, and on the public notice page without its location, by the page’s token only', async () => {
    const [photo] = (await http().get(`/enforcement/notices/${notice}/photos`).set('Authorization', keys.admin)).body;
    const asSent = await http()
      .get(`/enforcement/notices/${notice}/photos/${photo._id}`)
      .set('Authorization', keys.admin)
      .buffer(true)
      .parse(binary)
      .expect(200);
    expect(hasGps(asSent.body as Buffer)).toBe(true);
    const texts = await running.database.prisma.outboxMessage.findMany({ where: { to: '+233201000001' } });
    const sms = texts.map((t) => t.text).find((t) => t.includes(notice));
    const token = /\/n\/(\S+)$/.exec(sms ?? '')?.[1];
    expect(token).toBeDefined();
    const page = await http().get(`/n/${token}`).expect(200);
    expect(page.text).toContain(`/n/${token}/photos/${photo._id}`);
    // A few kB still: links, no image.
    expect(page.text).not.toContain('<img');
    const shown = await http().get(`/n/${token}/photos/${photo._id}`).buffer(true).parse(binary).expect(200);
    expect(shown.headers['content-type']).toBe('image/jpeg');
    expect(hasGps(shown.body as Buffer)).toBe(false);
    const forged = `${notice}.${token?.split('.')[1]}.${'0'.repeat(64)}`;
    expect((await http().get(`/n/${forged}/photos/${photo._id}`)).status).toBe(404);
  });

  it("answers the officer's own day: their notices and checks since midnight, nobody else's", async () => {
    await post('/enforcement/checks', keys.officer, { plate: 'GR 1000-24' }).expect(200);
    await post('/enforcement/checks', keys.colleague, { plate: 'GR 1001-24' }).expect(200);
    const day = await http().get('/enforcement/my-day').set('Authorization', keys.officer).expect(200);
    expect(day.body.notices).toEqual([
      expect.objectContaining({ _id: notice, registrationNumber: 'GR 1000-24', offences: ['TF-01'], fine: 20_000 }),
    ]);
    expect(day.body.checks.map((c: { query: string; officer: string }) => [c.query, c.officer])).toEqual([
      ['GR 1000-24', officerId],
    ]);
    expect(Date.parse(day.body.since)).toBeLessThanOrEqual(Date.now());
    expect(day.body.nationwide).toBe(false);
    const police = (
      await post('/assembly/users/add', f.keys.admin, {
        assembly: f.ids.otherAssembly,
        name: 'Insp. Day',
        email: 'insp.day@police.gov.gh',
        phone: '0244999505',
        role: 'enforcer',
        nationwide: true,
      }).expect(201)
    ).body._id as string;
    const policeKey = (await post('/admin/keys', f.keys.admin, { role: 'assembly', principal: police }).expect(201))
      .body.key as string;
    const policeDay = await http().get('/enforcement/my-day').set('Authorization', policeKey).expect(200);
    expect(policeDay.body).toMatchObject({ nationwide: true, notices: [], checks: [] });
    const colleague = await http().get('/enforcement/my-day').set('Authorization', keys.colleague).expect(200);
    expect(colleague.body.notices).toEqual([]);
    const admin = await http().get('/enforcement/my-day').set('Authorization', keys.admin);
    expect(admin.status).toBe(403);
    expect(admin.body).toMatchObject({ code: 'DUTY_NOT_ALLOWED' });
  });

  it("packs the officer's assembly's vehicles for the offline check: dates, notices, the driver only as hashes", async () => {
    const pack = await http().get('/enforcement/work-pack').set('Authorization', keys.officer).expect(200);
    const linked = (pack.body as Array<Record<string, unknown>>).find((v) => v._id === f.ids.linkedVehicle);
    expect(linked).toMatchObject({ registrationNumber: 'GR 1000-24', plateKey: 'GR100024', approved: true });
    expect((linked?.openNotices as Array<{ _id: string }>).map((n) => n._id)).toContain(notice);
    const hashes = linked?.driverHashes as string[];
    expect(hashes).toHaveLength(2);
    const hash = (kind: string, value: string) =>
      createHash('sha256').update(`${f.ids.linkedVehicle}|${kind}|${value}`).digest('hex').slice(0, 16);
    expect(hashes).toContain(hash('phone', '+233201000001'));
    // Nothing that names or reaches the driver travels in clear.
    expect(JSON.stringify(pack.body)).not.toMatch(/Driver 1|\+233201000001/);
    const assemblies = new Set((pack.body as Array<{ assembly: string }>).map((v) => v.assembly));
    expect([...assemblies]).toEqual([f.ids.assembly]);
    const inspector = await http().get('/enforcement/work-pack').set('Authorization', f.keys.assembly);
    expect(inspector.status).toBe(403);
  });

  it("sends the enforcer's pack gzip-encoded when accepted, and 304 to an unchanged page's ETag", async () => {
    const pack = () => http().get('/enforcement/work-pack').set('Authorization', keys.officer);
    const zipped = await pack().set('Accept-Encoding', 'gzip').expect(200);
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers['content-type']).toContain('application/json');
    expect(zipped.headers.vary).toContain('Accept-Encoding');
    const plain = await pack().set('Accept-Encoding', 'identity').expect(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(zipped.body).toEqual(plain.body);
    expect(zipped.headers.etag).toBeDefined();
    await pack().set('Accept-Encoding', 'gzip').set('If-None-Match', zipped.headers.etag).expect(304);
  });
});
