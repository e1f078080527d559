import { NoticeDecisionsService } from '../src/enforcement/notice-decisions.service';
import { NOTICE_OVERDUE_CRON, NOTICE_OVERDUE_QUEUE } from '../src/enforcement/notice-overdue.worker';
import { GPS_TEXT, jpeg } from './support/images';
import { appOnTier } from './support/app-on-tier';
import { describeOnEachTier } from './support/test-app';

// Issue 47, items 6 and 7: the owner contests a notice on its public page (a short text, optionally a photo), a
// supervisor who did not record the offence decides (upheld, reduced, cancelled) or cancels it, with a reason the owner
// sees; the scheduled job marks notices overdue (the surcharge shows); an assembly may block approving or renewing a
// vehicle with overdue notices. Every change is audited on the notice and in the vehicle's history.

const DAY = 86_400_000;
const DRIVER_PHONE = '+233201000001';
const OFFENCES = [
  {
    code: 'TF-01',
    description: 'Operating without a valid sticker',
    bylaw: 's. 12(1)',
    fine: 20_000,
    daysToPay: 14,
    surcharge: 5_000,
    daysToContest: 10,
  },
  {
    code: 'TF-02',
    description: 'Loading outside a station',
    bylaw: 's. 15',
    fine: 10_000,
    daysToPay: 7,
    surcharge: 2_500,
  },
];

