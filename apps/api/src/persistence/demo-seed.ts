import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  Assembly,
  AssemblyUser,
  Driver,
  geoPoint,
  INSPECTION_ITEMS,
  parseCallbackPayload,
  Region,
  Station,
  Transaction,
  TransportUnion,
  Trip,
  Vehicle,
  VehicleOwner,
  type Clock,
  type IdGenerator,
  type InspectionChecklist,
  type RandomSource,
  type SecretHasher,
} from '@transport/domain';
import { SYSTEM_ACTOR } from '@transport/domain';
import { PrismaAuditLog } from './prisma-audit-log';
import { prismaRepositories } from './prisma-repositories';
import type { PrismaClient } from '../generated/prisma/client';
import { hashApiKey, newApiKey, newSigningSecret } from '../core/platform/secrets';
import { hashPassword } from '../core/platform/passwords';
import { randomBytes } from 'node:crypto';

export interface DemoCredentials {
  admin: string;
  assembly: string;
  merchant: string;
  /** Activation key of the demo driver who has not activated yet (Fiifi Mensah). */
  driverActivationKey: string;
  /** The dashboard's demo sign-ins (an inspector and an approver of the first assembly), one password for both. */
  dashboard: { inspector: string; approver: string; password: string };
  note: string;
}

export interface SeedPorts {
  prisma: PrismaClient;
  ids: IdGenerator;
  random: RandomSource;
  clock: Clock;
  /** The service's own activation-key hasher, so the demo driver's printed key works. */
  hasher: SecretHasher;
}

const DAY = 86_400_000;
const CREDENTIALS_FILE = 'demo-credentials.json';
const PASSED = Object.fromEntries(INSPECTION_ITEMS.map((item) => [item, true])) as InspectionChecklist;
const DRIVER_CHECKS = { validLicense: true, hasSmartPhone: true, canUseMap: true, criminalRecord: true };

/**
 * Demo data for the start command, built with the domain's own rules and saved through the repositories, in one
 * transaction: regions and assemblies, owners, vehicles in every state, drivers, trips and payment transactions, plus
 * one API key per role. Runs once (when there are no vehicles yet). The keys are random and are written to
 * `demo-credentials.json` in the data directory so every start can print them.
 */
