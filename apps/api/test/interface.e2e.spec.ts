import request from 'supertest';
import { appOnTier } from './support/app-on-tier';
import { describeOnEachTier } from './support/test-app';

const PROBLEM = /^application\/problem\+json/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const ID = /^[0-9a-f]{24}$/;

describeOnEachTier('the interface operations', (tier) => {
  const { running, fixture: f, http } = appOnTier(tier, { fixture: true });

  describe('1. GET /vehicles/all', () => {
    it('returns 50 of 60 by default, newest first, with a Link to the next page that holds the rest', async () => {
      const first = await http()
        .get('/vehicles/all')
        .expect(200)
        .expect('content-type', /application\/json/);
      expect(first.body).toHaveLength(50);
      expect(first.body[0].registrationNumber).toBe('GR 1059-24');
      expect(first.body[49].registrationNumber).toBe('GR 1010-24');
      const link = /^<([^>]+)>; rel="next"$/.exec(first.headers.link)?.[1];
      expect(link).toBe(`/vehicles/all?after=${first.body[49]._id}`);
      const second = await http().get(link!).expect(200);
      expect(second.body.map((v: { registrationNumber: string }) => v.registrationNumber)).toEqual(
        Array.from({ length: 10 }, (_, i) => `GR ${1009 - i}-24`),
      );
      expect(second.headers.link).toBeUndefined();
      expect((await http().get('/vehicles/all?limit=60').expect(200)).body).toHaveLength(60);
    });

    it('shows a registered vehicle without any inspection, approval or link field, and a linked one with them', async () => {
      // With a key of a role that sees every field (assembly staff), the interface's whole Vehicle.
      const all = (await http().get('/vehicles/all?limit=500').set('Authorization', f.keys.assembly).expect(200))
        .body as Array<Record<string, unknown>>;
      const fresh = all.find((v) => v._id === f.ids.freshVehicle)!;
      expect(Object.keys(fresh).sort()).toEqual(
        [
          '_id',
          'ownerID',
          'color',
          'registrationNumber',
          'make',
          'model',
          'capacity',
          'type',
          'roadWorthyExpiryDate',
          'insuranceExpiryDate',
          'inspected',
          'approved',
          'assembly',
          'createdAt',
          'updatedAt',
          '__v',
        ].sort(),
      );
      expect(fresh).toMatchObject({ inspected: false, approved: false, assembly: f.ids.assembly, __v: 0 });
      expect(fresh.createdAt).toMatch(ISO);
      const linked = all.find((v) => v._id === f.ids.linkedVehicle)!;
      expect(linked).toMatchObject({
        inspected: true,
        approved: true,
        driver: f.ids.workingDriver,
        inspectionChecklist: expect.objectContaining({ brakes: true }),
      });
      expect(linked.station).toEqual({
        _id: f.ids.station,
        name: 'Kaneshie',
        transportUnions: [f.ids.union],
        zones: [],
        contactNumber: 302000444,
        digitalAddress: 'GA-222-1010',
      });
      expect(linked.transportUnion).toMatchObject({
        _id: f.ids.union,
        status: 'active',
        name: 'GPRTU Accra',
        email: 'accra@gprtu.org.gh',
        zones: [],
      });
      expect(linked.approvedBy).toMatch(ID);
      expect(linked.dateApproved).toMatch(ISO);
      // Without a key: what a passenger checks, never the owner, the driver, the staff or dates of documents; with
      // the envelope the interface gives every record (its times and revision), as the original answered it.
      const anonymous = (await http().get('/vehicles/all?limit=500').expect(200)).body as Array<
        Record<string, unknown>
      >;
      const seen = anonymous.find((v) => v._id === f.ids.linkedVehicle)!;
      expect(Object.keys(seen).sort()).toEqual(
        [
          '_id',
          'registrationNumber',
          'make',
          'model',
          'color',
          'type',
          'capacity',
          'inspected',
          'approved',
          'station',
          'transportUnion',
          'createdAt',
          'updatedAt',
          '__v',
        ].sort(),
      );
      expect(seen).toMatchObject({ createdAt: linked.createdAt, updatedAt: linked.updatedAt, __v: linked.__v });
    });

    it('filters by inspected, registration number (in any spelling), driver and owner', async () => {
      const count = async (q: string) =>
        (await http().get(`/vehicles/all?limit=500&${q}`).set('Authorization', f.keys.assembly).expect(200)).body
          .length;
      expect(await count('inspected=true')).toBe(10);
      expect(await count('inspected=false')).toBe(50);
      expect(await count(`driver=${f.ids.workingDriver}`)).toBe(1);
      expect(await count(`ownerID=${f.ids.owners[1]}`)).toBe(20);
      expect(await count(`ownerID=${'0'.repeat(24)}`)).toBe(0);
      const byReg = (await http().get('/vehicles/all?registrationNumber=gr%20%201005-24').expect(200)).body;
      expect(byReg.map((v: { registrationNumber: string }) => v.registrationNumber)).toEqual(['GR 1005-24']);
      expect(await count('registrationNumber=%3Cscript%3E')).toBe(0);
      // Whose vehicles these are is nobody's business without a key: the plate-to-owner walk stops here.
      await http().get(`/vehicles/all?ownerID=${f.ids.owners[1]}`).expect(401);
      await http().get(`/vehicles/all?driver=${f.ids.workingDriver}`).expect(401);
    });
  });

  describe('2. POST /vehicles/add', () => {
    const body = () => ({
      ownerID: f.ids.owners[0],
      registrationNumber: 'as 7777-26',
      color: '#00ff00',
      make: 'Kia',
      model: 'Rio',
      makeYear: '2019-01-01',
      capacity: 4,
      grossWeight: 1500,
      netWeight: 1100,
      type: 'taxi',
      fuelCapacity: 45,
      roadWorthyExpiryDate: '2027-06-30',
      insuranceExpiryDate: '2027-06-30T00:00:00Z',
      vin: '1HGCM82633A004352',
    });

    it('registers a vehicle (201) that starts uninspected and unapproved, accepting the bare key or Bearer', async () => {
      const res = await http().post('/vehicles/add').set('Authorization', f.keys.assembly).send(body()).expect(201);
      expect(res.body).toMatchObject({
        ownerID: f.ids.owners[0],
        registrationNumber: 'AS 7777-26',
        color: '#00FF00',
        inspected: false,
        approved: false,
        __v: 0,
        makeYear: '2019-01-01T00:00:00.000Z',
      });
      expect(res.body).not.toHaveProperty('inspectionChecklist');
      expect(res.body._id).toMatch(ID);
      await http()
        .post('/vehicles/add')
        .set('Authorization', `Bearer ${f.keys.admin}`)
        .send({ ...body(), registrationNumber: 'AS 7778-26', vin: undefined })
        .expect(201);
    });

    it('refuses server-owned fields, an unknown owner and a taken registration number', async () => {
      for (const extra of [
        { _id: '0'.repeat(24) },
        { inspected: true },
        { approved: true },
        { approvedBy: '0'.repeat(24) },
        { __v: 3 },
        { driver: '0'.repeat(24) },
        { station: null },
      ]) {
        const res = await http()
          .post('/vehicles/add')
          .set('Authorization', f.keys.admin)
          .send({ ...body(), registrationNumber: 'AS 9000-26', ...extra })
          .expect(400)
          .expect('content-type', PROBLEM);
        expect(res.body.errors[0].message).toMatch(/should not exist/);
      }
      const unknown = await http()
        .post('/vehicles/add')
        .set('Authorization', f.keys.admin)
        .send({ ...body(), registrationNumber: 'AS 9001-26', ownerID: 'a'.repeat(24) })
        .expect(422);
      expect(unknown.body).toMatchObject({ code: 'OWNER_NOT_FOUND', status: 422 });
      const taken = await http()
        .post('/vehicles/add')
        .set('Authorization', f.keys.admin)
        .send({ ...body(), registrationNumber: 'GR 1000-24', vin: undefined })
        .expect(409);
      expect(taken.body.code).toBe('VEHICLE_REGISTRATION_TAKEN');
    });
  });

  describe('3 and 4. owners', () => {
    it('lists owners with exactly the owner fields', async () => {
      const res = await http().get('/vehicles/owner/all').set('Authorization', f.keys.admin).expect(200);
      expect(res.body).toHaveLength(3);
      expect(Object.keys(res.body[0]).sort()).toEqual(
        [
          '_id',
          'name',
          'phone',
          'email',
          'idType',
          'idNumber',
          'verified',
          // The owner's language (issue 48, item 3; docs/languages.md): an addition to the interface's owner.
          'language',
          'assembly',
          'createdAt',
          'updatedAt',
          '__v',
        ].sort(),
      );
      expect(res.body[0].assembly).toBe(f.ids.assembly);
    });

    it('searches by part of a name, an email, or either spelling of a phone, case-insensitively', async () => {
      const names = async (q: string) =>
        (
          await http()
            .get(`/vehicles/owner/search?query=${encodeURIComponent(q)}`)
            .set('Authorization', f.keys.assembly)
            .expect(200)
        ).body.map((o: { name: string }) => o.name);
      expect(await names('MENSAH')).toEqual(['Yaw Mensah']);
      expect(await names('owner1@')).toEqual(['Ama Owusu']);
      expect(await names('0244123450')).toEqual(['Kofi Asante']);
      expect(await names('+233244123451')).toEqual(['Ama Owusu']);
      expect(await names('nobody')).toEqual([]);
      const short = await http()
        .get('/vehicles/owner/search?query=ab')
        .set('Authorization', f.keys.assembly)
        .expect(400);
      expect(short.body.errors).toEqual([{ field: 'query', message: 'query must be at least 3 characters' }]);
      await http().get('/vehicles/owner/search').set('Authorization', f.keys.assembly).expect(400);
    });
  });

  describe('5 and 6. drivers', () => {
    it('wraps the list in { status, payload } and embeds the owner with exactly the owner fields', async () => {
      const res = await http().get('/drivers/all').set('Authorization', f.keys.admin).expect(200);
      expect(res.body.status).toBe(200);
      expect(res.body.payload).toHaveLength(3);
      const working = res.body.payload.find((d: { _id: string }) => d._id === f.ids.workingDriver);
      expect(working).toMatchObject({
        approved: true,
        verified: true,
        online: true,
        busy: false,
        rating: 4,
        email: 'driver1@example.com',
        phone: '+233201000001',
        walletAccount: '233201000001',
      });
      expect(Object.keys(working.ownerID).sort()).toEqual(
        ['_id', 'name', 'phone', 'email', 'idType', 'idNumber', 'verified'].sort(),
      );
      expect(working).not.toHaveProperty('activationKey');
      expect(JSON.stringify(res.body)).not.toMatch(/activationKeyHash|plain:/);
    });

    it('shows anonymous callers and merchants no personal data and refuses them the email filter', async () => {
      for (const key of [undefined, f.keys.merchantA]) {
        const req = http().get('/drivers/all');
        const res = await (key ? req.set('Authorization', key) : req).expect(200);
        // The envelope every record has (times and revision) stays; no personal data, no owner.
        const envelope = ['_id', 'createdAt', 'updatedAt', '__v'];
        for (const d of res.body.payload)
          expect(Object.keys(d).sort()).toEqual(expect.arrayContaining(['name', 'approved', ...envelope]));
        for (const d of res.body.payload)
          expect(Object.keys(d).every((k) => ['name', 'approved', 'rating', ...envelope].includes(k))).toBe(true);
        const working = res.body.payload.find((d: { _id: string }) => d._id === f.ids.workingDriver);
        expect(working.createdAt).toMatch(ISO);
        expect(working.__v).toEqual(expect.any(Number));
      }
      const refused = await http()
        .get('/drivers/all?email=driver1@example.com')
        .expect(401)
        .expect('content-type', PROBLEM);
      expect(refused.headers['www-authenticate']).toMatch(/Bearer/);
      await http().get('/drivers/all?email=DRIVER1@example.com').set('Authorization', f.keys.merchantA).expect(403);
      const found = await http()
        .get('/drivers/all?email=DRIVER1@example.com')
        .set('Authorization', f.keys.assembly)
        .expect(200);
      expect(found.body.payload.map((d: { _id: string }) => d._id)).toEqual([f.ids.workingDriver]);
    });

    it('filters by approval', async () => {
      expect((await http().get('/drivers/all?approved=true').expect(200)).body.payload).toHaveLength(1);
      expect((await http().get('/drivers/all?approved=false').expect(200)).body.payload).toHaveLength(2);
    });

    it("registers a driver (201), its activation key sent to the driver's phone and never in an answer", async () => {
      const res = await http()
        .post('/drivers/add')
        .send({
          name: 'Esi Quaye',
          phone: '0209876543',
          email: 'Esi.Quaye@Example.com',
          license: 'DL-0002-2021',
          licenseClass: 'B',
          licenseExpiry: '2028-01-10',
          licenseIssueDate: '2021-01-10',
          idType: 'ghana_card',
          idNumber: 'GHA-700000002-2',
          gender: 'female',
          // An owner of the assembly the driver chooses (a driver names only an owner of its own assembly).
          ownerID: f.ids.owners[1],
          assembly: f.ids.assembly,
        })
        .expect(201);
      expect(res.body.status).toBe(201);
      expect(res.body.payload).toMatchObject({
        approved: false,
        verified: false,
        online: false,
        busy: false,
        email: 'esi.quaye@example.com',
        phone: '+233209876543',
      });
      expect(res.body.activationKeySent).toBe(true);
      expect(res.body.payload).not.toHaveProperty('activationKey');
      const sms = await running.database.prisma.outboxMessage.findFirst({ where: { to: '+233209876543' } });
      const key = /(\d{6})/.exec(sms?.text ?? '')?.[1];
      expect(key).toMatch(/^\d{6}$/);
      expect(JSON.stringify(res.body)).not.toContain(key);
      // Only the new driver's own record: the owner it names is not handed to whoever registered.
      expect(res.body.payload).not.toHaveProperty('ownerID');
      const listed = await http()
        .get('/drivers/all?email=esi.quaye@example.com')
        .set('Authorization', f.keys.admin)
        .expect(200);
      expect(listed.body.payload[0]).not.toHaveProperty('activationKey');
      const again = {
        name: 'Esi Q',
        phone: '0209876544',
        email: 'ESI.QUAYE@example.com',
        license: 'DL-0009-2021',
        licenseClass: 'B',
        licenseExpiry: '2028-01-10',
        licenseIssueDate: '2021-01-10',
        idType: 'ghana_card',
        idNumber: 'GHA-9',
        gender: 'female',
        assembly: f.ids.assembly,
      };
      // Staff are told the e-mail is taken; the driver's own registration is answered as any other (issue 42).
      const byStaff = await http().post('/drivers/add').set('Authorization', f.keys.admin).send(again).expect(409);
      expect(byStaff.body.code).toBe('DRIVER_EMAIL_TAKEN');
      const own = await http().post('/drivers/add').send(again).expect(201);
      expect(own.body.payload).toMatchObject({ email: 'esi.quaye@example.com', verified: false });
    });
  });

  describe('7 and 8. assemblies', () => {
    it('lists assemblies with their region embedded', async () => {
      const res = await http().get('/assembly/all').set('Authorization', f.keys.merchantA).expect(200);
      expect(res.body.map((a: { name: string }) => a.name)).toEqual([
        'Tema Metropolitan Assembly',
        'Accra Metropolitan Assembly',
      ]);
      expect(res.body[0].region).toEqual({
        _id: expect.stringMatching(ID),
        name: 'Greater Accra',
        country: expect.stringMatching(ID),
      });
      expect(Object.keys(res.body[0]).sort()).toEqual(
        ['_id', 'name', 'region', 'digitalAddress', 'type', 'createdAt', 'updatedAt', '__v'].sort(),
      );
    });

    it('lists assembly users: all for an admin, its own assembly for an assembly key, never secrets', async () => {
      const admin = await http().get('/assembly/users').set('Authorization', f.keys.admin).expect(200);
      expect(admin.body.map((u: { _id: string }) => u._id).sort()).toEqual(
        [f.ids.assemblyUser, f.ids.otherAssemblyUser].sort(),
      );
      const own = await http().get('/assembly/users').set('Authorization', f.keys.assembly).expect(200);
      expect(own.body.map((u: { _id: string }) => u._id)).toEqual([f.ids.assemblyUser]);
      expect(Object.keys(own.body[0]).sort()).toEqual(
        [
          '_id',
          'assembly',
          'name',
          'email',
          'phone',
          'role',
          'disabledAt',
          'awaitingConfirmation',
          'language',
          'nationwide',
          'createdAt',
          'updatedAt',
          '__v',
        ].sort(),
      );
      await http().get('/assembly/users').set('Authorization', f.keys.merchantA).expect(403);
    });
  });

  describe('9. GET /payment/check_transaction', () => {
    it("returns the merchant's transaction in exactly the document's shape", async () => {
      const res = await http()
        .get('/payment/check_transaction?reference=REF-PAID')
        .set('Authorization', f.keys.merchantA)
        .expect(200);
      expect(Object.keys(res.body).sort()).toEqual(
        [
          '_id',
          'amount',
          'fees',
          'status',
          'requestType',
          'merchant',
          'description',
          'reference',
          'callBackUrl',
          'customerEmail',
          'customerName',
          'customerPhone',
          'requestInfo',
          'callBackInfo',
          'callBackTime',
          'createdAt',
          'updatedAt',
          '__v',
        ].sort(),
      );
      expect(res.body).toMatchObject({
        amount: 25.5,
        fees: 0.05,
        status: 'success',
        merchant: f.ids.merchantA,
        customerEmail: '',
        customerName: '',
        reference: 'REF-PAID',
      });
      expect(res.body.requestInfo).toMatchObject({
        ResponseCode: '0001',
        // Towards the provider the payment is named by its own id, never by the merchant's reference.
        Data: { ClientReference: res.body._id, Amount: 25.5 },
      });
      expect(res.body.callBackInfo).toMatchObject({
        ResponseCode: '0000',
        Data: { Amount: 25.5, ClientReference: res.body._id, ExternalTransactionId: 'e-1' },
      });
      expect(res.body.callBackTime).toMatch(ISO);
      const pending = await http()
        .get('/payment/check_transaction?reference=REF-PENDING')
        .set('Authorization', f.keys.merchantA)
        .expect(200);
      expect(pending.body.status).toBe('pending');
      expect(pending.body).not.toHaveProperty('callBackInfo');
      expect(pending.body).not.toHaveProperty('callBackTime');
    });

    it("answers another merchant's reference exactly like an unknown one (404)", async () => {
      const other = await http()
        .get('/payment/check_transaction?reference=REF-B-ONLY')
        .set('Authorization', f.keys.merchantA)
        .expect(404);
      const unknown = await http()
        .get('/payment/check_transaction?reference=NO-SUCH-REF')
        .set('Authorization', f.keys.merchantA)
        .expect(404);
      expect(other.body.code).toBe(unknown.body.code);
      expect(other.body.title).toBe(unknown.body.title);
      await http()
        .get('/payment/check_transaction?reference=REF-B-ONLY')
        .set('Authorization', f.keys.merchantB)
        .expect(200);
      await http().get('/payment/check_transaction?reference=REF-PAID').set('Authorization', f.keys.admin).expect(403);
      await http().get('/payment/check_transaction').set('Authorization', f.keys.merchantA).expect(400);
    });
  });

  describe('10. GET /trips/intracity/date', () => {
    const tickets = async (q: string) =>
      (await http().get(`/trips/intracity/date?${q}`).set('Authorization', f.keys.assembly).expect(200)).body.map(
        (t: { ticketNumber: string }) => t.ticketNumber,
      );

    it('includes a trip at 23:59 on endDate and excludes one at 00:00 the next day', async () => {
      expect(await tickets('startDate=2026-10-15&endDate=2026-10-15')).toEqual(['TKT-LATE', 'TKT-NOON']);
      expect(await tickets('startDate=2026-10-14&endDate=2026-10-16')).toEqual([
        'TKT-NEXT',
        'TKT-LATE',
        'TKT-NOON',
        'TKT-EARLY',
      ]);
      expect(await tickets('startDate=2026-10-15T12:00:00Z&endDate=2026-10-15T23:59:00Z')).toEqual([
        'TKT-LATE',
        'TKT-NOON',
      ]);
    });

    it('returns trips in the document shape, money in cedis', async () => {
      const [noon] = (
        await http()
          .get('/trips/intracity/date?startDate=2026-10-15&endDate=2026-10-15&limit=1&after=' + 'f'.repeat(24))
          .set('Authorization', f.keys.admin)
          .expect(200)
      ).body;
      expect(noon).toBeUndefined();
      const res = await http()
        .get('/trips/intracity/date?startDate=2026-10-15T12:00:00Z&endDate=2026-10-15T12:00:00Z')
        .set('Authorization', f.keys.admin)
        .expect(200);
      const trip = res.body[0];
      expect(trip).toMatchObject({
        ticketNumber: 'TKT-NOON',
        estimatedPrice: 26,
        finalPrice: 27.55,
        discount: 0.5,
        settledAmount: 27.05,
        cashPrice: 27.05,
        settled: true,
        checkedOut: true,
        paymentMethod: 'cash',
      });
      expect(trip.service).toMatchObject({
        ended: true,
        amount: 27.55,
        passengers: 1,
        pricing: { pricePerKm: 2.5, pricePerMinute: 0.3 },
        driver: { _id: f.ids.workingDriver },
        vehicle: { _id: f.ids.linkedVehicle },
      });
      expect(trip.pickupLocation).toEqual({ type: 'Point', coordinates: [-0.2166, 5.556] });
      expect(trip.checkOutTime).toMatch(ISO);
    });

    it.each([
      ['startDate=2026-10-16&endDate=2026-10-15', 'startDate must not be after endDate'],
      ['startDate=2026-02-30&endDate=2026-03-01', 'startDate is not a calendar date'],
      ['startDate=yesterday&endDate=2026-03-01', 'startDate must be YYYY-MM-DD'],
      ['startDate=2025-01-01&endDate=2026-01-03', 'at most 366 days'],
      ['startDate=2026-10-15', 'endDate'],
    ])('refuses %s', async (q, message) => {
      const res = await http()
        .get(`/trips/intracity/date?${q}`)
        .set('Authorization', f.keys.admin)
        .expect(400)
        .expect('content-type', PROBLEM);
      expect(JSON.stringify(res.body)).toContain(message);
    });
  });

  describe('credentials', () => {
    const protectedOps: Array<[string, string]> = [
      ['post', '/vehicles/add'],
      ['get', '/vehicles/owner/all'],
      ['get', '/vehicles/owner/search?query=kofi'],
      ['get', '/assembly/all'],
      ['get', '/assembly/users'],
      ['get', '/payment/check_transaction?reference=REF-PAID'],
      ['get', '/trips/intracity/date?startDate=2026-10-15&endDate=2026-10-15'],
    ];

    it.each(protectedOps)(
      '%s %s: 401 without a key, with an unknown key and with a revoked key',
      async (method, path) => {
        for (const auth of [undefined, 'tp_admin_' + 'x'.repeat(43), f.keys.revoked, 'Bearer ']) {
          let req = (http() as unknown as Record<string, (p: string) => request.Test>)[method](path);
          if (auth !== undefined) req = req.set('Authorization', auth);
          if (method === 'post') req = req.send({});
          const res = await req.expect(401).expect('content-type', PROBLEM);
          expect(res.headers['www-authenticate']).toBe('Bearer realm="transport"');
          expect(res.body).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
        }
      },
    );

    it.each([
      ['post', '/vehicles/add', 'merchantA'],
      ['get', '/vehicles/owner/all', 'merchantA'],
      ['get', '/vehicles/owner/search?query=kofi', 'merchantA'],
      ['get', '/assembly/users', 'merchantA'],
      ['get', '/payment/check_transaction?reference=REF-PAID', 'assembly'],
      ['get', '/trips/intracity/date?startDate=2026-10-15&endDate=2026-10-15', 'merchantA'],
    ] as const)('%s %s: 403 for a %s key', async (method, path, who) => {
      let req = (http() as unknown as Record<string, (p: string) => request.Test>)
        [method](path)
        .set('Authorization', f.keys[who]);
      if (method === 'post') req = req.send({});
      const res = await req.expect(403).expect('content-type', PROBLEM);
      expect(res.body.code).toBe('FORBIDDEN');
    });
  });
});
