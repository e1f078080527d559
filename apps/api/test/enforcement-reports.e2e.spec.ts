import { appOnTier } from './support/app-on-tier';
import { describeOnEachTier } from './support/test-app';

// Issue 47, item 7: the roadside's reports. An assembly admin reads their assembly's offences by day (the assembly's
// time zone), by code and by officer, amounts issued and collected (pesewas) and checks made; the national admin any
// assembly's or all; an enforcer reads their own day.

const OFFENCES = [
  { code: 'TF-01', description: 'No valid sticker', bylaw: 's. 12', fine: 20_000, daysToPay: 14, surcharge: 5_000 },
  { code: 'TF-02', description: 'Loading outside a station', bylaw: 's. 15', fine: 10_000, daysToPay: 7, surcharge: 0 },
];
const ZONE = 'Africa/Accra';
const dayOf = (at: Date) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: ZONE, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);

describeOnEachTier('enforcement reports (issue 47)', (tier) => {
  const { running, http, fixture: f } = appOnTier(tier, { fixture: true, config: { timeZone: ZONE } });
  const keys = { taskForce: '', second: '', admin: '', otherAdmin: '' };
  const users = { taskForce: '', second: '' };
  const post = (path: string, key: string, body: object) => http().post(path).set('Authorization', key).send(body);
  const get = (path: string, key?: string) => (key ? http().get(path).set('Authorization', key) : http().get(path));
  const today = dayOf(new Date());

  beforeAll(async () => {
    const made = async (body: object) =>
      (await post('/assembly/users/add', f.keys.admin, body).expect(201)).body as { _id: string };
    const keyFor = async (principal: string) =>
      (await post('/admin/keys', f.keys.admin, { role: 'assembly', principal }).expect(201)).body.key as string;
    const person = (name: string, email: string, phone: string, role: string, assembly = f.ids.assembly) =>
      made({ assembly, name, email, phone, role });
    const taskForce = await person('Kojo Report', 'kojo.r@ama.gov.gh', '0244999601', 'enforcer');
    const second = await person('Ama Report', 'ama.r@ama.gov.gh', '0244999602', 'enforcer');
    const admin = await person('Efua Report', 'efua.r@ama.gov.gh', '0244999603', 'admin');
    const otherAdmin = await person('Tema Report', 'tema.r@tma.gov.gh', '0244999604', 'admin', f.ids.otherAssembly);
    Object.assign(users, { taskForce: taskForce._id, second: second._id });
    keys.taskForce = await keyFor(taskForce._id);
    keys.second = await keyFor(second._id);
    keys.admin = await keyFor(admin._id);
    keys.otherAdmin = await keyFor(otherAdmin._id);
    await post('/enforcement/catalogue', keys.admin, { offences: OFFENCES }).expect(201);
    const record = (key: string, codes: string[]) =>
      post('/enforcement/offences', key, { vehicle: f.ids.linkedVehicle, codes }).expect(201);
    const first = await record(keys.taskForce, ['TF-01', 'TF-02']);
    await record(keys.taskForce, ['TF-02']);
    await record(keys.second, ['TF-01']);
    for (const plate of ['GR 1000-24', 'GR 1001-24', 'XX 0000-00'])
      await post('/enforcement/checks', keys.taskForce, { plate }).expect(200);
    await post('/enforcement/checks', keys.second, { plate: 'GR 1002-24' }).expect(200);
    // The first notice paid in full today (the payment flow is another part of issue 47: its row as it leaves it).
    await running.database.prisma.notice.update({
      where: { id: first.body._id },
      data: { status: 'paid', paid: 30_000, paidAt: new Date() },
    });
  });

  it("gives an assembly admin their assembly's offences by day, code and officer, amounts and checks", async () => {
    const report = await get(`/enforcement/reports?from=${today}&to=${today}`, keys.admin).expect(200);
    expect(report.body).toMatchObject({
      assembly: f.ids.assembly,
      from: today,
      to: today,
      timeZone: ZONE,
      totals: { notices: 3, offences: 4, issued: 60_000, collected: 30_000, checks: 4 },
      days: [{ day: today, notices: 3, offences: 4, issued: 60_000, collected: 30_000, checks: 4 }],
      codes: [
        { code: 'TF-01', offences: 2, issued: 40_000 },
        { code: 'TF-02', offences: 2, issued: 20_000 },
      ],
      officers: [
        { officer: users.taskForce, name: 'Kojo Report', notices: 2, issued: 40_000, checks: 3 },
        { officer: users.second, name: 'Ama Report', notices: 1, issued: 20_000, checks: 1 },
      ],
    });
    // A week: every day, zeros included, oldest first.
    const from = dayOf(new Date(Date.now() - 6 * 86_400_000));
    const week = await get(`/enforcement/reports?from=${from}&to=${today}`, keys.admin).expect(200);
    expect(week.body.days).toHaveLength(7);
    expect(week.body.days[0]).toEqual({ day: from, notices: 0, offences: 0, issued: 0, collected: 0, checks: 0 });
    expect(week.body.days[6].day).toBe(today);
  });

  it('gives the national admin any assembly or all, and refuses everyone else', async () => {
    const all = await get(`/enforcement/reports?from=${today}&to=${today}`, f.keys.admin).expect(200);
    expect(all.body).toMatchObject({ assembly: null, totals: { notices: 3 } });
    const other = await get(
      `/enforcement/reports?from=${today}&to=${today}&assembly=${f.ids.otherAssembly}`,
      f.keys.admin,
    ).expect(200);
    expect(other.body.totals).toEqual({ notices: 0, offences: 0, issued: 0, collected: 0, checks: 0 });
    await get(`/enforcement/reports?from=${today}&to=${today}&assembly=${f.ids.assembly}`, keys.otherAdmin).expect(404);
    const mine = await get(`/enforcement/reports?from=${today}&to=${today}`, keys.otherAdmin).expect(200);
    expect(mine.body.totals.notices).toBe(0);
    const officer = await get(`/enforcement/reports?from=${today}&to=${today}`, keys.taskForce);
    expect([officer.status, officer.body.code]).toEqual([403, 'DUTY_NOT_ALLOWED']);
    await get(`/enforcement/reports?from=${today}&to=${today}`).expect(401);
    const backwards = await get(`/enforcement/reports?from=${today}&to=2020-01-01`, keys.admin);
    expect([backwards.status, backwards.body.code]).toEqual([400, 'INVALID_DATE_RANGE']);
    await get('/enforcement/reports?from=yesterday&to=today', keys.admin).expect(400);
  });
});
