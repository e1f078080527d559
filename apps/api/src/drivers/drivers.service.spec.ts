import {
  ADMIN,
  APPROVER,
  driverInput,
  fakePorts,
  INSPECTOR,
  ownerInput,
  passedDriverChecklist,
  PLATFORM,
} from '../core/testing/fixtures';
import { OwnersService } from '../owners/owners.service';
import { DriversService } from './drivers.service';

function setup() {
  const p = fakePorts();
  return {
    ...p,
    drivers: new DriversService(p.uow, p.stores, p.clock, p.ids, p.random, p.hasher),
    owners: new OwnersService(p.uow, p.stores, p.clock, p.ids),
  };
}

async function activeApproved(s: ReturnType<typeof setup>) {
  const driver = await s.drivers.register(driverInput(), INSPECTOR);
  await s.drivers.activate(driver._id, driver.activationKey!, INSPECTOR);
  return s.drivers.approve(driver._id, passedDriverChecklist, APPROVER);
}

const auditOf = (s: ReturnType<typeof setup>, id: string) => s.uow.audit.entries.filter((e) => e.entityId === id);

describe('DriversService on fakes', () => {
  it('registers a driver with a six-digit key shown once; the audit never holds the key or its hash', async () => {
    const s = setup();
    const driver = await s.drivers.register(driverInput(), INSPECTOR);
    expect(driver).toMatchObject({ approved: false, verified: false, activationKey: expect.stringMatching(/^\d{6}$/) });
    expect(await s.drivers.get(driver._id)).not.toHaveProperty('activationKey');
    const [entry] = auditOf(s, driver._id);
    expect(entry.action).toBe('DriverRegistered');
    expect(JSON.stringify(entry)).not.toContain('activationKeyHash');
    expect(JSON.stringify(entry)).not.toContain(driver.activationKey!);
  });

  it('embeds the owner, and refuses an owner that does not exist (OWNER_NOT_FOUND) writing nothing', async () => {
    const s = setup();
    const owner = await s.owners.add(ownerInput(), INSPECTOR);
    expect(await s.drivers.register(driverInput({ ownerId: owner._id }), INSPECTOR)).toMatchObject({
      ownerID: { _id: owner._id, name: 'Kofi Asante' },
    });
    await expect(
      s.drivers.register(driverInput({ email: 'other@example.com', ownerId: '65a0000000000000000000ff' }), INSPECTOR),
    ).rejects.toMatchObject({ code: 'OWNER_NOT_FOUND' });
    expect((await s.drivers.list({}, { limit: 10 })).items).toHaveLength(1);
  });

  it('refuses a second driver with the same email in any case (DRIVER_EMAIL_TAKEN)', async () => {
    const s = setup();
    await s.drivers.register(driverInput(), INSPECTOR);
    await expect(s.drivers.register(driverInput({ email: 'KOJO.ANTWI@example.com' }), INSPECTOR)).rejects.toMatchObject(
      { code: 'DRIVER_EMAIL_TAKEN', kind: 'conflict' },
    );
  });

  it('counts a wrong activation key (saved although refused) and locks after five', async () => {
    const s = setup();
    const driver = await s.drivers.register(driverInput(), INSPECTOR);
    for (let i = 0; i < 4; i++)
      await expect(s.drivers.activate(driver._id, '000000', INSPECTOR)).rejects.toMatchObject({
        code: 'DRIVER_ACTIVATION_KEY_INVALID',
      });
    expect((await s.stores.drivers.findById(driver._id))?.toState().activationAttempts).toBe(4);
    await expect(s.drivers.activate(driver._id, '000000', INSPECTOR)).rejects.toMatchObject({
      code: expect.stringMatching(/DRIVER_ACTIVATION_(KEY_INVALID|LOCKED)/),
    });
    await expect(s.drivers.activate(driver._id, driver.activationKey!, INSPECTOR)).rejects.toMatchObject({
      code: 'DRIVER_ACTIVATION_LOCKED',
    });
    const reissued = await s.drivers.reissueActivationKey(driver._id, ADMIN);
    expect(reissued.activationKey).toMatch(/^\d{6}$/);
    expect(await s.drivers.activate(driver._id, reissued.activationKey!, INSPECTOR)).toMatchObject({ verified: true });
    await expect(s.drivers.activate(driver._id, reissued.activationKey!, INSPECTOR)).rejects.toMatchObject({
      code: 'DRIVER_ALREADY_ACTIVATED',
    });
  });

  it('approves with the four checks once, revokes with a reason, and refuses a failed checklist', async () => {
    const s = setup();
    const driver = await s.drivers.register(driverInput(), INSPECTOR);
    await s.drivers.activate(driver._id, driver.activationKey!, INSPECTOR);
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
    const driver = await s.drivers.register(driverInput(), INSPECTOR);
    await expect(s.drivers.get('65a0000000000000000000ff')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(s.drivers.revoke(driver._id, 'x', APPROVER, 9)).rejects.toMatchObject({ code: 'CONCURRENT_UPDATE' });
  });

  it("lists newest first, each driver whole with its owner (what a caller sees is the route's view)", async () => {
    const s = setup();
    const owner = await s.owners.add(ownerInput(), INSPECTOR);
    await s.drivers.register(driverInput({ ownerId: owner._id }), INSPECTOR);
    const [full] = (await s.drivers.list({ email: 'KOJO.ANTWI@example.com' }, { limit: 10 })).items;
    expect(full).toMatchObject({ phone: '+233244555666', ownerID: { phone: '+233244123456' } });
    expect((await s.drivers.list({ approved: true }, { limit: 10 })).items).toEqual([]);
  });
});
