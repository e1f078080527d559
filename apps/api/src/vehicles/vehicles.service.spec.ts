import { ANONYMOUS_ACTOR, Station, TransportUnion } from '@transport/domain';
import { allPassed, days, passedDriverChecklist } from '@transport/domain/testing';
import {
  ADMIN,
  APPROVER,
  driverInput,
  fakePorts,
  INSPECTOR,
  OTHER_ASSEMBLY,
  OUTSIDER,
  ownerInput,
  STAFF_ASSEMBLY,
} from '../core/testing/fixtures';
import { driversOnFakes, registerAndReadKey } from '../drivers/drivers.testing';
import { OwnersService } from '../owners/owners.service';
import { VehiclesService } from './vehicles.service';

function setup() {
  const p = fakePorts();
  const vehicles = new VehiclesService(p.uow, p.stores, p.clock, p.ids);
  const owners = new OwnersService(p.uow, p.stores, p.clock, p.ids);
  const drivers = driversOnFakes(p);
  return { ...p, vehicles, owners, drivers };
}

async function registered(s: ReturnType<typeof setup>, over: Record<string, unknown> = {}) {
  const owner = await s.owners.add(ownerInput(), INSPECTOR);
  return s.vehicles.register(
    {
      ownerId: owner._id,
      registrationNumber: 'gr  1234-24',
      roadWorthyExpiryDate: days(180),
      insuranceExpiryDate: days(365),
      ...over,
    },
    INSPECTOR,
  );
}

/** A union and a station that belongs to it, in the fakes' stores. */
async function unionAndStation(s: ReturnType<typeof setup>) {
  const union = await s.stores.unions.add(
    TransportUnion.create(
      {
        name: 'GPRTU Accra',
        digitalAddress: 'GA-183-8164',
        contactNumber: '0302000333',
        email: 'accra@gprtu.org.gh',
        zones: [],
      },
      s.ids,
      s.clock.now(),
    ),
  );
  const station = await s.stores.stations.add(
    Station.create(
      {
        name: 'Kaneshie',
        transportUnions: [union.id],
        zones: [],
        contactNumber: 302000444,
        digitalAddress: 'GA-222-1010',
      },
      s.ids,
      s.clock.now(),
    ),
  );
  return { union, station };
}

const auditOf = (s: ReturnType<typeof setup>, id: string) =>
  s.uow.audit.entries.filter((e) => e.entityId === id).map((e) => e.action);

