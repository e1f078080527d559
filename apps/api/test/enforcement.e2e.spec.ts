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
});
