import { allPassed } from '@transport/domain/testing';
import { appOnTier } from './support/app-on-tier';
import { describeOnEachTier } from './support/test-app';

// Issue 47, roadside enforcement: the enforcer role (an assembly's task force, or police traffic officers nationwide),
// the roadside check and its log, the offence catalogue, offences and their notices.

describeOnEachTier('roadside enforcement (issue 47)', (tier) => {
  const { running, http, fixture: f } = appOnTier(tier, { fixture: true });
  const keys = { taskForce: '', police: '', otherTaskForce: '', admin: '' };
  const users = { taskForce: '', police: '', admin: '' };
  const post = (path: string, key: string, body: object = {}) => http().post(path).set('Authorization', key).send(body);
  const get = (path: string, key?: string) => {
    const req = http().get(path);
    return key ? req.set('Authorization', key) : req;
  };
  const addUser = (key: string, body: object) => post('/assembly/users/add', key, body);
  const keyFor = async (principal: string) =>
    (await post('/admin/keys', f.keys.admin, { role: 'assembly', principal }).expect(201)).body.key as string;
  const idOf = async (plate: string) =>
    (await running.database.prisma.vehicle.findFirstOrThrow({ where: { registrationNumber: plate } })).id;

  beforeAll(async () => {
    const made = async (body: object) => (await addUser(f.keys.admin, body).expect(201)).body as { _id: string };
    const taskForce = await made({
      assembly: f.ids.assembly,
      name: 'Kojo Taskforce',
      email: 'kojo.tf@ama.gov.gh',
      phone: '0244999401',
      role: 'enforcer',
    });
    const police = await made({
      assembly: f.ids.otherAssembly,
      name: 'Insp. Adjei',
      email: 'adjei@police.gov.gh',
      phone: '0244999402',
      role: 'enforcer',
      nationwide: true,
    });
    const otherTaskForce = await made({
      assembly: f.ids.otherAssembly,
      name: 'Yaw Tema',
      email: 'yaw.tf@tma.gov.gh',
      phone: '0244999403',
      role: 'enforcer',
    });
    const admin = await made({
      assembly: f.ids.assembly,
      name: 'Efua Admin',
      email: 'efua.admin@ama.gov.gh',
      phone: '0244999404',
      role: 'admin',
    });
    Object.assign(users, { taskForce: taskForce._id, police: police._id, admin: admin._id });
    keys.taskForce = await keyFor(taskForce._id);
    keys.police = await keyFor(police._id);
    keys.otherTaskForce = await keyFor(otherTaskForce._id);
    keys.admin = await keyFor(admin._id);
  });

  describe('the enforcer role', () => {
    it('is created like other staff: a task-force officer of an assembly, a police officer nationwide', async () => {
      const answer = await get(`/assembly/users/${users.police}`, f.keys.admin).expect(200);
      expect(answer.body).toMatchObject({ role: 'enforcer', nationwide: true, awaitingConfirmation: false });
      const row = await running.database.prisma.assemblyUser.findUniqueOrThrow({ where: { id: users.taskForce } });
      expect(row).toMatchObject({ role: 'enforcer', nationwide: false, assemblyId: f.ids.assembly });
    });

    it('is nationwide only for an enforcer, and only when the national admin makes one', async () => {
      const body = { assembly: f.ids.assembly, name: 'Ama Police', phone: '0244999405', nationwide: true };
      const inspector = await addUser(f.keys.admin, { ...body, email: 'ama.p@ama.gov.gh', role: 'inspector' });
      expect(inspector.status).toBe(400);
      expect(inspector.body).toMatchObject({ code: 'INVALID_VALUE' });
      const byAssemblyAdmin = await addUser(keys.admin, { ...body, email: 'ama.q@ama.gov.gh', role: 'enforcer' });
      expect(byAssemblyAdmin.status).toBe(403);
      expect(byAssemblyAdmin.body).toMatchObject({ code: 'DUTY_NOT_ALLOWED' });
      const taskForce = await addUser(keys.admin, {
        ...body,
        nationwide: false,
        email: 'ama.r@ama.gov.gh',
        role: 'enforcer',
      });
      expect(taskForce.status).toBe(201);
      expect(taskForce.body).toMatchObject({ role: 'enforcer', nationwide: false, awaitingConfirmation: false });
      expect(await running.database.prisma.assemblyUser.count({ where: { phone: '+233244999405' } })).toBe(1);
    });

    it('changes no registration, inspection or approval (403 DUTY_NOT_ALLOWED), and nothing is written', async () => {
      const inspected = await idOf('GR 1005-24');
      const fresh = f.ids.freshVehicle;
      const before = await running.database.prisma.vehicle.findUniqueOrThrow({ where: { id: fresh } });
      const refusals = [
        await post(`/vehicles/${fresh}/inspect`, keys.taskForce, { inspectionChecklist: allPassed() }),
        await post(`/vehicles/${inspected}/approve`, keys.taskForce),
        await post(`/vehicles/owner/${f.ids.owners[0]}/verify`, keys.police),
        await post('/vehicles/owner/add', keys.taskForce, {
          name: 'Esi Roadside',
          phone: '0244999406',
          email: 'esi.roadside@example.com',
          idType: 'ghana_card',
          idNumber: 'GHA-ROAD-1',
        }),
        await post(`/vehicles/${fresh}/link`, keys.taskForce, { station: null }),
      ];
      for (const refused of refusals) {
        expect(refused.status).toBe(403);
        expect(refused.body).toMatchObject({ code: 'DUTY_NOT_ALLOWED' });
      }
      expect(await running.database.prisma.vehicle.findUniqueOrThrow({ where: { id: fresh } })).toEqual(before);
      expect(await running.database.prisma.vehicleOwner.count({ where: { email: 'esi.roadside@example.com' } })).toBe(
        0,
      );
    });
  });

  describe('the roadside check', () => {
    const tokenOf = (page: string) => {
      const match = /href="https?:\/\/[^"]+\/v\/([A-Za-z0-9_.-]+)"/.exec(page);
      if (!match) throw new Error('no check link in the certificate page');
      return match[1];
    };
    const check = (key: string, body: object) => post('/enforcement/checks', key, body);

    it('finds a vehicle of another assembly by a plate in any spelling, with its sticker, documents and approved driver', async () => {
      const answer = await check(keys.otherTaskForce, {
        plate: 'gr-1OOO 24',
        license: ' dl 1-2020 ',
        madeAt: '2026-12-07T09:00:00Z',
        location: { type: 'Point', coordinates: [-0.2166, 5.556] },
      }).expect(200);
      expect(answer.body).toMatchObject({
        vehicle: { _id: f.ids.linkedVehicle, registrationNumber: 'GR 1000-24', assembly: f.ids.assembly },
        sticker: { state: 'valid' },
        driver: { approvedDriver: true, name: 'Driver 1' },
        openNotices: [],
      });
      expect(answer.body.documents.map((d: { document: string }) => d.document)).toEqual([
        'roadworthy',
        'insurance',
        'driverLicense',
      ]);
      const wrong = await check(keys.police, { plate: 'GR 1000-24', phone: '0244000999' }).expect(200);
      expect(wrong.body.driver).toEqual({ approvedDriver: false });
      const unapproved = await check(keys.police, { plate: 'GR 1005-24' }).expect(200);
      expect(unapproved.body).toMatchObject({ sticker: { state: 'withdrawn' }, driver: null });
      const nobody = await check(keys.police, { plate: 'XX 9999-99' }).expect(200);
      expect(nobody.body).toMatchObject({ vehicle: null, sticker: { state: 'unknown' }, documents: [] });
    });

    it("reads the certificate's QR token, and tells a forged one", async () => {
      const page = await post(`/vehicles/${f.ids.linkedVehicle}/certificate`, f.keys.assembly).expect(200);
      const token = tokenOf(page.text);
      const genuine = await check(keys.taskForce, { token }).expect(200);
      expect(genuine.body).toMatchObject({ vehicle: { _id: f.ids.linkedVehicle }, sticker: { state: 'valid' } });
      const forged = await check(keys.taskForce, { token: `${token.slice(0, -4)}AAAA` }).expect(200);
      expect(forged.body).toMatchObject({ vehicle: null, sticker: { state: 'not_genuine' } });
    });

    it('logs every check for the assembly admin, paged, and keeps tokens out of the log', async () => {
      const before = await running.database.prisma.roadsideCheck.count();
      await check(keys.taskForce, { plate: 'GR 1001-24' }).expect(200);
      expect(await running.database.prisma.roadsideCheck.count()).toBe(before + 1);
      const first = await get('/enforcement/checks?limit=1&count=true', keys.admin).expect(200);
      expect(first.body).toEqual([
        expect.objectContaining({
          officer: users.taskForce,
          assembly: f.ids.assembly,
          by: 'plate',
          query: 'GR 1001-24',
        }),
      ]);
      expect(first.headers.link).toMatch(/after=/);
      const mine = await running.database.prisma.roadsideCheck.count({ where: { assemblyId: f.ids.assembly } });
      expect(first.headers['x-total-count']).toBe(String(mine));
      const all = await get('/enforcement/checks?limit=100', f.keys.admin).expect(200);
      expect(all.body.length).toBe(before + 1);
      expect(all.body.some((c: { by: string; query: string | null }) => c.by === 'token' && c.query === null)).toBe(
        true,
      );
      const located = all.body.find((c: { location: unknown }) => c.location !== null);
      expect(located).toMatchObject({ madeAt: '2026-12-07T09:00:00.000Z', location: { type: 'Point' } });
    });

    it('logs a check sent again under its Idempotency-Key once, answering the first answer', async () => {
      const before = await running.database.prisma.roadsideCheck.count();
      const body = { plate: 'GR 1001-24', madeAt: '2026-12-07T10:00:00Z' };
      const send = () =>
        http()
          .post('/enforcement/checks')
          .set('Authorization', keys.taskForce)
          .set('Idempotency-Key', 'check-1')
          .send(body);
      const first = await send().expect(200);
      const again = await send().expect(200);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.body).toEqual(first.body);
      expect(await running.database.prisma.roadsideCheck.count()).toBe(before + 1);
      const reused = await http()
        .post('/enforcement/checks')
        .set('Authorization', keys.taskForce)
        .set('Idempotency-Key', 'check-1')
        .send({ ...body, plate: 'GR 1000-24' });
      expect([reused.status, reused.body.code]).toEqual([422, 'IDEMPOTENCY_KEY_REUSED']);
      expect(await running.database.prisma.roadsideCheck.count()).toBe(before + 1);
    });

    it('is for enforcers only, and needs one of plate or token', async () => {
      await check('', { plate: 'GR 1000-24' }).expect(401);
      const approver = await check(f.keys.assembly, { plate: 'GR 1000-24' });
      expect([approver.status, approver.body.code]).toEqual([403, 'DUTY_NOT_ALLOWED']);
      const both = await check(keys.police, { plate: 'GR 1000-24', token: 'x.y.z' });
      expect([both.status, both.body.code]).toEqual([400, 'INVALID_VALUE']);
      const badPhone = await check(keys.police, { plate: 'GR 1000-24', phone: 'call me' });
      expect(badPhone.status).toBe(400);
      const log = await get('/enforcement/checks', keys.taskForce);
      expect([log.status, log.body.code]).toEqual([403, 'DUTY_NOT_ALLOWED']);
      await get('/enforcement/checks').expect(401);
    });
  });

  describe('offences and notices', () => {
    const OFFENCES = [
      {
        code: 'TF-01',
        description: 'Operating without a valid sticker',
        bylaw: 'AMA Bye-laws 2019, s. 12(1)',
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
    const record = (key: string, body: object, idempotencyKey?: string) => {
      const req = http().post('/enforcement/offences').set('Authorization', key);
      if (idempotencyKey) req.set('Idempotency-Key', idempotencyKey);
      return req.send(body);
    };

    beforeAll(async () => {
      await post('/enforcement/catalogue', keys.admin, { offences: OFFENCES }).expect(201);
    });

    it("keeps each assembly's catalogue, versioned, published by its admin or the national admin", async () => {
      const current = await get('/enforcement/catalogue', keys.taskForce).expect(200);
      expect(current.body).toMatchObject({ assembly: f.ids.assembly, version: 1 });
      expect(current.body.offences.map((o: { code: string }) => o.code)).toEqual(['TF-01', 'TF-02']);
      const elsewhere = await post('/enforcement/catalogue', keys.admin, {
        assembly: f.ids.otherAssembly,
        offences: OFFENCES,
      });
      expect([elsewhere.status, elsewhere.body.code]).toEqual([422, 'OTHER_ASSEMBLY']);
      const byOfficer = await post('/enforcement/catalogue', keys.taskForce, { offences: OFFENCES });
      expect([byOfficer.status, byOfficer.body.code]).toEqual([403, 'DUTY_NOT_ALLOWED']);
      const freeFine = await post('/enforcement/catalogue', keys.admin, { offences: [{ ...OFFENCES[0], fine: 0 }] });
      expect(freeFine.status).toBe(400);
      const twice = await post('/enforcement/catalogue', keys.admin, { offences: [OFFENCES[0], OFFENCES[0]] });
      expect([twice.status, twice.body.code]).toEqual([400, 'INVALID_VALUE']);
      const national = await post('/enforcement/catalogue', f.keys.admin, {
        assembly: f.ids.otherAssembly,
        offences: [OFFENCES[1]],
      }).expect(201);
      expect(national.body).toMatchObject({ assembly: f.ids.otherAssembly, version: 1 });
      await get(`/enforcement/catalogue?assembly=${f.ids.otherAssembly}`, keys.police).expect(200);
      await get('/enforcement/catalogue').expect(401);
      expect(await running.database.prisma.offenceCatalogue.count({ where: { assemblyId: f.ids.assembly } })).toBe(1);
    });

    it('records an offence once per Idempotency-Key: a notice under the catalogue version of that moment, in the vehicle history', async () => {
      const body = {
        vehicle: f.ids.linkedVehicle,
        codes: ['tf-01', 'TF-02'],
        driver: f.ids.workingDriver,
        madeAt: '2026-12-07T09:05:00Z',
        madeWhere: { type: 'Point', coordinates: [-0.2166, 5.556] },
        notes: 'Loading at the roadside without a sticker',
      };
      const first = await record(keys.taskForce, body, `offence-${tier}-1`).expect(201);
      expect(first.body).toMatchObject({
        assembly: f.ids.assembly,
        vehicle: f.ids.linkedVehicle,
        driver: f.ids.workingDriver,
        officer: users.taskForce,
        catalogueVersion: 1,
        status: 'issued',
        fine: 30_000,
        surcharge: 7_500,
        amountDue: 30_000,
        madeAt: '2026-12-07T09:05:00.000Z',
        paid: 0,
      });
      const replay = await record(keys.taskForce, body, `offence-${tier}-1`).expect(201);
      expect(replay.body._id).toBe(first.body._id);
      expect(await running.database.prisma.notice.count({ where: { vehicleId: f.ids.linkedVehicle } })).toBe(1);
      const history = await running.database.prisma.auditEntry.findMany({
        where: { entity: 'vehicle', entityId: f.ids.linkedVehicle, action: 'NoticeIssued' },
      });
      expect(history).toHaveLength(1);

      // A new version changes the terms of new notices only.
      await post('/enforcement/catalogue', keys.admin, {
        offences: [{ ...OFFENCES[0], fine: 25_000 }, OFFENCES[1]],
      }).expect(201);
      const second = await record(keys.taskForce, { vehicle: f.ids.linkedVehicle, codes: ['TF-01'] }).expect(201);
      expect(second.body).toMatchObject({ catalogueVersion: 2, fine: 25_000 });
      const old = await get(`/enforcement/notices/${first.body._id}`, keys.admin).expect(200);
      expect(old.body).toMatchObject({ catalogueVersion: 1, fine: 30_000 });

      const checked = await post('/enforcement/checks', keys.police, { plate: 'GR 1000-24' }).expect(200);
      expect(checked.body.openNotices.map((n: { _id: string }) => n._id).sort()).toEqual(
        [first.body._id, second.body._id].sort(),
      );
    });

    it('takes a nationwide officer anywhere under the catalogue of the assembly named, a task-force officer only at home', async () => {
      const vehicle = await idOf('GR 1002-24');
      const unnamed = await record(keys.police, { vehicle, codes: ['TF-02'] });
      expect([unnamed.status, unnamed.body.code]).toEqual([400, 'INVALID_VALUE']);
      const police = await record(keys.police, { vehicle, codes: ['TF-02'], assembly: f.ids.otherAssembly }).expect(
        201,
      );
      expect(police.body).toMatchObject({ assembly: f.ids.otherAssembly, fine: 10_000, officer: users.police });
      const away = await record(keys.otherTaskForce, { vehicle, codes: ['TF-02'], assembly: f.ids.assembly });
      expect([away.status, away.body.code]).toEqual([422, 'OTHER_ASSEMBLY']);
      const home = await record(keys.otherTaskForce, { vehicle, codes: ['TF-02'] }).expect(201);
      expect(home.body.assembly).toBe(f.ids.otherAssembly);
    });

    it('refuses the anonymous, other roles, unknown codes and vehicles, and hides a notice from another assembly', async () => {
      const vehicle = f.ids.freshVehicle;
      const before = await running.database.prisma.notice.count();
      await http()
        .post('/enforcement/offences')
        .send({ vehicle, codes: ['TF-01'] })
        .expect(401);
      const approver = await record(f.keys.assembly, { vehicle, codes: ['TF-01'] });
      expect([approver.status, approver.body.code]).toEqual([403, 'DUTY_NOT_ALLOWED']);
      const unknown = await record(keys.taskForce, { vehicle, codes: ['TF-99'] });
      expect([unknown.status, unknown.body.code]).toEqual([422, 'OFFENCE_NOT_FOUND']);
      const noVehicle = await record(keys.taskForce, { vehicle: '65a0000000000000000000ff', codes: ['TF-01'] });
      expect([noVehicle.status, noVehicle.body.code]).toEqual([422, 'VEHICLE_NOT_FOUND']);
      const badPlace = await record(keys.taskForce, { vehicle, codes: ['TF-01'], madeWhere: { type: 'Point' } });
      expect([badPlace.status, badPlace.body.code]).toEqual([400, 'INVALID_LOCATION']);
      expect(await running.database.prisma.notice.count()).toBe(before);

      const notice = await running.database.prisma.notice.findFirstOrThrow({ where: { assemblyId: f.ids.assembly } });
      const hidden = await get(`/enforcement/notices/${notice.id}`, keys.otherTaskForce);
      expect([hidden.status, hidden.body.code]).toEqual([404, 'NOT_FOUND']);
      await get(`/enforcement/notices/${notice.id}`, keys.taskForce).expect(200);
      await get(`/enforcement/notices/${notice.id}`).expect(401);
    });

    it('texts a driver who reads Hausa the notice in Hausa, the link and the amount as in English', async () => {
      const drivers = running.database.prisma.driver;
      await drivers.update({ where: { id: f.ids.workingDriver }, data: { language: 'ha' } });
      try {
        const recorded = await record(keys.taskForce, {
          vehicle: f.ids.linkedVehicle,
          codes: ['TF-01'],
          driver: f.ids.workingDriver,
        }).expect(201);
        const texts = await running.database.prisma.outboxMessage.findMany({ where: { to: '+233201000001' } });
        const sms = texts.map((t) => t.text).find((t) => t.includes(recorded.body._id));
        expect(sms).toMatch(
          /sanarwar laifin hanya ga GR 1000-24: TF-01 Operating without a valid sticker\. Biya GHS 250\.00 kafin .*\/n\//,
        );
      } finally {
        await drivers.update({ where: { id: f.ids.workingDriver }, data: { language: 'en' } });
      }
    });

    it("texts the identified driver (and a verified owner) a link to the notice's public page, which shows no more than it needs", async () => {
      const recorded = await record(keys.taskForce, {
        vehicle: f.ids.linkedVehicle,
        codes: ['TF-01'],
        driver: f.ids.workingDriver,
        madeWhere: { type: 'Point', coordinates: [-0.2166, 5.556] },
      }).expect(201);
      const texts = await running.database.prisma.outboxMessage.findMany({ where: { to: '+233201000001' } });
      const sms = texts.map((t) => t.text).find((t) => t.includes(recorded.body._id));
      expect(sms).toMatch(/GR 1000-24: TF-01 Operating without a valid sticker\. Pay GHS 250\.00 by /);
      // The owner was never verified by the assembly: nobody proved the number is theirs, so no SMS goes there.
      const owner = await running.database.prisma.vehicleOwner.findUniqueOrThrow({ where: { id: f.ids.owners[0] } });
      expect(owner.verified).toBe(false);
      expect(await running.database.prisma.outboxMessage.count({ where: { to: owner.phone } })).toBe(0);

      const link = /https?:\/\/[^/]+(\/n\/\S+)$/.exec(sms ?? '');
      if (!link) throw new Error('no link in the notice SMS');
      const page = await get(link[1]).expect(200);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      expect(page.text).toContain('GR 1000-24');
      expect(page.text).toContain('Operating without a valid sticker');
      expect(page.text).toContain('GHS 250.00');
      expect(page.text).toContain(users.taskForce.slice(-6).toUpperCase());
      expect(page.text).toContain('5.55600, -0.21660');
      expect(page.text).toMatch(/Is this notice genuine\?/);
      for (const secret of ['Kojo Taskforce', owner.name, owner.phone, 'Driver 1', '<script'])
        expect(page.text).not.toContain(secret);
      expect(Buffer.byteLength(page.text)).toBeLessThan(6_000);

      const forged = link[1].slice(0, -4) + (link[1].endsWith('0000') ? '1111' : '0000');
      await get(forged).expect(404);
      await get(`/n/${recorded.body._id}`).expect(404);
    });
  });
});
