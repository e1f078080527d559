import { Metrics } from '../src/core/observability/metrics';
import type { Bulkhead } from '../src/core/platform/bulkhead';
import { REGISTRATION_BULKHEAD } from '../src/drivers/drivers.controller';
import { SHED_DELAY_MS } from '../src/drivers/registration-shedding';
import { driverRegistration } from './support/api-fixtures';
import { appOnTier } from './support/app-on-tier';
import { describeOnEachTier } from './support/test-app';

/**
 * Issue 28's findings on drivers, over HTTP: who sees an activation key (nobody but the driver's phone), what an
 * anonymous registration can learn about owners and e-mails, how many it may make, what a stranger's wrong keys do to
 * the driver, and how guessable ids are.
 */
describeOnEachTier('driver registration and activation', (tier) => {
  const {
    running,
    fixture: f,
    http,
  } = appOnTier(tier, {
    fixture: true,
    config: (base) => ({
      ...base,
      trustProxy: 1,
      activation: { ...base.activation, registrationsPerAddress: 5, registrationsPerPhone: 2, maxDelaySeconds: 60 },
    }),
  });
  /** Without an API key, from a client address of one's choosing (one trusted proxy in front). */
  const anonymous = (from: string) => ({
    post: (path: string) => http().post(path).set('X-Forwarded-For', from),
  });
  let phones = 0;
  /** A registration with its own e-mail and phone number. */
  const fresh = (over: Record<string, unknown> = {}) => {
    phones += 1;
    const n = String(phones).padStart(3, '0');
    return driverRegistration({ email: `fresh${n}.${tier}@example.com`, phone: `0207000${n}`, ...over });
  };
  /** The last text message sent to a phone number (the outbox stands in for the SMS gateway in tests). */
  const lastMessageTo = async (phone: string) =>
    (await running.database.prisma.outboxMessage.findFirst({ where: { to: phone }, orderBy: { id: 'desc' } }))?.text;
  const keyIn = (text: string | undefined) => /(\d{6})/.exec(text ?? '')?.[1];

  it("sends the activation key to the driver's phone only: neither an anonymous caller nor staff see it", async () => {
    for (const [who, send] of [
      ['anonymous', (body: object) => anonymous('198.51.100.10').post('/drivers/add').send(body)],
      ['staff', (body: object) => http().post('/drivers/add').set('Authorization', f.keys.assembly).send(body)],
    ] as const) {
      const body = fresh();
      const res = await send(body);
      expect({ who, status: res.status }).toEqual({ who, status: 201 });
      expect(res.body.activationKeySent).toBe(true);
      expect(JSON.stringify(res.body)).not.toMatch(/activationKey"/);
      const key = keyIn(await lastMessageTo(res.body.payload.phone));
      expect(key).toMatch(/^\d{6}$/);
      expect(JSON.stringify(res.body)).not.toContain(key);
      const read = await http().get(`/drivers/${res.body.payload._id}`).set('Authorization', f.keys.admin).expect(200);
      expect(JSON.stringify(read.body)).not.toContain(key);
      await anonymous('198.51.100.11')
        .post(`/drivers/${res.body.payload._id}/activate`)
        .send({ activationKey: key })
        .expect(200);
    }
  });

  it('answers an owner of another assembly exactly as an owner that does not exist, and writes nothing', async () => {
    const elsewhere = await http()
      .post('/vehicles/owner/add')
      .set('Authorization', f.keys.otherAssembly)
      .send({
        name: 'Esi Tema',
        phone: '0244999000',
        email: `esi.${tier}@example.com`,
        idType: 'ghana_card',
        idNumber: 'GHA-TEMA-1',
      })
      .expect(201);
    const otherOwner = elsewhere.body.payload?._id ?? elsewhere.body._id;
    const before = await running.database.prisma.driver.count();
    const answers = [];
    for (const ownerID of [otherOwner, '65a0000000000000000000ff']) {
      const res = await anonymous('198.51.100.20')
        .post('/drivers/add')
        .send(fresh({ ownerID, assembly: f.ids.assembly }));
      answers.push({
        status: res.status,
        code: res.body.code,
        detail: String(res.body.detail).replace(ownerID, '<id>'),
        errors: JSON.stringify(res.body.errors).replace(ownerID, '<id>'),
      });
    }
    expect(answers[0]).toEqual(answers[1]);
    expect(answers[0]).toMatchObject({ status: 422, code: 'OWNER_NOT_FOUND' });
    expect(await running.database.prisma.driver.count()).toBe(before);
    // Staff of the first assembly are refused that owner too.
    await http()
      .post('/drivers/add')
      .set('Authorization', f.keys.assembly)
      .send(fresh({ ownerID: otherOwner }))
      .expect(422);
  });

  /** What a registration's answer shows of itself: whether the e-mail was taken must not change any of it. */
  const shapeOf = (res: { status: number; body: { payload?: object; activationKeySent?: unknown } }) => ({
    status: res.status,
    fields: Object.keys(res.body).sort(),
    payload: Object.keys(res.body.payload ?? {}).sort(),
    activationKeySent: res.body.activationKeySent,
  });
  /** Registers anonymously and activates with the key texted to the phone; the activation's answer. */
  const registerAndActivate = async (body: Record<string, unknown>, from: string) => {
    const res = await anonymous(from).post('/drivers/add').send(body).expect(201);
    const key = keyIn(await lastMessageTo(res.body.payload.phone));
    return {
      id: res.body.payload._id as string,
      activation: await anonymous(from).post(`/drivers/${res.body.payload._id}/activate`).send({ activationKey: key }),
    };
  };

  it("registers an anonymous driver with a taken e-mail like any other; only the phone's owner learns it at activation", async () => {
    const taken = fresh();
    expect((await registerAndActivate(taken, '198.51.100.30')).activation.status).toBe(200);
    const withFresh = await anonymous('198.51.100.31').post('/drivers/add').send(fresh());
    const duplicate = { ...fresh({ assembly: f.ids.assembly }), email: String(taken.email).toUpperCase() };
    const withTaken = await anonymous('198.51.100.32').post('/drivers/add').send(duplicate);
    expect(shapeOf(withTaken)).toEqual(shapeOf(withFresh));
    expect(shapeOf(withTaken)).toMatchObject({ status: 201, activationKeySent: true });
    const id = withTaken.body.payload._id;
    const listed = await http().get('/drivers/all?limit=100').expect(200);
    expect(listed.body.payload.map((d: { _id: string }) => d._id)).toContain(id);
    // An owner that does not exist is refused the same with a taken e-mail as with a fresh one: nothing to walk.
    for (const email of [taken.email, undefined]) {
      const res = await anonymous('198.51.100.33')
        .post('/drivers/add')
        .send({ ...fresh({ assembly: f.ids.assembly, ownerID: '65a0000000000000000000ff' }), ...(email && { email }) });
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 422, code: 'OWNER_NOT_FOUND' });
    }
    const key = keyIn(await lastMessageTo(withTaken.body.payload.phone));
    const refused = await anonymous('198.51.100.34').post(`/drivers/${id}/activate`).send({ activationKey: key });
    expect({ status: refused.status, code: refused.body.code }).toEqual({ status: 409, code: 'DRIVER_EMAIL_TAKEN' });
    expect(refused.body.detail).toMatch(/register again with your own e-mail/);
    const read = await http().get(`/drivers/${id}`).set('Authorization', f.keys.admin).expect(200);
    expect(read.body.verified).toBe(false);
    // Staff (authenticated, accountable) are still told at registration.
    const byStaff = await http()
      .post('/drivers/add')
      .set('Authorization', f.keys.assembly)
      .send({ ...fresh(), email: taken.email });
    expect({ status: byStaff.status, code: byStaff.body.code }).toEqual({ status: 409, code: 'DRIVER_EMAIL_TAKEN' });
  });

  it('lets two pending registrations share an e-mail: the first activated holds it, the other is refused', async () => {
    const email = fresh().email;
    const first = await anonymous('198.51.100.35')
      .post('/drivers/add')
      .send({ ...fresh(), email })
      .expect(201);
    const second = await anonymous('198.51.100.36')
      .post('/drivers/add')
      .send({ ...fresh(), email })
      .expect(201);
    // Staff are refused an e-mail a pending driver holds too.
    await http()
      .post('/drivers/add')
      .set('Authorization', f.keys.assembly)
      .send({ ...fresh(), email })
      .expect(409);
    const activate = async (res: typeof first, from: string) =>
      anonymous(from)
        .post(`/drivers/${res.body.payload._id}/activate`)
        .send({ activationKey: keyIn(await lastMessageTo(res.body.payload.phone)) });
    expect((await activate(first, '198.51.100.37')).status).toBe(200);
    const refused = await activate(second, '198.51.100.38');
    expect({ status: refused.status, code: refused.body.code }).toEqual({ status: 409, code: 'DRIVER_EMAIL_TAKEN' });
  });

  it("shows another assembly's owner embedded in a driver by its id only", async () => {
    const driver = await http()
      .post('/drivers/add')
      .set('Authorization', f.keys.admin)
      .send(fresh({ ownerID: f.ids.owners[0], assembly: f.ids.assembly }))
      .expect(201);
    const id = driver.body.payload._id;
    await http()
      .post(`/drivers/${id}/transfer`)
      .set('Authorization', f.keys.admin)
      .send({ assembly: f.ids.otherAssembly })
      .expect(200);
    const staffOfNewAssembly = await http()
      .get(`/drivers/${id}`)
      .set('Authorization', f.keys.otherAssembly)
      .expect(200);
    expect(staffOfNewAssembly.body.ownerID).toEqual({ _id: f.ids.owners[0] });
    const listed = await http().get('/drivers/all?limit=500').set('Authorization', f.keys.otherAssembly).expect(200);
    const row = listed.body.payload.find((d: { _id: string }) => d._id === id);
    expect(row.ownerID).toEqual({ _id: f.ids.owners[0] });
    const admin = await http().get(`/drivers/${id}`).set('Authorization', f.keys.admin).expect(200);
    expect(admin.body.ownerID).toMatchObject({ _id: f.ids.owners[0], name: 'Kofi Asante', phone: '+233244123450' });
  });

  it('limits registrations without a key per address (an hour) and per phone (a day), with Retry-After', async () => {
    const from = '198.51.100.40';
    for (let i = 0; i < 5; i++) await anonymous(from).post('/drivers/add').send(fresh()).expect(201);
    const past = await anonymous(from).post('/drivers/add').send(fresh()).expect(429);
    expect(Number(past.headers['retry-after'])).toBeGreaterThan(0);
    expect(past.body.code).toBe('RATE_LIMITED');
    const phone = '0207999123';
    await anonymous('198.51.100.41').post('/drivers/add').send(fresh({ phone })).expect(201);
    await anonymous('198.51.100.42').post('/drivers/add').send(fresh({ phone })).expect(201);
    await anonymous('198.51.100.43').post('/drivers/add').send(fresh({ phone })).expect(429);
    // A key is no anonymous caller: staff register past those limits.
    await http().post('/drivers/add').set('Authorization', f.keys.assembly).send(fresh({ phone })).expect(201);
  });

  it("never delays the driver's own phone for a stranger's wrong keys from another address", async () => {
    const res = await anonymous('198.51.100.50').post('/drivers/add').send(fresh()).expect(201);
    const id = res.body.payload._id;
    const key = keyIn(await lastMessageTo(res.body.payload.phone));
    const stranger = anonymous('203.0.113.66');
    await stranger.post(`/drivers/${id}/activate`).send({ activationKey: '000000' }).expect(422);
    const held = await anonymous('203.0.113.66')
      .post(`/drivers/${id}/activate`)
      .send({ activationKey: key })
      .expect(429);
    expect(Number(held.headers['retry-after'])).toBeGreaterThan(0);
    await anonymous('198.51.100.51').post(`/drivers/${id}/activate`).send({ activationKey: key }).expect(200);
  });

  it('voids an unused key when the phone is corrected; only an approver may send a new one', async () => {
    const driver = await http()
      .post('/drivers/add')
      .set('Authorization', f.keys.otherAssembly)
      .send(fresh())
      .expect(201);
    const id = driver.body.payload._id;
    const oldKey = keyIn(await lastMessageTo(driver.body.payload.phone));
    const corrected = await http()
      .post(`/drivers/${id}/correct`)
      .set('Authorization', f.keys.admin)
      .set('If-Match', '0')
      .send({ phone: '0207555444' })
      .expect(200);
    await anonymous('198.51.100.60').post(`/drivers/${id}/activate`).send({ activationKey: oldKey }).expect(422);
    // The other assembly's key is an inspector's: sending keys is an approver's duty.
    const refused = await http().post(`/drivers/${id}/activation-key`).set('Authorization', f.keys.otherAssembly);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('DUTY_NOT_ALLOWED');
    // Whoever corrected the number may not send the key to it (separation of duties): another approver does.
    const own = await http().post(`/drivers/${id}/activation-key`).set('Authorization', f.keys.admin).expect(422);
    expect(own.body.code).toBe('DRIVER_KEY_SENDER_SET_PHONE');
    const secondAdmin = await http()
      .post('/admin/keys')
      .set('Authorization', f.keys.admin)
      .send({ role: 'admin', principal: '65a0000000000000000000d1', label: 'second admin' })
      .expect(201);
    await http().post(`/drivers/${id}/activation-key`).set('Authorization', secondAdmin.body.key).expect(200);
    const newKey = keyIn(await lastMessageTo(corrected.body.phone));
    expect(newKey).not.toBe(oldKey);
    await anonymous('198.51.100.61').post(`/drivers/${id}/activate`).send({ activationKey: newKey }).expect(200);
  });

  it('gives ids whose 8 bytes after the timestamp are random, so one id does not lead to the next', async () => {
    const made: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await http().post('/drivers/add').set('Authorization', f.keys.admin).send(fresh()).expect(201);
      made.push(res.body.payload._id);
    }
    // MongoDB's layout shares 5 bytes between ids of one process and counts up in the last 3.
    expect(new Set(made.map((id) => id.slice(8, 18))).size).toBe(3);
    for (let i = 1; i < made.length; i++)
      expect(parseInt(made[i].slice(18), 16) - parseInt(made[i - 1].slice(18), 16)).not.toBe(1);
  });

  it('works on two anonymous registrations at once with two waiting, and answers the rest of a flood 429 at once', async () => {
    // From 24 addresses, each under its own limit: only the instance's bulkhead stands between them and the pool.
    const answers = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        anonymous(`203.0.113.${100 + i}`)
          .post('/drivers/add')
          .send(fresh()),
      ),
    );
    const statuses = answers.map((res) => res.status);
    expect(statuses.every((status) => status === 201 || status === 429)).toBe(true);
    expect(statuses.filter((status) => status === 201).length).toBeGreaterThanOrEqual(4);
    const shed = answers.filter((res) => res.status === 429);
    expect(shed.length).toBeGreaterThan(0);
    for (const res of shed) {
      expect(res.headers['retry-after']).toBe('1');
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.body).toMatchObject({
        code: 'RATE_LIMITED',
        detail: expect.stringMatching(/registrations are being/),
      });
    }
    // Staff are not held by it.
    const staff = await Promise.all(
      Array.from({ length: 6 }, () => http().post('/drivers/add').set('Authorization', f.keys.assembly).send(fresh())),
    );
    expect(staff.map((res) => res.status)).toEqual(Array(6).fill(201));
  });

  it('refuses a registration without a key from its headers alone while the bulkhead is full: no body read, no route', async () => {
    // Fill the instance's bulkhead (two at work, two waiting) with registrations that end when told to.
    const bulkhead = running.app.get<Bulkhead>(REGISTRATION_BULKHEAD);
    let open!: () => void;
    const held = new Promise<void>((resolve) => (open = resolve));
    const holding = Array.from({ length: 4 }, () => bulkhead.run(() => held));
    try {
      expect(bulkhead.saturated).toBe(true);
      // A body that is not even JSON: the pipeline would answer 400; at the door it is never read. The answer is held
      // a quarter second (SHED_DELAY_MS), so a client posting again at once cannot make the instance answer faster.
      const sentAt = Date.now();
      const shed = await anonymous('203.0.113.200')
        .post('/drivers/add')
        .set('Content-Type', 'application/json')
        .set('X-Request-Id', 'flood-probe-1')
        .send('{"name": "not json');
      expect(shed.status).toBe(429);
      expect(Date.now() - sentAt).toBeGreaterThanOrEqual(SHED_DELAY_MS - 10);
      expect(shed.headers['retry-after']).toBe('1');
      expect(shed.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(shed.headers['x-request-id']).toBe('flood-probe-1');
      expect(shed.headers['x-content-type-options']).toBe('nosniff');
      expect(shed.body).toEqual({
        type: 'urn:transport:problem:rate-limited',
        title: 'Too Many Requests',
        status: 429,
        code: 'RATE_LIMITED',
        detail: expect.stringMatching(/registrations are being/),
        instance: 'urn:transport:request:flood-probe-1',
      });
      // Express's routing of the path (any case, a trailing slash) is matched the same way.
      await anonymous('203.0.113.201').post('/Drivers/Add/').send(fresh()).expect(429);
      // Reads are not held, nor are staff with a key, and a forged key is still the guard's 401.
      await http().get('/vehicles/all').expect(200);
      await http().post('/drivers/add').set('Authorization', f.keys.assembly).send(fresh()).expect(201);
      await anonymous('203.0.113.202')
        .post('/drivers/add')
        .set('Authorization', 'tp_admin_forged')
        .send(fresh())
        .expect(401);
      const metrics = await running.app.get(Metrics).registry.metrics();
      expect(metrics).toMatch(
        /http_request_duration_seconds_count\{method="POST",route="\/drivers\/add",status_code="429"\} [1-9]/,
      );
    } finally {
      open();
      await Promise.all(holding);
    }
    expect(bulkhead.saturated).toBe(false);
    await anonymous('203.0.113.203').post('/drivers/add').send(fresh()).expect(201);
  });
});
