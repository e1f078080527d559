import {
  Assembly,
  AssemblyUser,
  Driver,
  allChecksPassed,
  allPassed,
  Region,
  Station,
  TransportUnion,
  Vehicle,
  VehicleOwner,
  type IdGenerator,
  type RandomSource,
  type SecretHasher,
} from '@transport/domain';
import type { PrismaAuditLog } from './prisma-audit-log';
import type { prismaRepositories } from './prisma-repositories';

/** What every part of the demo seed writes with: the repositories of the seed's one transaction, and its ports. */
export interface DemoContext {
  db: ReturnType<typeof prismaRepositories> & { audit: PrismaAuditLog };
  ids: IdGenerator;
  random: RandomSource;
  /** The service's own activation-key hasher, so the demo driver's printed key works. */
  hasher: SecretHasher;
  now: Date;
  /** The seed's clock, `days` from now (negative: ago). */
  at(days: number): Date;
}

/** Regions and assemblies, the first assembly's inspector and approver, a union and a station. */
export async function seedPlaces({ db, ids, at }: DemoContext) {
  const country = ids.next();
  const regions: Region[] = [];
  for (const name of ['Greater Accra', 'Ashanti', 'Northern', 'Western'])
    regions.push(await db.regions.add(Region.create({ name, country }, ids, at(-400))));
  const assemblies: Assembly[] = [];
  for (const [name, region, digitalAddress, type] of [
    ['Accra Metropolitan Assembly', 0, 'GA-107-2123', 'metropolitan'],
    ['Tema Metropolitan Assembly', 0, 'GT-019-4455', 'metropolitan'],
    ['Kumasi Metropolitan Assembly', 1, 'AK-039-5028', 'metropolitan'],
    ['Tamale Metropolitan Assembly', 2, 'NT-001-2020', 'metropolitan'],
    ['Sekondi-Takoradi Metropolitan Assembly', 3, 'WS-094-1150', 'metropolitan'],
  ] as const) {
    assemblies.push(
      await db.assemblies.add(
        Assembly.create({ name, regionId: regions[region].id, digitalAddress, type }, ids, at(-399)),
      ),
    );
  }
  const inspector = await db.assemblyUsers.add(
    AssemblyUser.create(
      {
        assemblyId: assemblies[0].id,
        name: 'Abena Mensah',
        email: 'abena.mensah@ama.gov.gh',
        phone: '0244000111',
        role: 'inspector',
      },
      ids,
      at(-398),
    ),
  );
  const approver = await db.assemblyUsers.add(
    AssemblyUser.create(
      {
        assemblyId: assemblies[0].id,
        name: 'Kwame Boateng',
        email: 'kwame.boateng@ama.gov.gh',
        phone: '0244000222',
        role: 'approver',
      },
      ids,
      at(-398),
    ),
  );

  const union = await db.unions.add(
    TransportUnion.create(
      {
        name: 'GPRTU Accra Branch',
        digitalAddress: 'GA-183-8164',
        contactNumber: '0302000333',
        email: 'accra@gprtu.org.gh',
        zones: [ids.next()],
      },
      ids,
      at(-397),
    ),
  );
  const station = await db.stations.add(
    Station.create(
      {
        name: 'Kaneshie Station',
        transportUnions: [union.id],
        zones: union.toState().zones,
        contactNumber: 302000444,
        digitalAddress: 'GA-222-1010',
      },
      ids,
      at(-397),
    ),
  );
  return { assemblies, inspector, approver, union, station };
}

/** Owners, and drivers in three states: working (approved, online, rated), activated, and waiting for activation. */
export async function seedOwnersAndDrivers(
  { db, ids, random, hasher, now, at }: DemoContext,
  { accra, approver }: { accra: string; approver: AssemblyUser },
) {
  const owners: VehicleOwner[] = [];
  for (const [name, phone, email, idType, idNumber, verified] of [
    ['Kofi Asante', '0244123456', 'kofi.asante@example.com', 'ghana_card', 'GHA-712345678-9', true],
    ['Ama Owusu', '0201234567', 'ama.owusu@example.com', 'passport', 'G1234567', true],
    ['Yaw Darko', '0551112223', 'yaw.darko@example.com', 'voter_id', '1234567890', false],
  ] as const) {
    // Every demo record is Accra's, where the demo staff work.
    const owner = VehicleOwner.register({ name, phone, email, idType, idNumber, assemblyId: accra }, ids, at(-396));
    if (verified) owner.verify(at(-395));
    owners.push(await db.owners.add(owner));
  }

  const driverInput = (
    name: string,
    phone: string,
    email: string,
    license: string,
    idNumber: string,
    gender: string,
    ownerId: string,
  ) => ({
    name,
    phone,
    email,
    license,
    licenseClass: 'B',
    licenseIssueDate: at(-800),
    licenseExpiry: at(400),
    idType: 'ghana_card',
    idNumber,
    gender,
    ownerId,
    walletAccount: phone,
    assemblyId: accra,
  });
  const working = Driver.register(
    driverInput(
      'Kojo Antwi',
      '0244555666',
      'kojo.antwi@example.com',
      'DL-0001-2020',
      'GHA-700000001-1',
      'male',
      owners[0].id,
    ),
    { ids, random, hasher },
    at(-60),
  );
  // Activated within the key's 24 hours.
  working.driver.activate(working.activationKey, new Date(at(-60).getTime() + 3_600_000), hasher, 'demo');
  working.driver.approve(allChecksPassed(), approver.id, at(-58));
  working.driver.goOnline(at(-1));
  working.driver.rate(5, at(-2));
  working.driver.rate(4, at(-1));
  const activated = Driver.register(
    driverInput(
      'Esi Quaye',
      '0209876543',
      'esi.quaye@example.com',
      'DL-0002-2021',
      'GHA-700000002-2',
      'female',
      owners[1].id,
    ),
    { ids, random, hasher },
    at(-5),
  );
  activated.driver.activate(activated.activationKey, new Date(at(-5).getTime() + 3_600_000), hasher, 'demo');
  const pending = Driver.register(
    driverInput(
      'Fiifi Mensah',
      '0277000999',
      'fiifi.mensah@example.com',
      'DL-0003-2022',
      'GHA-700000003-3',
      'male',
      owners[2].id,
    ),
    { ids, random, hasher },
    // An hour ago: the key printed at start still has most of its 24 hours.
    new Date(now.getTime() - 3_600_000),
  );
  const drivers: Driver[] = [];
  for (const d of [working.driver, activated.driver, pending.driver]) drivers.push(await db.drivers.add(d));
  return { owners, drivers, driverActivationKey: pending.activationKey };
}

