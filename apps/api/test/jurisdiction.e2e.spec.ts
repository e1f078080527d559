import request from 'supertest';
import { allPassed, passedDriverChecklist } from '@transport/domain/testing';
import { driverRegistration } from './support/api-fixtures';
import { appOnTier } from './support/app-on-tier';
import { describeOnEachTier } from './support/test-app';

const MISSING = '65a0000000000000000000ff';

/**
 * Assembly jurisdiction over HTTP: every record of the fixture belongs to the first assembly (Accra; its approver
 * holds `keys.assembly`); the inspector of the other one (Tema; `keys.otherAssembly`) must find none of it, act on
 * none of it, and learn nothing from trying. Admins move records between assemblies, audited.
 */
describeOnEachTier('assembly jurisdiction', (tier) => {
  const { fixture: f, http } = appOnTier(tier, { fixture: true });
  // One request id for every call, so two answers compare whole (their problem `instance` names the request).
  const as = (key: string) => ({
    get: (path: string) => http().get(path).set('Authorization', key).set('X-Request-Id', 'jurisdiction'),
    post: (path: string, body: object = {}) =>
      http().post(path).set('Authorization', key).set('X-Request-Id', 'jurisdiction').send(body),
  });

  /** The answer for a record that does not exist, with the id swapped: what "outside" must look like exactly. */
  const missingAnswer = async (key: string, path: (id: string) => string, id: string, body?: object) => {
    const req = body ? as(key).post(path(MISSING), body) : as(key).get(path(MISSING));
    const res = await req.expect(404);
    return JSON.parse(JSON.stringify(res.body).replaceAll(MISSING, id));
  };

  it("answers another assembly's vehicle, driver and staff exactly like missing ones", async () => {
    const tema = f.keys.otherAssembly;
    const reads: Array<[string, (id: string) => string]> = [
      [f.ids.linkedVehicle, (id) => `/vehicles/${id}`],
      [f.ids.workingDriver, (id) => `/drivers/${id}`],
      [f.ids.assemblyUser, (id) => `/assembly/users/${id}`],
    ];
    for (const [id, path] of reads) {
      const res = await as(tema).get(path(id)).expect(404);
      expect(res.body).toEqual(await missingAnswer(tema, path, id));
      // Its own assembly's staff and admins see it.
      await as(f.keys.assembly).get(path(id)).expect(200);
      await as(f.keys.admin).get(path(id)).expect(200);
    }
  });

  it("lists, searches and reports nothing of another assembly's records", async () => {
    const tema = as(f.keys.otherAssembly);
    const accra = as(f.keys.assembly);
    expect((await tema.get('/vehicles/all?limit=500').expect(200)).body).toEqual([]);
    expect((await accra.get('/vehicles/all?limit=500').expect(200)).body).toHaveLength(60);
    expect((await tema.get(`/vehicles/all?registrationNumber=GR%201000-24`).expect(200)).body).toEqual([]);
    expect((await tema.get('/drivers/all').expect(200)).body).toEqual({ status: 200, payload: [] });
    expect((await accra.get('/drivers/all').expect(200)).body.payload).toHaveLength(3);
    expect((await tema.get('/drivers/all?email=driver1@example.com').expect(200)).body.payload).toEqual([]);
    expect((await tema.get('/vehicles/owner/all').expect(200)).body).toEqual([]);
    expect((await tema.get('/vehicles/owner/search?query=mensah').expect(200)).body).toEqual([]);
    expect((await accra.get('/vehicles/owner/search?query=mensah').expect(200)).body).toHaveLength(1);
    // A vehicle of Accra's whose roadworthy certificate ends in ten days: on Accra's compliance list only.
    const soon = new Date(Date.now() + 10 * 86_400_000).toISOString();
    const expiring = (
      await accra
        .post('/vehicles/add', {
          ownerID: f.ids.owners[0],
          registrationNumber: 'GR 9999-26',
          roadWorthyExpiryDate: soon,
        })
        .expect(201)
    ).body;
    const ids = (res: request.Response) => res.body.map((e: { vehicle: { _id: string } }) => e.vehicle._id);
    expect(ids(await accra.get('/vehicles/compliance?within=30').expect(200))).toContain(expiring._id);
    expect((await tema.get('/vehicles/compliance?within=30').expect(200)).body).toEqual([]);
    const day = '/trips/intracity/date?startDate=2026-10-15&endDate=2026-10-15';
    expect((await accra.get(day).expect(200)).body).toHaveLength(2);
    expect((await tema.get(day).expect(200)).body).toEqual([]);
    expect((await as(f.keys.admin).get(day).expect(200)).body).toHaveLength(2);
    // A passenger's view stays nationwide: the anonymous list is not an assembly's.
    expect((await http().get('/vehicles/all?limit=500').expect(200)).body).toHaveLength(61);
  });

  it("acts on nothing of another assembly's: inspect, link, reissue, register against its owner", async () => {
    const tema = f.keys.otherAssembly;
    const before = (await as(f.keys.admin).get(`/vehicles/${f.ids.freshVehicle}`).expect(200)).body;
    const inspect = await as(tema).post(`/vehicles/${f.ids.freshVehicle}/inspect`, {
      inspectionChecklist: allPassed(),
    });
    expect(inspect.status).toBe(404);
    expect(inspect.body).toEqual(
      await missingAnswer(tema, (id) => `/vehicles/${id}/inspect`, f.ids.freshVehicle, {
        inspectionChecklist: allPassed(),
      }),
    );
    await as(tema).post(`/vehicles/${f.ids.linkedVehicle}/link`, { station: null }).expect(404);
    // Sending a key is an approver's duty (the Tema key is an inspector's: 403 whatever the driver); Tema's approver
    // finds Accra's driver exactly as a missing one.
    await as(tema).post(`/drivers/${f.ids.workingDriver}/activation-key`).expect(403);
    const sender = await as(f.keys.admin)
      .post('/assembly/users/add', {
        assembly: f.ids.otherAssembly,
        name: 'Adwoa Tema',
        email: 'adwoa@tma.gov.gh',
        phone: '0244000445',
        role: 'approver',
      })
      .expect(201);
    const approverKey = (
      await as(f.keys.admin).post('/admin/keys', { role: 'assembly', principal: sender.body._id }).expect(201)
    ).body.key as string;
    const reissue = await as(approverKey).post(`/drivers/${f.ids.workingDriver}/activation-key`).expect(404);
    expect(reissue.body).toEqual(
      await missingAnswer(approverKey, (id) => `/drivers/${id}/activation-key`, f.ids.workingDriver, {}),
    );
    const foreignOwner = await as(tema).post('/vehicles/add', {
      ownerID: f.ids.owners[0],
      registrationNumber: 'GT 1-26',
    });
    expect(foreignOwner.status).toBe(422);
    expect(foreignOwner.body.code).toBe('OWNER_NOT_FOUND');
    expect((await as(f.keys.admin).get(`/vehicles/${f.ids.freshVehicle}`).expect(200)).body).toEqual(before);
    // Tema's approver cannot approve or revoke Accra's: an inspected vehicle, a pending driver, the working driver.
    const approver = (
      await as(f.keys.admin)
        .post('/assembly/users/add', {
          assembly: f.ids.otherAssembly,
          name: 'Efo Dzordzi',
          email: 'efo@tma.gov.gh',
          phone: '0244000444',
          role: 'approver',
        })
        .expect(201)
    ).body;
    const temaApprover = (
      await as(f.keys.admin).post('/admin/keys', { role: 'assembly', principal: approver._id }).expect(201)
    ).body.key as string;
    const accraVehicles = (await as(f.keys.assembly).get('/vehicles/all?inspected=true&limit=500').expect(200)).body;
    const inspectedOnly = accraVehicles.find((v: { approved: boolean }) => !v.approved);
    await as(temaApprover).post(`/vehicles/${inspectedOnly._id}/approve`).expect(404);
    const pending = (await as(f.keys.assembly).get('/drivers/all?approved=false').expect(200)).body.payload[0];
    const checklist = passedDriverChecklist;
    await as(temaApprover).post(`/drivers/${pending._id}/approve`, { approvalChecklist: checklist }).expect(404);
    await as(temaApprover).post(`/drivers/${f.ids.workingDriver}/revoke`, { reason: 'complaint' }).expect(404);
    expect((await as(f.keys.admin).get(`/drivers/${f.ids.workingDriver}`).expect(200)).body.approved).toBe(true);
    expect((await as(f.keys.admin).get(`/vehicles/${inspectedOnly._id}`).expect(200)).body.approved).toBe(false);

    const history = await as(f.keys.admin).get(`/audit?entity=driver&id=${f.ids.workingDriver}`).expect(200);
    expect(history.body.map((e: { action: string }) => e.action)).not.toContain('DriverActivationKeyReissued');
  });

  it("places new records in the registering staff's assembly, or the one a driver chooses", async () => {
    const tema = as(f.keys.otherAssembly);
    const refused = await tema.post('/vehicles/owner/add', {
      name: 'Nana Tetteh',
      phone: '0244777001',
      email: 'nana@example.com',
      idType: 'ghana_card',
      idNumber: 'GHA-777-1',
      assembly: f.ids.assembly,
    });
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('OTHER_ASSEMBLY');
    const owner = (
      await tema
        .post('/vehicles/owner/add', {
          name: 'Nana Tetteh',
          phone: '0244777001',
          email: 'nana@example.com',
          idType: 'ghana_card',
          idNumber: 'GHA-777-1',
        })
        .expect(201)
    ).body;
    expect(owner.assembly).toBe(f.ids.otherAssembly);
    const vehicle = (
      await tema.post('/vehicles/add', { ownerID: owner._id, registrationNumber: 'GT 2-26' }).expect(201)
    ).body;
    expect(vehicle.assembly).toBe(f.ids.otherAssembly);
    expect((await as(f.keys.assembly).get('/vehicles/owner/search?query=tetteh').expect(200)).body).toEqual([]);
    await as(f.keys.assembly).get(`/vehicles/${vehicle._id}`).expect(404);
    // An admin registering a vehicle of that owner: it goes where the owner is.
    const byAdmin = await as(f.keys.admin).post('/vehicles/add', { ownerID: owner._id, registrationNumber: 'GT 3-26' });
    expect(byAdmin.status).toBe(201);
    expect(byAdmin.body.assembly).toBe(f.ids.otherAssembly);

    const driverBody = driverRegistration();
    const unknown = await http()
      .post('/drivers/add')
      .send({ ...driverBody, assembly: MISSING })
      .expect(422);
    expect(unknown.body.code).toBe('ASSEMBLY_NOT_FOUND');
    const driver = (
      await http()
        .post('/drivers/add')
        .send({ ...driverBody, assembly: f.ids.otherAssembly })
        .expect(201)
    ).body.payload;
    expect(driver.assembly).toBe(f.ids.otherAssembly);
    await tema.get(`/drivers/${driver._id}`).expect(200);
    await as(f.keys.assembly).get(`/drivers/${driver._id}`).expect(404);
    // A driver who chose none waits unassigned: only admins see them until one places them.
    const unassigned = (
      await http()
        .post('/drivers/add')
        .send({ ...driverBody, email: 'kwesi@example.com' })
        .expect(201)
    ).body.payload;
    expect(unassigned.assembly).toBeNull();
    await tema.get(`/drivers/${unassigned._id}`).expect(404);
    await as(f.keys.admin).get(`/drivers/${unassigned._id}`).expect(200);
  });

  it('moves a record between assemblies only by an admin, audited, and then the new assembly alone works on it', async () => {
    const id = f.ids.freshVehicle;
    const path = `/vehicles/${id}/transfer`;
    const forbidden = await as(f.keys.assembly).post(path, { assembly: f.ids.otherAssembly }).expect(403);
    expect(forbidden.body.code).toBe('FORBIDDEN');
    const unknown = await as(f.keys.admin).post(path, { assembly: MISSING }).expect(422);
    expect(unknown.body.code).toBe('ASSEMBLY_NOT_FOUND');
    await as(f.keys.admin).post(path, {}).expect(400);
    await as(f.keys.admin).post(`/vehicles/${MISSING}/transfer`, { assembly: f.ids.otherAssembly }).expect(404);
    const stale = await as(f.keys.admin).post(path, { assembly: f.ids.otherAssembly }).set('If-Match', '7').expect(409);
    expect(stale.body.code).toBe('CONCURRENT_UPDATE');

    const moved = (await as(f.keys.admin).post(path, { assembly: f.ids.otherAssembly }).expect(200)).body;
    expect(moved).toMatchObject({ assembly: f.ids.otherAssembly, __v: 1 });
    const again = await as(f.keys.admin).post(path, { assembly: f.ids.otherAssembly }).expect(409);
    expect(again.body.code).toBe('ALREADY_IN_ASSEMBLY');
    await as(f.keys.assembly).get(`/vehicles/${id}`).expect(404);
    const inspected = await as(f.keys.otherAssembly)
      .post(`/vehicles/${id}/inspect`, { inspectionChecklist: allPassed() })
      .expect(200);
    expect(inspected.body).toMatchObject({ inspected: true, assembly: f.ids.otherAssembly });

    const audit = (await as(f.keys.admin).get(`/audit?entity=vehicle&id=${id}`).expect(200)).body;
    const entry = audit.find((e: { action: string }) => e.action === 'VehicleTransferred');
    expect(entry).toMatchObject({
      actor: { role: 'admin' },
      before: { assemblyId: f.ids.assembly },
      after: { assemblyId: f.ids.otherAssembly },
    });

    // Owners and drivers move the same way.
    const owner = await as(f.keys.admin)
      .post(`/vehicles/owner/${f.ids.owners[2]}/transfer`, { assembly: f.ids.otherAssembly })
      .expect(200);
    expect(owner.body.assembly).toBe(f.ids.otherAssembly);
    expect(
      (await as(f.keys.otherAssembly).get('/vehicles/owner/search?query=mensah').expect(200)).body.map(
        (o: { _id: string }) => o._id,
      ),
    ).toEqual([f.ids.owners[2]]);
    const drivers = (await as(f.keys.admin).get('/drivers/all').expect(200)).body.payload as Array<{
      _id: string;
      assembly: string | null;
    }>;
    const accraDriver = drivers.find((d) => d.assembly === f.ids.assembly && d._id !== f.ids.workingDriver)!;
    await as(f.keys.admin).post(`/drivers/${accraDriver._id}/transfer`, { assembly: f.ids.otherAssembly }).expect(200);
    await as(f.keys.otherAssembly).get(`/drivers/${accraDriver._id}`).expect(200);
    await as(f.keys.assembly).get(`/drivers/${accraDriver._id}`).expect(404);
  });
});