describeOnEachTier('notice contests, decisions and overdue notices (issue 47)', (tier) => {
  const { running, http, fixture: f } = appOnTier(tier, { fixture: true });
  const keys = { taskForce: '', admin: '', otherAdmin: '', otherTaskForce: '' };
  const users = { taskForce: '' };
  const post = (path: string, key: string | undefined, body: object = {}) => {
    const req = http().post(path);
    return (key ? req.set('Authorization', key) : req).send(body);
  };
  const get = (path: string, key?: string) => (key ? http().get(path).set('Authorization', key) : http().get(path));
  const prisma = () => running.database.prisma;

  beforeAll(async () => {
    const made = async (body: object) =>
      (await post('/assembly/users/add', f.keys.admin, body).expect(201)).body as { _id: string };
    const keyFor = async (principal: string) =>
      (await post('/admin/keys', f.keys.admin, { role: 'assembly', principal }).expect(201)).body.key as string;
    const taskForce = await made({
      assembly: f.ids.assembly,
      name: 'Kojo Taskforce',
      email: 'kojo.c@ama.gov.gh',
      phone: '0244999501',
      role: 'enforcer',
    });
    const admin = await made({
      assembly: f.ids.assembly,
      name: 'Efua Admin',
      email: 'efua.c@ama.gov.gh',
      phone: '0244999502',
      role: 'admin',
    });
    const otherAdmin = await made({
      assembly: f.ids.otherAssembly,
      name: 'Tema Admin',
      email: 'admin.c@tma.gov.gh',
      phone: '0244999503',
      role: 'admin',
    });
    const otherTaskForce = await made({
      assembly: f.ids.otherAssembly,
      name: 'Yaw Tema',
      email: 'yaw.c@tma.gov.gh',
      phone: '0244999504',
      role: 'enforcer',
    });
    users.taskForce = taskForce._id;
    keys.taskForce = await keyFor(taskForce._id);
    keys.admin = await keyFor(admin._id);
    keys.otherAdmin = await keyFor(otherAdmin._id);
    keys.otherTaskForce = await keyFor(otherTaskForce._id);
    await post('/enforcement/catalogue', keys.admin, { offences: OFFENCES }).expect(201);
  });

  /** Records an offence with the driver identified, and the path of its public page (from the driver's SMS). */
  const record = async (codes: string[], daysAgo = 0, vehicle = f.ids.linkedVehicle) => {
    const madeAt = new Date(Date.now() - daysAgo * DAY).toISOString();
    const notice = (
      await post('/enforcement/offences', keys.taskForce, {
        vehicle,
        codes,
        driver: f.ids.workingDriver,
        madeAt,
      }).expect(201)
    ).body as { _id: string };
    const sms = (await prisma().outboxMessage.findMany({ where: { to: DRIVER_PHONE } }))
      .map((m) => m.text)
      .find((t) => t.includes(notice._id));
    const page = /https?:\/\/[^/]+(\/n\/\S+)$/.exec(sms ?? '')?.[1];
    if (!page) throw new Error('no link in the notice SMS');
    return { id: notice._id, page };
  };
  const contest = (page: string, text?: string, photo?: Buffer) => {
    // As the page's form sends it, from a browser.
    const req = http().post(`${page}/contest`).set('Accept', 'text/html,application/xhtml+xml');
    if (text !== undefined) req.field('text', text);
    if (photo) req.attach('photo', photo, 'photo.jpg');
    return req;
  };
  const historyOf = async (action: string, notice: string) =>
    (
      await prisma().auditEntry.findMany({ where: { entity: 'vehicle', entityId: f.ids.linkedVehicle, action } })
    ).filter((e) => (e.after as { notice?: string } | null)?.notice === notice);

  it('takes a contest on the page (text and a photo without its location) once, and shows it', async () => {
    const notice = await record(['TF-01']);
    const page = await get(notice.page).expect(200);
    expect(page.text).toContain(`<form method="post" action="${notice.page}/contest" enctype="multipart/form-data">`);

    const contested = await contest(notice.page, 'The sticker was renewed yesterday', jpeg({ gps: true })).expect(201);
    expect(contested.headers['content-type']).toMatch(/^text\/html/);
    expect(contested.text).toContain(`<a href="${notice.page}#contest">Back to the notice</a>`);
    const row = await prisma().notice.findUniqueOrThrow({ where: { id: notice.id } });
    expect(row.status).toBe('contested');
    const photoKey = (row.contest as { photo: string }).photo;
    expect(photoKey).toMatch(new RegExp(`^notice-contests/${notice.id}/[0-9a-f]{64}$`));
    const stored = await prisma().storedObject.findUniqueOrThrow({ where: { key: photoKey } });
    expect(Buffer.from(stored.bytes).includes(Buffer.from(GPS_TEXT, 'latin1'))).toBe(false);
    expect(await historyOf('NoticeContested', notice.id)).toHaveLength(1);

    const shown = await get(notice.page).expect(200);
    expect(shown.text).toContain('The sticker was renewed yesterday');
    expect(shown.text).toContain('(with a photo)');
    expect(shown.text).not.toContain('<form');

    const again = await contest(notice.page, 'Once more').expect(409);
    expect(again.headers['content-type']).toMatch(/^text\/html/);
    expect(again.text).toContain('contested already');
    // Any other client than a browser is answered the API's problem.
    const json = await http().post(`${notice.page}/contest`).field('text', 'Once more').expect(409);
    expect(json.headers['content-type']).toContain('application/problem+json');
    expect(json.body.code).toBe('NOTICE_ALREADY_CONTESTED');

    // Supervisors see it among the open contests, with its photo.
    const open = await get('/enforcement/contests', keys.admin).expect(200);
    expect(open.body.map((n: { _id: string }) => n._id)).toContain(notice.id);
    expect(open.body.find((n: { _id: string }) => n._id === notice.id).contest).toMatchObject({
      text: 'The sticker was renewed yesterday',
      photo: true,
    });
    const photo = await get(`/enforcement/notices/${notice.id}/contest-photo`, f.keys.assembly).expect(200);
    expect(photo.headers['content-type']).toBe('image/jpeg');
    const hidden = await get('/enforcement/contests', keys.otherAdmin).expect(200);
    expect(hidden.body.map((n: { _id: string }) => n._id)).not.toContain(notice.id);
    await get(`/enforcement/contests?assembly=${f.ids.assembly}`, keys.otherAdmin).expect(404);
    await get('/enforcement/contests').expect(401);
    const officer = await get('/enforcement/contests', keys.taskForce);
    expect([officer.status, officer.body.code]).toEqual([403, 'DUTY_NOT_ALLOWED']);
  });

  it('is decided by a supervisor who did not record it, with a reason the owner reads on the page and an SMS', async () => {
    const notice = await record(['TF-01']);
    await contest(notice.page, 'I was parked, not loading').expect(201);
    const body = { outcome: 'reduced', amount: 5_000, reason: 'First offence: reduced' };

    await post(`/enforcement/notices/${notice.id}/decision`, undefined, body).expect(401);
    const own = await post(`/enforcement/notices/${notice.id}/decision`, keys.taskForce, body);
    expect([own.status, own.body.code]).toEqual([403, 'NOTICE_DECIDER_IS_OFFICER']);
    const elsewhere = await post(`/enforcement/notices/${notice.id}/decision`, keys.otherAdmin, body);
    expect([elsewhere.status, elsewhere.body.code]).toEqual([404, 'NOT_FOUND']);
    const otherOfficer = await post(`/enforcement/notices/${notice.id}/decision`, keys.otherTaskForce, body);
    expect([otherOfficer.status, otherOfficer.body.code]).toEqual([403, 'DUTY_NOT_ALLOWED']);
    const tooMuch = await post(`/enforcement/notices/${notice.id}/decision`, f.keys.assembly, {
      ...body,
      amount: 20_000,
    });
    expect([tooMuch.status, tooMuch.body.code]).toEqual([400, 'INVALID_AMOUNT']);
    expect((await prisma().notice.findUniqueOrThrow({ where: { id: notice.id } })).status).toBe('contested');

    const decided = await post(`/enforcement/notices/${notice.id}/decision`, f.keys.assembly, body).expect(200);
    expect(decided.body).toMatchObject({
      status: 'decided',
      amountDue: 5_000,
      decision: { outcome: 'reduced', amount: 5_000, reason: 'First offence: reduced' },
    });
    expect(new Date(decided.body.dueAt).getTime()).toBeGreaterThan(Date.now() + 13 * DAY);
    const again = await post(`/enforcement/notices/${notice.id}/decision`, f.keys.assembly, body);
    expect([again.status, again.body.code]).toEqual([422, 'NOTICE_NOT_CONTESTED']);
    expect(await historyOf('NoticeDecided', notice.id)).toHaveLength(1);

    const page = await get(notice.page).expect(200);
    expect(page.text).toContain('Fine reduced</b> to GHS 50.00. Reason: First offence: reduced');
    expect(page.text).toContain('GHS 50.00');
    const texts = (await prisma().outboxMessage.findMany({ where: { to: DRIVER_PHONE } })).map((m) => m.text);
    expect(texts.some((t) => /is decided: fine reduced\. Pay GHS 50\.00 by /.test(t))).toBe(true);
  });

  it('refuses a contest past its days, of an offence that cannot be contested, without a reason or with a bad photo', async () => {
    const late = await record(['TF-01'], 11);
    const closed = await contest(late.page, 'Too late?').expect(422);
    expect(closed.text).toContain('The days to contest this notice have passed.');
    const fixed = await record(['TF-02']);
    expect((await contest(fixed.page, 'No').expect(422)).text).toContain('cannot be contested');
    expect((await get(fixed.page).expect(200)).text).toContain('The offences on this notice cannot be contested.');

    const open = await record(['TF-01']);
    expect((await contest(open.page, '   ').expect(400)).headers['content-type']).toMatch(/^text\/html/);
    await contest(open.page).field('other', 'no text').expect(400);
    expect((await contest(open.page, 'A photo', Buffer.from('not an image')).expect(415)).text).toContain(
      'JPEG, PNG or WebP',
    );
    const big = Buffer.concat([jpeg({ gps: false }), Buffer.alloc(5 * 1024 * 1024)]);
    expect((await contest(open.page, 'A big photo', big).expect(413)).text).toContain('at most 5 MB');
    const asJson = await http().post(`${open.page}/contest`).send({ text: 'as JSON' }).expect(415);
    expect(asJson.body.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    await contest(`/n/${open.id}`, 'Forged link').expect(404);
    expect((await prisma().notice.findUniqueOrThrow({ where: { id: open.id } })).status).toBe('issued');
    expect(await prisma().storedObject.count({ where: { key: { startsWith: `notice-contests/${open.id}` } } })).toBe(0);
  });

  it('is cancelled by a supervisor, never by its officer, and never deleted', async () => {
    const notice = await record(['TF-02']);
    const own = await post(`/enforcement/notices/${notice.id}/cancel`, keys.taskForce, { reason: 'Mine' });
    expect([own.status, own.body.code]).toEqual([403, 'NOTICE_CANCEL_BY_OFFICER']);
    const elsewhere = await post(`/enforcement/notices/${notice.id}/cancel`, keys.otherAdmin, { reason: 'No' });
    expect([elsewhere.status, elsewhere.body.code]).toEqual([404, 'NOT_FOUND']);
    await post(`/enforcement/notices/${notice.id}/cancel`, undefined, { reason: 'No' }).expect(401);

    const cancelled = await post(`/enforcement/notices/${notice.id}/cancel`, keys.admin, {
      reason: 'Wrong vehicle recorded',
    }).expect(200);
    expect(cancelled.body).toMatchObject({
      status: 'cancelled',
      amountDue: 0,
      cancellation: { reason: 'Wrong vehicle recorded' },
    });
    const again = await post(`/enforcement/notices/${notice.id}/cancel`, keys.admin, { reason: 'Again' });
    expect([again.status, again.body.code]).toEqual([422, 'NOTICE_CANCELLED']);
    expect(await historyOf('NoticeCancelled', notice.id)).toHaveLength(1);
    expect(await prisma().notice.count({ where: { id: notice.id } })).toBe(1);
    expect((await get(notice.page).expect(200)).text).toContain('Reason: Wrong vehicle recorded');
  });

  it('marks notices past due overdue once (the surcharge shows), and blocks renewal only when the assembly says so', async () => {
    const vehicle = f.ids.linkedVehicle;
    const notice = await record(['TF-02'], 8, vehicle);
    const job = running.app.get(NoticeDecisionsService);
    expect(await job.markOverdue()).toBeGreaterThanOrEqual(1);
    expect(await job.markOverdue()).toBe(0);
    const row = await prisma().notice.findUniqueOrThrow({ where: { id: notice.id } });
    expect(row.status).toBe('overdue');
    expect(await historyOf('NoticeOverdue', notice.id)).toHaveLength(1);
    expect((await get(notice.page).expect(200)).text).toContain('Amount due: <b>GHS 125.00</b>');

    const renew = async () => {
      const current = await prisma().vehicle.findUniqueOrThrow({ where: { id: vehicle } });
      const later = new Date((current.insuranceExpiryDate ?? new Date()).getTime() + 30 * DAY);
      return post(`/vehicles/${vehicle}/renew`, f.keys.assembly, { insuranceExpiryDate: later.toISOString() });
    };
    expect((await get(`/enforcement/settings/${f.ids.assembly}`, keys.admin).expect(200)).body).toEqual({
      overdueBlocksVehicle: false,
    });
    await renew().then((r) => expect(r.status).toBe(200));

    const byOfficer = await http()
      .put(`/enforcement/settings/${f.ids.assembly}`)
      .set('Authorization', keys.taskForce)
      .send({ overdueBlocksVehicle: true });
    expect([byOfficer.status, byOfficer.body.code]).toEqual([403, 'DUTY_NOT_ALLOWED']);
    await http()
      .put(`/enforcement/settings/${f.ids.assembly}`)
      .set('Authorization', keys.otherAdmin)
      .send({ overdueBlocksVehicle: true })
      .expect(404);
    const set = (on: boolean) =>
      http()
        .put(`/enforcement/settings/${f.ids.assembly}`)
        .set('Authorization', keys.admin)
        .send({ overdueBlocksVehicle: on })
        .expect(200);
    await set(true);
    const before = await prisma().vehicle.findUniqueOrThrow({ where: { id: vehicle } });
    const refused = await renew();
    expect([refused.status, refused.body.code]).toEqual([422, 'VEHICLE_HAS_OVERDUE_NOTICES']);
    expect(await prisma().vehicle.findUniqueOrThrow({ where: { id: vehicle } })).toEqual(before);
    const approve = await post(`/vehicles/${vehicle}/approve`, f.keys.assembly);
    expect([approve.status, approve.body.code]).toEqual([422, 'VEHICLE_HAS_OVERDUE_NOTICES']);

    // Settled (here cancelled), the vehicle renews again.
    for (const open of await prisma().notice.findMany({ where: { vehicleId: vehicle, status: { not: 'cancelled' } } }))
      if (open.status !== 'paid')
        await post(`/enforcement/notices/${open.id}/cancel`, keys.admin, { reason: 'Settled at the office' }).expect(
          200,
        );
    await renew().then((r) => expect(r.status).toBe(200));
    await set(false);
    expect(
      await prisma().auditEntry.count({ where: { entity: 'assembly', action: 'AssemblyEnforcementSettingsChanged' } }),
    ).toBe(2);
  });

  it('declares the overdue job as a pg-boss schedule on a stately queue (one run at a time across instances)', async () => {
    const schedule = await prisma().$queryRawUnsafe<Array<{ name: string; cron: string }>>(
      'SELECT name, cron FROM pgboss.schedule WHERE name = $1',
      NOTICE_OVERDUE_QUEUE,
    );
    expect(schedule).toEqual([{ name: NOTICE_OVERDUE_QUEUE, cron: NOTICE_OVERDUE_CRON }]);
    const queue = await prisma().$queryRawUnsafe<Array<{ policy: string }>>(
      'SELECT policy FROM pgboss.queue WHERE name = $1',
      NOTICE_OVERDUE_QUEUE,
    );
    expect(queue).toEqual([{ policy: 'stately' }]);
  });

  it('counts contests from one address (429 past 20 an hour)', async () => {
    let answer = await contest('/n/x', 'x');
    for (let i = 0; i < 25 && answer.status !== 429; i++) answer = await contest('/n/x', 'x');
    expect(answer.status).toBe(429);
    expect(answer.headers['retry-after']).toBeDefined();
    expect(answer.text).toContain('Too many tries');
  });
});
