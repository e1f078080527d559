import { ANONYMOUS_ACTOR, type Actor, type DomainError, type DriverRegistration } from '@transport/domain';
import { passedDriverChecklist } from '@transport/domain/testing';
import {
  ADMIN,
  APPROVER,
  CountingRateLimits,
  driverInput,
  fakePorts,
  INSPECTOR,
  OTHER_ASSEMBLY,
  OUTSIDER,
  ownerInput,
  PLATFORM,
  STAFF_ASSEMBLY,
} from '../core/testing/fixtures';
import { OwnersService } from '../owners/owners.service';
import { driversOnFakes, registerAndReadKey } from './drivers.testing';

function setup() {
  const p = fakePorts();
  return {
    ...p,
    drivers: driversOnFakes(p),
    owners: new OwnersService(p.uow, p.stores, p.clock, p.ids),
  };
}

async function activeApproved(s: ReturnType<typeof setup>) {
  const driver = await register(s, driverInput(), INSPECTOR);
  await s.drivers.activate(driver._id, driver.activationKey!, INSPECTOR, '203.0.113.7');
  return s.drivers.approve(driver._id, passedDriverChecklist, APPROVER);
}

/** Registers through the service; the key is read from the message the driver's phone got (nobody else sees it). */
const register = (s: ReturnType<typeof setup>, input: DriverRegistration, actor: Actor) =>
  registerAndReadKey(s, s.drivers, input, actor);

const auditOf = (s: ReturnType<typeof setup>, id: string) => s.uow.audit.entries.filter((e) => e.entityId === id);

