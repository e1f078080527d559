import {
  Assembly,
  AssemblyUser,
  Driver,
  geoPoint,
  ObjectIdGenerator,
  parseCallbackPayload,
  Region,
  Station,
  Transaction,
  TransportUnion,
  Trip,
  Vehicle,
  VehicleOwner,
} from '@transport/domain';
import {
  allPassed,
  FixedClock,
  passedDriverChecklist,
  PlainTextHasher,
  SeededRandomSource,
} from '@transport/domain/testing';
import type { Database } from '../../src/persistence/database';
import { prismaRepositories } from '../../src/persistence/prisma-repositories';
import { hashApiKey, newApiKey } from '../../src/core/platform/secrets';

const T0 = new Date('2026-10-01T08:00:00Z');
const minutes = (n: number) => new Date(T0.getTime() + n * 60_000);

export interface ApiFixture {
  /** `assembly`: the approver of the first assembly; `otherAssembly`: the inspector of the other one. */
  keys: {
    admin: string;
    assembly: string;
    otherAssembly: string;
    merchantA: string;
    merchantB: string;
    revoked: string;
  };
  ids: {
    owners: string[];
    merchantA: string;
    merchantB: string;
    linkedVehicle: string;
    freshVehicle: string;
    workingDriver: string;
    assemblyUser: string;
    otherAssemblyUser: string;
    assembly: string;
    otherAssembly: string;
    station: string;
    union: string;
  };
}