export async function seedDemo(
  ports: SeedPorts,
  credentialsDir: string,
): Promise<{ seeded: boolean; credentials?: DemoCredentials }> {
  const existing = await readCredentials(credentialsDir);
  if ((await ports.prisma.vehicle.count()) > 0) return { seeded: false, credentials: existing };

  const { ids, random } = ports;
  const now = ports.clock.now();
  const at = (days: number) => new Date(now.getTime() + days * DAY);
  const { hasher } = ports;
  const credentials: DemoCredentials = {
    admin: newApiKey('admin'),
    assembly: newApiKey('assembly'),
    merchant: newApiKey('merchant'),
    driverActivationKey: '',
    dashboard: {
      inspector: 'abena.mensah@ama.gov.gh',
      approver: 'kwame.boateng@ama.gov.gh',
      password: `demo-${randomBytes(9).toString('base64url')}`,
    },
    note: 'Demo keys for this data directory only. Send one as the Authorization header (bare or as "Bearer <key>").',
  };

  const demoPasswordHash = await hashPassword(credentials.dashboard.password);
  // One transaction: the domain records through the repositories, the merchant and keys (principals, not domain
  // aggregates) through the same transaction's client. A failure leaves nothing behind.
  await ports.prisma.$transaction(
    async (tx) => {
      const db = { ...prismaRepositories(tx), audit: new PrismaAuditLog(tx) };
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

      const accra = assemblies[0].id;
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
      working.driver.approve(DRIVER_CHECKS, approver.id, at(-58));
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
      credentials.driverActivationKey = pending.activationKey;
      const drivers: Driver[] = [];
      for (const d of [working.driver, activated.driver, pending.driver]) drivers.push(await db.drivers.add(d));

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
      failed.inspect({ ...PASSED, spareTire: false }, inspector.id, at(-2));
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
      awaiting.inspect(PASSED, inspector.id, at(-1));
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
      approved.inspect(PASSED, inspector.id, at(-20));
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
      linked.inspect(PASSED, inspector.id, at(-40));
      linked.approve(approver.id, at(-39));
      linked.linkDriver(drivers[0], at(-38));
      linked.linkStation(station.id, at(-38));
      linked.linkTransportUnion(union.id, at(-38));
      // Approved once, its station unlinked again (shown as null), and its roadworthy certificate now expired.
      const lapsed = register(
        { color: '#000', registrationNumber: 'GN 6606-19', roadWorthyExpiryDate: at(-5), insuranceExpiryDate: at(100) },
        -420,
      );
      lapsed.inspect(PASSED, inspector.id, at(-410));
      lapsed.approve(approver.id, at(-409));
      lapsed.linkStation(station.id, at(-408));
      lapsed.linkTransportUnion(union.id, at(-408));
      lapsed.linkStation(null, at(-100));
      const vehicles: Vehicle[] = [];
      for (const v of [lapsed, linked, approved, awaiting, failed, fresh]) vehicles.push(await db.vehicles.add(v));
      const linkedVehicle = vehicles[1].toState();

      const driverState = drivers[0].toState();
      const tripRequest = (ticketNumber: string, estimatedDistance: number, paymentMethod: string) => ({
        ticketNumber,
        serviceID: `SRV-${ticketNumber.slice(-4)}`,
        serviceType: 'taxi',
        passengers: 1,
        user: 'passenger-demo',
        driver: {
          id: driverState.id,
          name: driverState.name,
          phone: driverState.phone,
          email: driverState.email,
          walletAccount: driverState.walletAccount,
          rating: drivers[0].rating,
          approved: true,
          verified: true,
        },
        vehicle: {
          id: linkedVehicle.id,
          registrationNumber: linkedVehicle.registrationNumber,
          make: linkedVehicle.make,
          model: linkedVehicle.model,
          capacity: linkedVehicle.capacity,
          type: linkedVehicle.type,
          approved: true,
          driverId: linkedVehicle.driverId,
        },
        pricing: { id: ids.next(), type: 'standard', pricePerKm: 250, pricePerMinute: 30 },
        pickupLocation: geoPoint(-0.2166, 5.556),
        serviceDestination: geoPoint(-0.2052, 5.5701),
        estimatedDistance,
        estimatedMinutes: 20,
        paymentMethod,
        assemblyId: accra,
      });
      const settled = Trip.create(tripRequest('TKT-0001', 8.2, 'momo'), ids, at(-2));
      settled.end({ finalDistance: 8.6, durationMinutes: 22 }, at(-2));
      settled.checkOut(geoPoint(-0.2052, 5.5701), at(-2));
      settled.settle(settled.amountDue ?? 0, 'momo', at(-2));
      const refunded = Trip.create(tripRequest('TKT-0002', 6.1, 'cash'), ids, at(-1));
      refunded.end({ finalDistance: 6, durationMinutes: 15, discount: 100 }, at(-1));
      refunded.checkOut(geoPoint(-0.187, 5.6037), at(-1));
      refunded.settle(refunded.amountDue ?? 0, 'cash', at(-1));
      refunded.refund(500, at(-1));
      const ongoing = Trip.create(tripRequest('TKT-0003', 5, 'momo'), ids, now);
      for (const t of [settled, refunded, ongoing]) await db.trips.add(t);

      const merchantId = ids.next();
      await tx.merchant.create({
        data: {
          id: merchantId,
          name: 'Demo Merchant',
          signingSecret: newSigningSecret(),
          createdAt: at(-400),
          updatedAt: at(-400),
        },
      });
      const request = (reference: string, amount: number) => ({
        merchantId,
        amount,
        description: 'Trip payment',
        reference,
        callBackUrl: 'https://merchant.example.com/payments/callback',
        customerName: 'Akua Sarpong',
        customerPhone: '0244987654',
        requestType: 'mobile_money',
      });
      const requestInfo = (reference: string, amount: number) => ({
        Message: 'Transaction pending. Expect callback request for final state',
        ResponseCode: '0001',
        Data: {
          TransactionId: ids.next(),
          Description: 'Trip payment',
          ClientReference: reference,
          Amount: amount / 100,
          Charges: 0.05,
          AmountAfterCharges: amount / 100 - 0.05,
          AmountCharged: amount / 100,
          DeliveryFee: 0,
        },
      });
      // The provider knows each payment by its platform-unique ClientReference: the transaction's id.
      const requested = (reference: string, amount: number, when: Date) => {
        const t = Transaction.intend(request(reference, amount), ids, when);
        t.applyRequestAnswer(requestInfo(t.id, amount), when);
        return t;
      };
      const paid = requested('TRIP-TKT-0001', 2550, at(-2));
      paid.applyCallback(
        parseCallbackPayload({
          ResponseCode: '0000',
          Message: 'success',
          Data: {
            Amount: 25.5,
            Charges: 0.05,
            AmountAfterCharges: 25.45,
            AmountCharged: 25.5,
            Description: 'The Mobile Money payment has been approved and processed successfully.',
            ClientReference: paid.id,
            TransactionId: paid.toState().providerTransactionId ?? '',
            ExternalTransactionId: '000011112222',
            OrderId: ids.next(),
          },
        }),
        at(-2),
      );
      const waiting = requested('TRIP-TKT-0003', 1500, now);
      for (const t of [paid, waiting]) await db.transactions.add(t);

      await tx.apiKey.createMany({
        data: [
          {
            id: ids.next(),
            keyHash: hashApiKey(credentials.admin),
            role: 'admin',
            principalId: ids.next(),
            label: 'demo admin',
            createdAt: now,
            updatedAt: now,
          },
          {
            id: ids.next(),
            keyHash: hashApiKey(credentials.assembly),
            role: 'assembly',
            principalId: approver.id,
            label: 'demo assembly approver',
            createdAt: now,
            updatedAt: now,
          },
          {
            id: ids.next(),
            keyHash: hashApiKey(credentials.merchant),
            role: 'merchant',
            principalId: merchantId,
            label: 'demo merchant',
            createdAt: now,
            updatedAt: now,
          },
        ],
      });
      // The password is hashed as any person's is (scrypt, off the event loop), before it reaches the transaction.
      await tx.personCredential.createMany({
        data: [inspector, approver].map((user) => ({
          userId: user.id,
          passwordHash: demoPasswordHash,
          updatedAt: now,
        })),
      });
      await db.audit.append([
        {
          entity: 'demo',
          entityId: merchantId,
          action: 'DemoDataLoaded',
          actor: SYSTEM_ACTOR,
          before: null,
          after: null,
          at: now,
        },
      ]);
    },
    { timeout: 60_000 },
  );

  await mkdir(credentialsDir, { recursive: true, mode: 0o700 });
  const file = join(credentialsDir, CREDENTIALS_FILE);
  await writeFile(file, JSON.stringify(credentials, null, 2) + '\n', { mode: 0o600 });
  await chmod(file, 0o600);
  return { seeded: true, credentials };
}

async function readCredentials(dir: string): Promise<DemoCredentials | undefined> {
  try {
    return JSON.parse(await readFile(join(dir, CREDENTIALS_FILE), 'utf8')) as DemoCredentials;
  } catch {
    return undefined;
  }
}