describe('DriversService on fakes', () => {
  it("registers a driver with a six-digit key sent to the driver's phone only; the audit never holds the key or its hash", async () => {
    const s = setup();
    const { driver: answered } = await s.drivers.register(driverInput(), INSPECTOR, '198.51.100.1');
    expect(JSON.stringify(answered)).not.toMatch(/activationKey/);
    const driver = await register(s, driverInput({ email: 'second@example.com' }), INSPECTOR);
    expect(driver).toMatchObject({ approved: false, verified: false, activationKey: expect.stringMatching(/^\d{6}$/) });
    expect(JSON.stringify(await s.drivers.get(driver._id, ADMIN))).not.toContain(driver.activationKey);
    const [entry] = auditOf(s, driver._id);
    expect(entry.action).toBe('DriverRegistered');
    expect(JSON.stringify(entry)).not.toContain('activationKeyHash');
    expect(JSON.stringify(entry)).not.toContain(driver.activationKey!);
  });

  it('embeds the owner, and refuses an owner that does not exist (OWNER_NOT_FOUND) writing nothing', async () => {
    const s = setup();
    const owner = await s.owners.add(ownerInput(), INSPECTOR);
    expect(await register(s, driverInput({ ownerId: owner._id }), INSPECTOR)).toMatchObject({
      ownerID: { _id: owner._id, name: 'Kofi Asante' },
    });
    await expect(
      register(s, driverInput({ email: 'other@example.com', ownerId: '65a0000000000000000000ff' }), INSPECTOR),
    ).rejects.toMatchObject({ code: 'OWNER_NOT_FOUND' });
    expect((await s.drivers.list({}, { limit: 10 }, ADMIN)).items).toHaveLength(1);
  });

  it("lists summaries: the list's page in the public's fields, without the owner, within the jurisdiction", async () => {
    const envelope = (r: { createdAt: string; updatedAt: string; __v: number }) => ({
      createdAt: r.createdAt,
      updatedAt: r.updatedAt,
      __v: r.__v,
    });
    const s = setup();
    const owner = await s.owners.add(ownerInput(), INSPECTOR);
    const first = await register(s, driverInput({ ownerId: owner._id }), INSPECTOR);
    s.clock.advance(1000);
    const second = await register(s, driverInput({ email: 'second@example.com', name: 'Ama Owusu' }), INSPECTOR);
    const whole = await s.drivers.list({}, { limit: 10, count: true }, ADMIN);
    const summaries = await s.drivers.listSummaries({}, { limit: 10, count: true }, ANONYMOUS_ACTOR);
    expect(summaries).toEqual({
      // With the envelope every record has (times and revision), as the whole record shows it.
      items: [
        { _id: second._id, name: 'Ama Owusu', approved: false, ...envelope(whole.items[0]) },
        { _id: first._id, name: whole.items[1].name, approved: false, ...envelope(whole.items[1]) },
      ],
      total: 2,
    });
    expect(whole.items[1].ownerID).toMatchObject({ _id: owner._id });
    expect((await s.drivers.listSummaries({ email: 'SECOND@example.com' }, { limit: 10 }, ADMIN)).items).toEqual([
      expect.objectContaining({ _id: second._id }),
    ]);
    expect((await s.drivers.listSummaries({}, { limit: 10 }, OUTSIDER)).items).toEqual([]);
  });

  it('refuses staff a second driver with the same email in any case, activated or not (DRIVER_EMAIL_TAKEN)', async () => {
    const s = setup();
    await register(s, driverInput(), INSPECTOR);
    await expect(register(s, driverInput({ email: 'KOJO.ANTWI@example.com' }), INSPECTOR)).rejects.toMatchObject({
      code: 'DRIVER_EMAIL_TAKEN',
      kind: 'conflict',
    });
  });

  it("registers the driver's own second registration with a taken email; its activation is refused, nothing saved", async () => {
    const s = setup();
    const first = await register(s, driverInput(), ANONYMOUS_ACTOR);
    const second = await register(
      s,
      driverInput({ email: 'KOJO.ANTWI@example.com', phone: '0201112222' }),
      ANONYMOUS_ACTOR,
    );
    expect(second._id).not.toBe(first._id);
    await s.drivers.activate(first._id, first.activationKey, ANONYMOUS_ACTOR, '203.0.113.7');
    await expect(
      s.drivers.activate(second._id, second.activationKey, ANONYMOUS_ACTOR, '203.0.113.8'),
    ).rejects.toMatchObject({ code: 'DRIVER_EMAIL_TAKEN', message: expect.stringMatching(/your own e-mail/) });
    expect((await s.drivers.get(second._id, ADMIN)).verified).toBe(false);
    // A wrong key is still a wrong key: the e-mail is told to whoever holds the key only.
    await expect(s.drivers.activate(second._id, '000000', ANONYMOUS_ACTOR, '203.0.113.9')).rejects.toMatchObject({
      code: 'DRIVER_ACTIVATION_KEY_INVALID',
    });
  });

  it('answers two activations at once with the same 409: the store refuses the second activated email', async () => {
    const s = setup();
    const first = await register(s, driverInput(), ANONYMOUS_ACTOR);
    const second = await register(s, driverInput({ phone: '0201112222' }), ANONYMOUS_ACTOR);
    await s.drivers.activate(first._id, first.activationKey, ANONYMOUS_ACTOR, '203.0.113.7');
    // The other activation read the e-mail as free before the first was saved.
    s.uow.repositories.drivers.findByEmail = async () => [];
    await expect(
      s.drivers.activate(second._id, second.activationKey, ANONYMOUS_ACTOR, '203.0.113.8'),
    ).rejects.toMatchObject({ code: 'DRIVER_EMAIL_TAKEN', message: expect.stringMatching(/your own e-mail/) });
  });

  it('refuses staff an email correction to one another driver has, activated or awaiting activation', async () => {
    const s = setup();
    const pending = await register(s, driverInput({ email: 'pending@example.com' }), ANONYMOUS_ACTOR);
    const other = await register(s, driverInput({ phone: '0201112222' }), INSPECTOR);
    await expect(s.drivers.correct(other._id, { email: 'Pending@example.com' }, INSPECTOR, 0)).rejects.toMatchObject({
      code: 'DRIVER_EMAIL_TAKEN',
    });
    expect((await s.drivers.correct(pending._id, { email: 'PENDING@example.com' }, INSPECTOR, 0)).email).toBe(
      'pending@example.com',
    );
  });

  it('saves a wrong key with its delay, refuses a try before it (429, not counted), and never locks the driver out', async () => {
    const s = setup();
    const driver = await register(s, driverInput(), INSPECTOR);
    await expect(s.drivers.activate(driver._id, '000000', INSPECTOR, '203.0.113.7')).rejects.toMatchObject({
      code: 'DRIVER_ACTIVATION_KEY_INVALID',
    });
    expect((await s.stores.drivers.findById(driver._id))?.toState().activationAttempts).toBe(1);
    const early = await s.drivers.activate(driver._id, driver.activationKey!, INSPECTOR, '203.0.113.7').catch((e) => e);
    expect(early).toMatchObject({ code: 'RATE_LIMITED', status: 429, extra: { retryAfter: 1 } });
    expect((await s.stores.drivers.findById(driver._id))?.toState().activationAttempts).toBe(1);
    s.clock.advance(1000);
    expect(await s.drivers.activate(driver._id, driver.activationKey!, INSPECTOR, '203.0.113.7')).toMatchObject({
      verified: true,
    });
    expect(s.limits.used.get(`activation-driver:${driver._id}:plain:address:203.0.113.7`)).toBe(3);
    expect(s.limits.used.get('activation-address:203.0.113.7')).toBe(3);
  });

  it("sends a reissued key to the driver's phone, never to the staff who asked for it", async () => {
    const s = setup();
    const driver = await register(s, driverInput(), INSPECTOR);
    const reissued = await s.drivers.reissueActivationKey(driver._id, ADMIN);
    expect(reissued).not.toHaveProperty('activationKey');
    expect(s.messages.sent).toHaveLength(2);
    const message = s.messages.sent[1];
    expect(message.to).toBe('+233244555666');
    const key = /(\d{6})/.exec(message.text)?.[1];
    expect(message.text).toContain('24 hours');
    expect(JSON.stringify(reissued)).not.toContain(key);
    expect(await s.drivers.activate(driver._id, key!, INSPECTOR, '203.0.113.7')).toMatchObject({ verified: true });
    await expect(s.drivers.activate(driver._id, key!, INSPECTOR, '203.0.113.7')).rejects.toMatchObject({
      code: 'DRIVER_ALREADY_ACTIVATED',
    });
    s.messages.fail = true;
    // A registration whose key could not be sent still registers the driver, and says so; a reissue fails (502).
    const other = await s.drivers.register(driverInput({ email: 'other@example.com' }), INSPECTOR, '198.51.100.1');
    expect(other.activationKeySent).toBe(false);
    expect(await s.drivers.get(other.driver._id, ADMIN)).toMatchObject({ verified: false });
    await expect(s.drivers.reissueActivationKey(other.driver._id, ADMIN)).rejects.toMatchObject({
      code: 'MESSAGE_NOT_SENT',
    });
  });

  it('approves with the four checks once, revokes with a reason, and refuses a failed checklist', async () => {
    const s = setup();
    const driver = await register(s, driverInput(), INSPECTOR);
    await s.drivers.activate(driver._id, driver.activationKey!, INSPECTOR, '203.0.113.7');
    await expect(
      s.drivers.approve(driver._id, { ...passedDriverChecklist, canUseMap: false }, APPROVER),
    ).rejects.toMatchObject({ code: 'DRIVER_CHECKLIST_FAILED' });
    const approved = await s.drivers.approve(driver._id, passedDriverChecklist, APPROVER);
    expect(approved).toMatchObject({ approved: true, approvalChecklist: passedDriverChecklist });
    await expect(s.drivers.approve(driver._id, passedDriverChecklist, APPROVER)).rejects.toMatchObject({
      code: 'DRIVER_ALREADY_APPROVED',
    });
    expect(await s.drivers.revoke(driver._id, 'Complaints', APPROVER)).toMatchObject({ approved: false });
    expect(auditOf(s, driver._id).map((e) => e.action)).toEqual([
      'DriverRegistered',
      'DriverActivated',
      'DriverApproved',
      'DriverApprovalRevoked',
    ]);
  });

  it('sets status as the platform reports it; the current state again writes nothing; busy offline is refused', async () => {
    const s = setup();
    const driver = await activeApproved(s);
    expect(await s.drivers.setStatus(driver._id, { online: true, busy: true }, PLATFORM)).toMatchObject({
      online: true,
      busy: true,
    });
    const entries = auditOf(s, driver._id).length;
    await s.drivers.setStatus(driver._id, { online: true }, PLATFORM);
    expect(auditOf(s, driver._id)).toHaveLength(entries);
    await expect(s.drivers.setStatus(driver._id, { online: false }, PLATFORM)).rejects.toMatchObject({
      code: 'DRIVER_BUSY',
    });
    expect(await s.drivers.setStatus(driver._id, { online: false, busy: false }, PLATFORM)).toMatchObject({
      online: false,
      busy: false,
    });
  });

  it('refuses unknown drivers and stale revisions', async () => {
    const s = setup();
    const driver = await register(s, driverInput(), INSPECTOR);
    await expect(s.drivers.get('65a0000000000000000000ff', ADMIN)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(s.drivers.revoke(driver._id, 'x', APPROVER, 9)).rejects.toMatchObject({ code: 'CONCURRENT_UPDATE' });
  });

  it("lists newest first, each driver whole with its owner (what a caller sees is the route's view)", async () => {
    const s = setup();
    const owner = await s.owners.add(ownerInput(), INSPECTOR);
    await register(s, driverInput({ ownerId: owner._id }), INSPECTOR);
    const [full] = (await s.drivers.list({ email: 'KOJO.ANTWI@example.com' }, { limit: 10 }, ADMIN)).items;
    expect(full).toMatchObject({ phone: '+233244555666', ownerID: { phone: '+233244123456' } });
    expect((await s.drivers.list({ approved: true }, { limit: 10 }, ADMIN)).items).toEqual([]);
  });

  it("refuses another assembly's owner exactly as a missing one, for staff and anonymous callers, writing nothing", async () => {
    const s = setup();
    const elsewhere = await s.owners.add(ownerInput(), OUTSIDER);
    const refusals = [];
    for (const [ownerId, actor, assemblyId] of [
      [elsewhere._id, INSPECTOR, undefined],
      ['65a0000000000000000000ff', INSPECTOR, undefined],
      [elsewhere._id, ANONYMOUS_ACTOR, STAFF_ASSEMBLY],
      ['65a0000000000000000000ff', ANONYMOUS_ACTOR, STAFF_ASSEMBLY],
    ] as const) {
      const refusal = await s.drivers
        .register(driverInput({ ownerId, assemblyId }), actor, '198.51.100.1')
        .catch((e: DomainError) => ({ code: e.code, message: e.message.replace(ownerId, '<id>') }));
      refusals.push(refusal);
    }
    expect(new Set(refusals.map((r) => JSON.stringify(r))).size).toBe(1);
    expect(refusals[0]).toMatchObject({ code: 'OWNER_NOT_FOUND' });
    expect((await s.drivers.list({}, { limit: 10 }, ADMIN)).items).toEqual([]);
  });

  it('answers staff a taken e-mail before it looks at the owner; the driver alike whether the e-mail is taken', async () => {
    const s = setup();
    await register(s, driverInput(), INSPECTOR);
    for (const ownerId of [undefined, '65a0000000000000000000ff']) {
      await expect(
        s.drivers.register(driverInput({ ownerId, phone: '0201112222' }), INSPECTOR, '198.51.100.1'),
      ).rejects.toMatchObject({ code: 'DRIVER_EMAIL_TAKEN' });
    }
    const own = async (email: string) =>
      s.drivers
        .register(
          driverInput({ email, ownerId: '65a0000000000000000000ff', phone: '0201113333' }),
          ANONYMOUS_ACTOR,
          '198.51.100.2',
        )
        .catch((error: DomainError) => error.code);
    expect(await own('kojo.antwi@example.com')).toBe('OWNER_NOT_FOUND');
    expect(await own('fresh@example.com')).toBe('OWNER_NOT_FOUND');
  });

  it("shows an owner outside the reader's jurisdiction by its id only", async () => {
    const s = setup();
    const owner = await s.owners.add(ownerInput(), INSPECTOR);
    const driver = await register(s, driverInput({ ownerId: owner._id }), INSPECTOR);
    const moved = await s.drivers.transfer(driver._id, OTHER_ASSEMBLY, ADMIN);
    expect(moved.ownerID).toMatchObject({ _id: owner._id, name: 'Kofi Asante', phone: '+233244123456' });
    expect((await s.drivers.get(driver._id, OUTSIDER)).ownerID).toEqual({ _id: owner._id });
    expect((await s.drivers.list({}, { limit: 10 }, OUTSIDER)).items[0].ownerID).toEqual({ _id: owner._id });
    expect((await s.drivers.list({}, { limit: 10 }, ADMIN)).items[0].ownerID).toMatchObject({ name: 'Kofi Asante' });
  });

  it('counts registrations without a key per address and per phone, and staff registrations in neither', async () => {
    const s = setup();
    const limits = new CountingRateLimits({ 'registration-address': 2, 'registration-phone': 1 });
    const drivers = driversOnFakes({ ...s, limits });
    const anonymous = (n: number, phone: string) =>
      drivers.register(driverInput({ email: `d${n}@example.com`, phone }), ANONYMOUS_ACTOR, '198.51.100.1');
    await anonymous(1, '0201000001');
    await expect(anonymous(2, '0201000001')).rejects.toMatchObject({ code: 'RATE_LIMITED' });
    await expect(anonymous(3, '0201000003')).rejects.toMatchObject({ code: 'RATE_LIMITED' });
    await drivers.register(driverInput({ email: 'staff@example.com', phone: '0201000001' }), INSPECTOR, '198.51.100.1');
    expect(limits.used.get('registration-address:198.51.100.1')).toBe(3);
    expect(limits.used.get('registration-phone:+233201000001')).toBe(2);
  });

  it('voids an unused key when the phone is corrected; an approver sends a new one to the new number', async () => {
    const s = setup();
    const driver = await register(s, driverInput(), INSPECTOR);
    const corrected = await s.drivers.correct(driver._id, { phone: '0207778888' }, INSPECTOR, 0);
    await expect(s.drivers.activate(driver._id, driver.activationKey, INSPECTOR, '203.0.113.7')).rejects.toMatchObject({
      code: 'DRIVER_ACTIVATION_KEY_EXPIRED',
    });
    expect(auditOf(s, driver._id).map((e) => e.action)).toContain('DriverActivationKeyVoided');
    await expect(s.drivers.reissueActivationKey(driver._id, INSPECTOR)).rejects.toMatchObject({
      code: 'DUTY_NOT_ALLOWED',
    });
    await s.drivers.reissueActivationKey(driver._id, APPROVER);
    const message = s.messages.sent.at(-1);
    expect(message?.to).toBe(corrected.phone);
    const key = /(\d{6})/.exec(message?.text ?? '')?.[1] ?? '';
    expect(await s.drivers.activate(driver._id, key, INSPECTOR, '203.0.113.7')).toMatchObject({ verified: true });
  });

  it('refuses the approver who set the phone the key to it, writing nothing (separation of duties)', async () => {
    const s = setup();
    const driver = await register(s, driverInput(), INSPECTOR);
    await s.drivers.correct(driver._id, { phone: '0207778888' }, APPROVER, 0);
    const entries = auditOf(s, driver._id).length;
    const sent = s.messages.sent.length;
    await expect(s.drivers.reissueActivationKey(driver._id, APPROVER)).rejects.toMatchObject({
      code: 'DRIVER_KEY_SENDER_SET_PHONE',
    });
    expect([auditOf(s, driver._id).length, s.messages.sent.length]).toEqual([entries, sent]);
  });

  it("does not delay the driver's own phone for a stranger's wrong keys", async () => {
    const s = setup();
    const driver = await register(s, driverInput(), INSPECTOR);
    for (let i = 0; i < 5; i++)
      await s.drivers.activate(driver._id, '000000', ANONYMOUS_ACTOR, '203.0.113.66').catch(() => undefined);
    await expect(
      s.drivers.activate(driver._id, driver.activationKey, ANONYMOUS_ACTOR, '203.0.113.66'),
    ).rejects.toMatchObject({ code: 'RATE_LIMITED' });
    expect(await s.drivers.activate(driver._id, driver.activationKey, ANONYMOUS_ACTOR, '198.51.100.9')).toMatchObject({
      verified: true,
    });
  });
});