describe('VehiclesService on fakes', () => {
  it("keeps a vehicle in its registering staff's assembly: another assembly's staff find and change nothing", async () => {
    const s = setup();
    const vehicle = await registered(s);
    expect(vehicle.assembly).toBe(STAFF_ASSEMBLY);
    await expect(s.vehicles.get(vehicle._id, OUTSIDER)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(s.vehicles.approve(vehicle._id, OUTSIDER)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect((await s.vehicles.list({}, { limit: 10 }, OUTSIDER)).items).toEqual([]);
    expect((await s.vehicles.list({}, { limit: 10 }, ADMIN)).items).toHaveLength(1);
    const moved = await s.vehicles.transfer(vehicle._id, OTHER_ASSEMBLY, ADMIN);
    expect(moved).toMatchObject({ assembly: OTHER_ASSEMBLY, __v: 1 });
    expect(await s.vehicles.get(vehicle._id, OUTSIDER)).toMatchObject({ _id: vehicle._id });
    await expect(s.vehicles.get(vehicle._id, INSPECTOR)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(auditOf(s, vehicle._id)).toEqual(['VehicleRegistered', 'VehicleTransferred']);
  });

  it('registers a vehicle of an existing owner, uninspected and unapproved, with one audit entry', async () => {
    const s = setup();
    const vehicle = await registered(s);
    expect(vehicle).toMatchObject({ registrationNumber: 'GR 1234-24', inspected: false, approved: false, __v: 0 });
    expect(auditOf(s, vehicle._id)).toEqual(['VehicleRegistered']);
  });

  it('refuses a vehicle whose owner does not exist (OWNER_NOT_FOUND) and stores nothing', async () => {
    const s = setup();
    await expect(
      s.vehicles.register({ ownerId: '65a0000000000000000000ff', registrationNumber: 'GR 1-24' }, INSPECTOR),
    ).rejects.toMatchObject({ code: 'OWNER_NOT_FOUND', kind: 'rule' });
    expect((await s.vehicles.list({}, { limit: 10 }, INSPECTOR)).items).toEqual([]);
    expect(s.uow.audit.entries).toEqual([]);
  });

  it('inspects, then approves; each change moves the revision once and is audited with its actor', async () => {
    const s = setup();
    const vehicle = await registered(s);
    const inspected = await s.vehicles.inspect(vehicle._id, allPassed(), INSPECTOR, 0);
    expect(inspected).toMatchObject({ inspected: true, inspectedBy: INSPECTOR.id, __v: 1 });
    const approved = await s.vehicles.approve(vehicle._id, APPROVER, 1);
    expect(approved).toMatchObject({ approved: true, approvedBy: APPROVER.id, __v: 2 });
    expect(auditOf(s, vehicle._id)).toEqual(['VehicleRegistered', 'VehicleInspected', 'VehicleApproved']);
    expect(s.uow.audit.entries.at(-1)?.actor).toEqual(APPROVER);
  });

  it('refuses a duty the acting user does not carry: an inspector approving, an approver inspecting', async () => {
    const s = setup();
    const vehicle = await registered(s);
    await expect(s.vehicles.inspect(vehicle._id, allPassed(), APPROVER)).rejects.toMatchObject({
      code: 'DUTY_NOT_ALLOWED',
      kind: 'forbidden',
    });
    await s.vehicles.inspect(vehicle._id, allPassed(), INSPECTOR);
    await expect(s.vehicles.approve(vehicle._id, INSPECTOR)).rejects.toMatchObject({ code: 'DUTY_NOT_ALLOWED' });
    // A key whose assembly user is gone acts for nobody.
    await expect(
      s.vehicles.approve(vehicle._id, { role: 'assembly', id: '65a0000000000000000000ff' }),
    ).rejects.toMatchObject({ code: 'DUTY_NOT_ALLOWED' });
    expect(auditOf(s, vehicle._id)).toEqual(['VehicleRegistered', 'VehicleInspected']);
  });

  it('refuses approval of a vehicle that was never inspected, and writes nothing', async () => {
    const s = setup();
    const vehicle = await registered(s);
    await expect(s.vehicles.approve(vehicle._id, APPROVER)).rejects.toMatchObject({ code: 'VEHICLE_NOT_INSPECTED' });
    expect(await s.vehicles.get(vehicle._id, INSPECTOR)).toMatchObject({ approved: false, __v: 0 });
    expect(auditOf(s, vehicle._id)).toEqual(['VehicleRegistered']);
  });

  it('refuses a stale If-Match (CONCURRENT_UPDATE) and an unknown vehicle (NOT_FOUND)', async () => {
    const s = setup();
    const vehicle = await registered(s);
    await expect(s.vehicles.inspect(vehicle._id, allPassed(), INSPECTOR, 3)).rejects.toMatchObject({
      code: 'CONCURRENT_UPDATE',
      kind: 'conflict',
    });
    await expect(s.vehicles.get('65a0000000000000000000ff', INSPECTOR)).rejects.toMatchObject({
      code: 'NOT_FOUND',
      kind: 'not_found',
    });
    await expect(s.vehicles.approve('65a0000000000000000000ff', APPROVER)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('links a station and a union (embedded in the answer), unlinks the station to null, and refuses unknown references', async () => {
    const s = setup();
    const vehicle = await registered(s);
    const { union, station } = await unionAndStation(s);
    const linked = await s.vehicles.link(vehicle._id, { station: station.id, transportUnion: union.id }, INSPECTOR);
    expect(linked).toMatchObject({ station: { _id: station.id, name: 'Kaneshie' }, transportUnion: { _id: union.id } });
    expect(await s.vehicles.link(vehicle._id, { station: null }, INSPECTOR)).toMatchObject({ station: null });
    await expect(
      s.vehicles.link(vehicle._id, { station: '65a0000000000000000000ff' }, INSPECTOR),
    ).rejects.toMatchObject({ code: 'STATION_NOT_FOUND', field: 'station' });
    await expect(
      s.vehicles.link(vehicle._id, { transportUnion: '65a0000000000000000000ff' }, INSPECTOR),
    ).rejects.toMatchObject({ code: 'TRANSPORT_UNION_NOT_FOUND' });
    await expect(s.vehicles.link(vehicle._id, { driver: '65a0000000000000000000ff' }, INSPECTOR)).rejects.toMatchObject(
      { code: 'DRIVER_NOT_FOUND' },
    );
  });

  it('links an approved, activated driver to an approved vehicle, and unlinks it', async () => {
    const s = setup();
    const vehicle = await registered(s);
    await s.vehicles.inspect(vehicle._id, allPassed(), INSPECTOR);
    await s.vehicles.approve(vehicle._id, APPROVER);
    const driver = await registerAndReadKey(s, s.drivers, driverInput(), INSPECTOR);
    await s.drivers.activate(driver._id, driver.activationKey!, INSPECTOR, '203.0.113.7');
    await s.drivers.approve(driver._id, passedDriverChecklist, APPROVER);
    expect(await s.vehicles.link(vehicle._id, { driver: driver._id }, INSPECTOR)).toMatchObject({ driver: driver._id });
    // Unlinked: no driver in the answer (JSON leaves out a field that is undefined).
    expect((await s.vehicles.link(vehicle._id, { driver: null }, INSPECTOR)).driver).toBeUndefined();
  });

  it('rolls a link back whole when one of its references is refused', async () => {
    const s = setup();
    const vehicle = await registered(s);
    const union = await s.stores.unions.add(
      TransportUnion.create(
        {
          name: 'GPRTU',
          digitalAddress: 'GA-183-8164',
          contactNumber: '0302000333',
          email: 'a@gprtu.org.gh',
          zones: [],
        },
        s.ids,
        s.clock.now(),
      ),
    );
    await expect(
      s.vehicles.link(vehicle._id, { transportUnion: union.id, driver: '65a0000000000000000000ff' }, INSPECTOR),
    ).rejects.toMatchObject({ code: 'DRIVER_NOT_FOUND' });
    expect(await s.vehicles.get(vehicle._id, INSPECTOR)).not.toHaveProperty('transportUnion');
  });

  it('lists newest first with filters, and matches a registration number written either way', async () => {
    const s = setup();
    const a = await registered(s, { registrationNumber: 'GR 1-24' });
    s.clock.advance(1000);
    const owner = await s.owners.add(ownerInput({ email: 'b@example.com' }), INSPECTOR);
    const b = await s.vehicles.register({ ownerId: owner._id, registrationNumber: 'GR 2-24' }, INSPECTOR);
    expect((await s.vehicles.list({}, { limit: 10 }, INSPECTOR)).items.map((v) => v._id)).toEqual([b._id, a._id]);
    expect(
      (await s.vehicles.list({ registrationNumber: 'gr 2-24' }, { limit: 10 }, INSPECTOR)).items.map((v) => v._id),
    ).toEqual([b._id]);
    expect((await s.vehicles.list({ registrationNumber: '!!' }, { limit: 10 }, INSPECTOR)).items).toEqual([]);
    expect((await s.vehicles.list({ ownerId: owner._id }, { limit: 10 }, INSPECTOR)).items.map((v) => v._id)).toEqual([
      b._id,
    ]);
    const first = await s.vehicles.list({}, { limit: 1 }, INSPECTOR);
    expect(first.next).toBe(b._id);
  });

  it("lists summaries: the list's page in the public's fields, links embedded, an unlinked station as null", async () => {
    const s = setup();
    const plain = await registered(s, { registrationNumber: 'GR 1-24', make: 'Toyota' });
    s.clock.advance(1000);
    const linked = await registered(s, { registrationNumber: 'GR 2-24' });
    s.clock.advance(1000);
    const unlinked = await registered(s, { registrationNumber: 'GR 3-24' });
    const { union, station } = await unionAndStation(s);
    await s.vehicles.link(linked._id, { station: station.id, transportUnion: union.id }, INSPECTOR);
    await s.vehicles.link(unlinked._id, { station: null }, INSPECTOR);
    const summaries = await s.vehicles.listSummaries({}, { limit: 10, count: true }, ANONYMOUS_ACTOR);
    const whole = await s.vehicles.list({}, { limit: 10, count: true }, ANONYMOUS_ACTOR);
    expect(summaries.total).toBe(3);
    expect(summaries.items.map((v) => v._id)).toEqual(whole.items.map((v) => v._id));
    // With the envelope every record has (times and revision), as the whole record shows it.
    const envelope = (r: { createdAt: string; updatedAt: string; __v: number }) => ({
      createdAt: r.createdAt,
      updatedAt: r.updatedAt,
      __v: r.__v,
    });
    expect(summaries.items).toEqual([
      {
        _id: unlinked._id,
        registrationNumber: 'GR 3-24',
        inspected: false,
        approved: false,
        station: null,
        ...envelope(whole.items[0]),
      },
      {
        _id: linked._id,
        registrationNumber: 'GR 2-24',
        inspected: false,
        approved: false,
        station: whole.items[1].station,
        transportUnion: whole.items[1].transportUnion,
        ...envelope(whole.items[1]),
      },
      {
        _id: plain._id,
        registrationNumber: 'GR 1-24',
        make: 'Toyota',
        inspected: false,
        approved: false,
        ...envelope(whole.items[2]),
      },
    ]);
    expect(summaries.items[1].__v).toBe(1);
    expect(summaries.items[1].station).toMatchObject({ _id: station.id, name: 'Kaneshie' });
    // The same filters and jurisdiction as the list: a normalised plate, and another assembly's staff see nothing.
    expect(
      (await s.vehicles.listSummaries({ registrationNumber: 'gr 2-24' }, { limit: 10 }, ANONYMOUS_ACTOR)).items,
    ).toEqual([expect.objectContaining({ _id: linked._id })]);
    expect((await s.vehicles.listSummaries({}, { limit: 10 }, OUTSIDER)).items).toEqual([]);
  });

  it('lists vehicles whose certificates end within the window, with their reasons', async () => {
    const s = setup();
    const soon = await registered(s, {
      registrationNumber: 'GR 1-24',
      roadWorthyExpiryDate: days(10),
      insuranceExpiryDate: days(400),
    });
    await registered(s, {
      registrationNumber: 'GR 2-24',
      roadWorthyExpiryDate: days(100),
      insuranceExpiryDate: days(400),
    });
    const window = { end: days(30), last: new Date(days(30).getTime() - 1) };
    const page = await s.vehicles.compliance(window, { limit: 10 }, INSPECTOR);
    expect(page.items).toHaveLength(1);
    expect(page.items[0].vehicle._id).toBe(soon._id);
    expect(page.items[0].reasons).toEqual([
      { code: 'NOT_APPROVED' },
      { code: 'ROADWORTHY_EXPIRING', date: days(10).toISOString() },
    ]);
  });
});

describe('OwnersService on fakes', () => {
  it('adds an owner (phone and email normalised), lists, searches and verifies once', async () => {
    const s = setup();
    const owner = await s.owners.add(ownerInput(), INSPECTOR);
    expect(owner).toMatchObject({ phone: '+233244123456', email: 'kofi.asante@example.com', verified: false, __v: 0 });
    expect((await s.owners.list({ limit: 10 }, INSPECTOR)).items.map((o) => o._id)).toEqual([owner._id]);
    expect((await s.owners.search('0244123456', { limit: 10 }, INSPECTOR)).items.map((o) => o._id)).toEqual([
      owner._id,
    ]);
    expect((await s.owners.search('nobody', { limit: 10 }, INSPECTOR)).items).toEqual([]);
    expect(await s.owners.verify(owner._id, INSPECTOR, 0)).toMatchObject({ verified: true, __v: 1 });
    await expect(s.owners.verify(owner._id, INSPECTOR)).rejects.toMatchObject({
      code: 'OWNER_ALREADY_VERIFIED',
      kind: 'conflict',
    });
    expect(auditOf(s, owner._id)).toEqual(['ownerCreated', 'OwnerVerified']);
  });

  it('refuses an invalid owner with the field at fault, and a stale or unknown verification', async () => {
    const s = setup();
    await expect(s.owners.add(ownerInput({ phone: '12' }), INSPECTOR)).rejects.toMatchObject({
      code: 'INVALID_PHONE',
      kind: 'validation',
      field: 'phone',
    });
    const owner = await s.owners.add(ownerInput(), INSPECTOR);
    await expect(s.owners.verify(owner._id, INSPECTOR, 5)).rejects.toMatchObject({ code: 'CONCURRENT_UPDATE' });
    await expect(s.owners.verify('65a0000000000000000000ff', INSPECTOR)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