/** Vehicles in every state: fresh, failed inspection, awaiting approval, approved, linked, lapsed. */
export async function seedVehicles(
  { db, ids, at }: DemoContext,
  places: { accra: string; inspector: AssemblyUser; approver: AssemblyUser; union: TransportUnion; station: Station },
  people: { owners: VehicleOwner[]; drivers: Driver[] },
) {
  const { accra, inspector, approver, union, station } = places;
  const { owners, drivers } = people;
  const base = {
    make: 'Toyota',
    model: 'Corolla',
    makeYear: at(-9 * 365),
    yearOfRegistration: at(-8 * 365),
    capacity: 4,
    grossWeight: 1700,
    netWeight: 1300,
    type: 'taxi',
    fuelCapacity: 50,
    assemblyId: accra,
  };
  const register = (over: object, days: number) =>
    Vehicle.register({ ...base, ownerId: owners[0].id, ...over }, ids, at(days));
  // Newly registered: none of the inspection, approval or link fields.
  const fresh = register(
    {
      ownerId: owners[2].id,
      color: '#FFD700',
      registrationNumber: 'GR 1001-24',
      roadWorthyExpiryDate: at(200),
      insuranceExpiryDate: at(300),
    },
    -1,
  );
  // Inspected with one failed item: cannot be approved yet.
  const failed = register(
    {
      ownerId: owners[1].id,
      color: '#1E90FF',
      registrationNumber: 'GW 2202-23',
      vin: '1HGCM82633A004352',
      roadWorthyExpiryDate: at(120),
      insuranceExpiryDate: at(150),
    },
    -3,
  );
  failed.inspect({ ...allPassed(), spareTire: false }, inspector.id, at(-2));
  // Inspected, everything passed, awaiting approval; its roadworthy certificate expires in 20 days.
  const awaiting = register(
    {
      ownerId: owners[1].id,
      color: '#008000',
      registrationNumber: 'AS 3303-22',
      make: 'Hyundai',
      model: 'Elantra',
      roadWorthyExpiryDate: at(20),
      insuranceExpiryDate: at(200),
    },
    -4,
  );
  awaiting.inspect(allPassed(), inspector.id, at(-1));
  // Approved, not linked; insurance expires in 10 days.
  const approved = register(
    {
      color: '#FFFFFF',
      registrationNumber: 'GT 4404-21',
      roadWorthyExpiryDate: at(300),
      insuranceExpiryDate: at(10),
    },
    -30,
  );
  approved.inspect(allPassed(), inspector.id, at(-20));
  approved.approve(approver.id, at(-19));
  // Approved and linked to a driver, a station and a union.
  const linked = register(
    {
      color: '#FF0000',
      registrationNumber: 'GE 5505-20',
      roadWorthyExpiryDate: at(250),
      insuranceExpiryDate: at(250),
    },
    -50,
  );
  linked.inspect(allPassed(), inspector.id, at(-40));
  linked.approve(approver.id, at(-39));
  linked.linkDriver(drivers[0], at(-38));
  linked.linkStation(station.id, at(-38));
  linked.linkTransportUnion(union.id, at(-38));
  // Approved once, its station unlinked again (shown as null), and its roadworthy certificate now expired.
  const lapsed = register(
    { color: '#000', registrationNumber: 'GN 6606-19', roadWorthyExpiryDate: at(-5), insuranceExpiryDate: at(100) },
    -420,
  );
  lapsed.inspect(allPassed(), inspector.id, at(-410));
  lapsed.approve(approver.id, at(-409));
  lapsed.linkStation(station.id, at(-408));
  lapsed.linkTransportUnion(union.id, at(-408));
  lapsed.linkStation(null, at(-100));
  const vehicles: Vehicle[] = [];
  for (const v of [lapsed, linked, approved, awaiting, failed, fresh]) vehicles.push(await db.vehicles.add(v));
  return vehicles;
}