/** A known data set for the interface tests: 60 vehicles, owners, drivers, assemblies, trips around a day boundary, payments. */
export async function loadApiFixture(database: Pick<Database, 'prisma'>): Promise<ApiFixture> {
  const { prisma } = database;
  const clock = new FixedClock(T0);
  const ids = new ObjectIdGenerator(clock, new SeededRandomSource(42));
  const repos = prismaRepositories(prisma);
  const hasher = new PlainTextHasher();

  const region = await repos.regions.add(
    Region.create({ name: 'Greater Accra', country: ids.next() }, ids, minutes(3)),
  );
  const assembly = await repos.assemblies.add(
    Assembly.create(
      { name: 'Accra Metropolitan Assembly', regionId: region.id, digitalAddress: 'GA-107-2123', type: 'metropolitan' },
      ids,
      minutes(4),
    ),
  );
  const otherAssembly = await repos.assemblies.add(
    Assembly.create(
      { name: 'Tema Metropolitan Assembly', regionId: region.id, digitalAddress: 'GT-019-4455', type: 'metropolitan' },
      ids,
      minutes(5),
    ),
  );
  // Every record of the data set belongs to the first assembly (the assembly key's); the other has none.
  const owners = [];
  for (let i = 0; i < 3; i++) {
    owners.push(
      await repos.owners.add(
        VehicleOwner.register(
          {
            name: ['Kofi Asante', 'Ama Owusu', 'Yaw Mensah'][i],
            phone: `024412345${i}`,
            email: `owner${i}@example.com`,
            idType: 'ghana_card',
            idNumber: `GHA-10000000${i}-1`,
            assemblyId: assembly.id,
          },
          ids,
          minutes(i),
        ),
      ),
    );
  }
  const user = await repos.assemblyUsers.add(
    AssemblyUser.create(
      {
        assemblyId: assembly.id,
        name: 'Abena Mensah',
        email: 'abena@ama.gov.gh',
        phone: '0244000111',
        role: 'approver',
      },
      ids,
      minutes(6),
    ),
  );
  const otherUser = await repos.assemblyUsers.add(
    AssemblyUser.create(
      {
        assemblyId: otherAssembly.id,
        name: 'Kweku Tema',
        email: 'kweku@tma.gov.gh',
        phone: '0244000333',
        role: 'inspector',
      },
      ids,
      minutes(7),
    ),
  );
  const union = await repos.unions.add(
    TransportUnion.create(
      {
        name: 'GPRTU Accra',
        digitalAddress: 'GA-183-8164',
        contactNumber: '0302000333',
        email: 'accra@gprtu.org.gh',
        zones: [],
      },
      ids,
      minutes(8),
    ),
  );
  const station = await repos.stations.add(
    Station.create(
      {
        name: 'Kaneshie',
        transportUnions: [union.id],
        zones: [],
        contactNumber: 302000444,
        digitalAddress: 'GA-222-1010',
      },
      ids,
      minutes(9),
    ),
  );

  const registration = (n: number, ownerId: string) =>
    Driver.register(
      {
        name: `Driver ${n}`,
        phone: `02010000${String(n).padStart(2, '0')}`,
        email: `driver${n}@example.com`,
        license: `DL-${n}-2020`,
        licenseClass: 'B',
        licenseIssueDate: minutes(-500_000),
        licenseExpiry: minutes(500_000),
        idType: 'ghana_card',
        idNumber: `GHA-D${n}`,
        gender: 'female',
        ownerId,
        walletAccount: `23320100000${n}`,
        assemblyId: assembly.id,
      },
      { ids, random: new SeededRandomSource(n), hasher },
      minutes(10 + n),
    );
  const working = registration(1, owners[0].id);
  working.driver.activate(working.activationKey, minutes(20), hasher, 'fixture');
  working.driver.approve(passedDriverChecklist, user.id, minutes(21));
  working.driver.goOnline(minutes(22));
  working.driver.rate(4, minutes(23));
  const workingDriver = await repos.drivers.add(working.driver);
  await repos.drivers.add(registration(2, owners[1].id).driver);
  await repos.drivers.add(registration(3, owners[2].id).driver);

  // 60 vehicles: the 10 oldest inspected, of which the 5 oldest approved; vehicle 0 linked to everything.
  let linkedVehicle = '';
  let freshVehicle = '';
  for (let n = 0; n < 60; n++) {
    const v = Vehicle.register(
      {
        ownerId: owners[n % 3].id,
        registrationNumber: `GR ${1000 + n}-24`,
        color: '#FFD700',
        make: 'Toyota',
        model: 'Corolla',
        capacity: 4,
        type: 'taxi',
        roadWorthyExpiryDate: minutes(600_000),
        insuranceExpiryDate: minutes(600_000),
        assemblyId: assembly.id,
      },
      ids,
      minutes(100 + n),
    );
    // Inspected by an inspector, approved by the approver: never the same person.
    if (n < 10) v.inspect(allPassed(), otherUser.id, minutes(200));
    if (n < 5) v.approve(user.id, minutes(201));
    if (n === 0) {
      v.linkDriver(workingDriver, minutes(202));
      v.linkStation(station.id, minutes(202));
      v.linkTransportUnion(union.id, minutes(202));
      linkedVehicle = v.id;
    }
    if (n === 59) freshVehicle = v.id;
    await repos.vehicles.add(v);
  }

  // Trips around the end of 2026-10-15 in Accra (UTC+0): 12:00, 23:59 on the 15th, 00:00 on the 16th.
  const d = workingDriver.toState();
  const vehicle = (await repos.vehicles.findById(linkedVehicle))!.toState();
  for (const [ticket, at] of [
    ['TKT-NOON', '2026-10-15T12:00:00Z'],
    ['TKT-LATE', '2026-10-15T23:59:00Z'],
    ['TKT-NEXT', '2026-10-16T00:00:00Z'],
    ['TKT-EARLY', '2026-10-14T23:59:59Z'],
  ] as const) {
    const trip = Trip.create(
      {
        ticketNumber: ticket,
        serviceID: `SRV-${ticket}`,
        serviceType: 'taxi',
        passengers: 1,
        user: 'passenger',
        driver: {
          id: d.id,
          name: d.name,
          phone: d.phone,
          email: d.email,
          walletAccount: d.walletAccount,
          rating: 4,
          approved: true,
          verified: true,
        },
        vehicle: {
          id: vehicle.id,
          registrationNumber: vehicle.registrationNumber,
          make: vehicle.make,
          model: vehicle.model,
          capacity: vehicle.capacity,
          type: vehicle.type,
          approved: true,
          driverId: vehicle.driverId,
        },
        pricing: { id: ids.next(), type: 'standard', pricePerKm: 2_500_000, pricePerMinute: 300_000 },
        pickupLocation: geoPoint(-0.2166, 5.556),
        serviceDestination: geoPoint(-0.2052, 5.5701),
        estimatedDistance: 8,
        estimatedMinutes: 20,
        paymentMethod: 'momo',
        assemblyId: assembly.id,
      },
      ids,
      new Date(at),
    );
    if (ticket === 'TKT-NOON') {
      trip.end({ finalDistance: 8.5, durationMinutes: 21, discount: 500_000 }, new Date('2026-10-15T12:30:00Z'));
      trip.checkOut(geoPoint(-0.2052, 5.5701), new Date('2026-10-15T12:31:00Z'));
      trip.settle(trip.amountDue!, 'cash', new Date('2026-10-15T12:31:00Z'));
    }
    await repos.trips.add(trip);
  }

  const merchantA = ids.next();
  const merchantB = ids.next();
  for (const id of [merchantA, merchantB])
    await prisma.merchant.create({
      data: { id, name: `Merchant ${id}`, signingSecret: 's', createdAt: T0, updatedAt: T0 },
    });
  // The provider knows each payment by its platform-unique ClientReference: the transaction's id.
  const payment = (merchantId: string, reference: string) => {
    const t = Transaction.intend(
      {
        merchantId,
        amount: 25_500_000,
        description: 'Trip payment',
        reference,
        callBackUrl: 'https://merchant.example.com/cb',
        customerName: '',
        customerPhone: '0244987654',
        customerEmail: '',
        requestType: 'mobile_money',
      },
      ids,
      minutes(300),
    );
    t.applyRequestAnswer(
      {
        Message: 'Transaction pending. Expect callback request for final state',
        ResponseCode: '0001',
        Data: {
          TransactionId: 't-1',
          Description: 'Trip payment',
          ClientReference: t.id,
          Amount: 25.5,
          Charges: 0.05,
          AmountAfterCharges: 25.45,
          AmountCharged: 25.5,
          DeliveryFee: 0,
        },
      },
      minutes(300),
    );
    return t;
  };
  const paid = payment(merchantA, 'REF-PAID');
  paid.applyCallback(
    parseCallbackPayload({
      ResponseCode: '0000',
      Message: 'success',
      Data: {
        Amount: 25.5,
        Charges: 0.05,
        AmountAfterCharges: 25.45,
        AmountCharged: 25.5,
        Description: 'ok',
        ClientReference: paid.id,
        TransactionId: 't-1',
        ExternalTransactionId: 'e-1',
        OrderId: 'o-1',
      },
    }),
    minutes(301),
    true, // a signed callback: the fixture's payment is paid
  );
  await repos.transactions.add(paid);
  await repos.transactions.add(payment(merchantA, 'REF-PENDING'));
  await repos.transactions.add(payment(merchantB, 'REF-B-ONLY'));

  const keys = {
    admin: newApiKey('admin'),
    assembly: newApiKey('assembly'),
    otherAssembly: newApiKey('assembly'),
    merchantA: newApiKey('merchant'),
    merchantB: newApiKey('merchant'),
    revoked: newApiKey('admin'),
  };
  const key = (value: string, role: string, principalId: string, revokedAt: Date | null = null) => ({
    id: ids.next(),
    keyHash: hashApiKey(value),
    role,
    principalId,
    revokedAt,
    createdAt: T0,
    updatedAt: T0,
  });
  await prisma.apiKey.createMany({
    data: [
      key(keys.admin, 'admin', ids.next()),
      key(keys.assembly, 'assembly', user.id),
      key(keys.otherAssembly, 'assembly', otherUser.id),
      key(keys.merchantA, 'merchant', merchantA),
      key(keys.merchantB, 'merchant', merchantB),
      key(keys.revoked, 'admin', ids.next(), T0),
    ],
  });
  return {
    keys,
    ids: {
      owners: owners.map((o) => o.id),
      merchantA,
      merchantB,
      linkedVehicle,
      freshVehicle,
      workingDriver: workingDriver.id,
      assemblyUser: user.id,
      otherAssemblyUser: otherUser.id,
      assembly: assembly.id,
      otherAssembly: otherAssembly.id,
      station: station.id,
      union: union.id,
    },
  };
}

/** A valid body of POST /drivers/add (a driver registering themselves), with the fields a test changes. */
export const driverRegistration = (over: Record<string, unknown> = {}) => ({
  name: 'Akua Boateng',
  phone: '0209000111',
  email: 'akua@example.com',
  license: 'DL-77-2022',
  licenseClass: 'B',
  licenseExpiry: '2030-01-01',
  licenseIssueDate: '2022-01-01',
  idType: 'ghana_card',
  idNumber: 'GHA-D77',
  gender: 'female',
  ...over,
});
