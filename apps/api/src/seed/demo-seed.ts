import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Clock, IdGenerator } from '@transport/domain';
import type { PrismaClient } from '../generated/prisma/client';
import { hashApiKey, hashShortSecret, newApiKey } from '../platform/secrets';

export interface DemoCredentials {
  admin: string;
  assembly: string;
  merchant: string;
  note: string;
}

const DAY = 86_400_000;
const CREDENTIALS_FILE = 'demo-credentials.json';

const PASSED = {
  spareTire: true,
  headlights: true,
  tailLights: true,
  turnSignals: true,
  brakeLights: true,
  fireExtinguisher: true,
  emergencySignals: true,
  seatBelts: true,
  brakes: true,
  licensePlate: true,
};

/**
 * Demo data for the start command: a few regions and assemblies, owners, vehicles in each state, drivers, trips and
 * payment transactions, and one API key per role. Runs once (when there are no vehicles yet), in one transaction.
 * The keys are random; they are written to `demo-credentials.json` in the data directory so every start can print them.
 */
export async function seedDemo(
  prisma: PrismaClient,
  ids: IdGenerator,
  clock: Clock,
  credentialsDir: string,
): Promise<{ seeded: boolean; credentials?: DemoCredentials }> {
  const existing = await readCredentials(credentialsDir);
  if ((await prisma.vehicle.count()) > 0) return { seeded: false, credentials: existing };

  const now = clock.now();
  const at = (days: number) => new Date(now.getTime() + days * DAY);
  const audit = { createdAt: now, updatedAt: now };
  const credentials: DemoCredentials = {
    admin: newApiKey('admin'),
    assembly: newApiKey('assembly'),
    merchant: newApiKey('merchant'),
    note: 'Demo keys for this data directory only. Send one as the Authorization header (bare or as "Bearer <key>").',
  };

  await prisma.$transaction(async (tx) => {
    const country = ids.next();
    const regionNames = ['Greater Accra', 'Ashanti', 'Northern', 'Western'];
    const regions = regionNames.map((name) => ({ id: ids.next(), name, country, ...audit }));
    await tx.region.createMany({ data: regions });

    const assemblies = [
      { name: 'Accra Metropolitan Assembly', region: 0, digitalAddress: 'GA-107-2123', type: 'metropolitan' },
      { name: 'Tema Metropolitan Assembly', region: 0, digitalAddress: 'GT-019-4455', type: 'metropolitan' },
      { name: 'Kumasi Metropolitan Assembly', region: 1, digitalAddress: 'AK-039-5028', type: 'metropolitan' },
      { name: 'Tamale Metropolitan Assembly', region: 2, digitalAddress: 'NT-001-2020', type: 'metropolitan' },
      { name: 'Sekondi-Takoradi Metropolitan Assembly', region: 3, digitalAddress: 'WS-094-1150', type: 'metropolitan' },
    ].map((a) => ({ id: ids.next(), name: a.name, regionId: regions[a.region].id, digitalAddress: a.digitalAddress, type: a.type, ...audit }));
    await tx.assembly.createMany({ data: assemblies });

    const inspector = {
      id: ids.next(),
      assemblyId: assemblies[0].id,
      name: 'Abena Mensah',
      email: 'abena.mensah@ama.gov.gh',
      phone: '+233244000111',
      role: 'inspector',
      ...audit,
    };
    const approver = { ...inspector, id: ids.next(), name: 'Kwame Boateng', email: 'kwame.boateng@ama.gov.gh', phone: '+233244000222', role: 'approver' };
    await tx.assemblyUser.createMany({ data: [inspector, approver] });

    const union = {
      id: ids.next(),
      name: 'GPRTU Accra Branch',
      status: 'active',
      digitalAddress: 'GA-183-8164',
      contactNumber: '+233302000333',
      email: 'accra@gprtu.org.gh',
      zones: [ids.next()],
      ...audit,
    };
    await tx.transportUnion.create({ data: union });
    const station = {
      id: ids.next(),
      name: 'Kaneshie Station',
      transportUnions: [union.id],
      zones: union.zones,
      contactNumber: '302000444',
      digitalAddress: 'GA-222-1010',
      ...audit,
    };
    await tx.station.create({ data: station });

    const owners = [
      ['Kofi Asante', '+233244123456', 'kofi.asante@example.com', 'ghana_card', 'GHA-712345678-9', true],
      ['Ama Owusu', '+233201234567', 'ama.owusu@example.com', 'passport', 'G1234567', true],
      ['Yaw Darko', '+233551112223', 'yaw.darko@example.com', 'voter_id', '1234567890', false],
    ].map(([name, phone, email, idType, idNumber, verified]) => ({
      id: ids.next(), name: name as string, phone: phone as string, email: email as string,
      idType: idType as string, idNumber: idNumber as string, verified: verified as boolean, ...audit,
    }));
    await tx.vehicleOwner.createMany({ data: owners });

    const driverBase = {
      licenseClass: 'B', licenseIssueDate: at(-800), idType: 'ghana_card', gender: 'male',
      activationKeyHash: hashShortSecret('000000'), ...audit,
    };
    const drivers = [
      { id: ids.next(), name: 'Kojo Antwi', phone: '+233244555666', email: 'kojo.antwi@example.com', license: 'DL-0001-2020', licenseExpiry: at(400), idNumber: 'GHA-700000001-1', ownerId: owners[0].id, walletAccount: '233244555666', verified: true, approved: true, approvalChecklist: { validLicense: true, hasSmartPhone: true, canUseMap: true, criminalRecord: true }, approvedBy: approver.id, dateApproved: at(-30), dateActivated: at(-31), online: true, ratingTotal: 9, ratingCount: 2 },
      { id: ids.next(), name: 'Esi Quaye', phone: '+233209876543', email: 'esi.quaye@example.com', license: 'DL-0002-2021', licenseExpiry: at(200), idNumber: 'GHA-700000002-2', ownerId: owners[1].id, walletAccount: '233209876543', verified: true, dateActivated: at(-3), gender: 'female' },
      { id: ids.next(), name: 'Fiifi Mensah', phone: '+233277000999', email: 'fiifi.mensah@example.com', license: 'DL-0003-2022', licenseExpiry: at(90), idNumber: 'GHA-700000003-3', ownerId: owners[2].id },
    ].map((d) => ({ ...driverBase, ...d }));
    await tx.driver.createMany({ data: drivers });

    const vehicleBase = {
      make: 'Toyota', model: 'Corolla', makeYear: at(-9 * 365), yearOfRegistration: at(-8 * 365), capacity: 4,
      grossWeight: 1700, netWeight: 1300, type: 'taxi', fuelCapacity: 50, ...audit,
    };
    const inspected = (checklist: Record<string, boolean>, days: number) => ({
      inspected: true, inspectionChecklist: checklist, inspectedBy: inspector.id, dateInspected: at(days),
    });
    const approved = (days: number) => ({ approved: true, approvedBy: approver.id, dateApproved: at(days) });
    const vehicles = [
      // Newly registered: none of the inspection, approval or link fields.
      { ownerId: owners[2].id, color: '#FFD700', registrationNumber: 'GR 1001-24', roadWorthyExpiryDate: at(200), insuranceExpiryDate: at(300) },
      // Inspected with one failed item: cannot be approved yet.
      { ownerId: owners[1].id, color: '#1E90FF', registrationNumber: 'GW 2202-23', vin: '1HGCM82633A004352', roadWorthyExpiryDate: at(120), insuranceExpiryDate: at(150), ...inspected({ ...PASSED, spareTire: false }, -2) },
      // Inspected, everything passed, awaiting approval.
      { ownerId: owners[1].id, color: '#008000', registrationNumber: 'AS 3303-22', make: 'Hyundai', model: 'Elantra', roadWorthyExpiryDate: at(20), insuranceExpiryDate: at(200), ...inspected(PASSED, -1) },
      // Approved, not linked.
      { ownerId: owners[0].id, color: '#FFFFFF', registrationNumber: 'GT 4404-21', roadWorthyExpiryDate: at(300), insuranceExpiryDate: at(10), ...inspected(PASSED, -20), ...approved(-19) },
      // Approved and linked to a driver, a station and a union.
      { ownerId: owners[0].id, color: '#FF0000', registrationNumber: 'GE 5505-20', roadWorthyExpiryDate: at(250), insuranceExpiryDate: at(250), ...inspected(PASSED, -40), ...approved(-39), driverId: drivers[0].id, stationLinked: true, stationId: station.id, transportUnionId: union.id },
      // Approved, station unlinked again (present as null).
      { ownerId: owners[0].id, color: '#000', registrationNumber: 'GN 6606-19', roadWorthyExpiryDate: at(-5), insuranceExpiryDate: at(100), ...inspected(PASSED, -400), ...approved(-399), stationLinked: true, transportUnionId: union.id },
    ].map((v) => ({ id: ids.next(), ...vehicleBase, ...v }));
    await tx.vehicle.createMany({ data: vehicles });

    const service = (amount: number, ended: boolean) => ({
      _id: ids.next(), serviceID: `SRV-${ids.next().slice(-6).toUpperCase()}`, type: 'taxi',
      driver: { _id: drivers[0].id, name: drivers[0].name, phone: drivers[0].phone, email: drivers[0].email, walletAccount: drivers[0].walletAccount, rating: 4.5 },
      vehicle: { _id: vehicles[4].id, registrationNumber: vehicles[4].registrationNumber, make: 'Toyota', model: 'Corolla', capacity: 4, type: 'taxi' },
      pricing: { _id: ids.next(), type: 'standard', pricePerKm: 2.5, pricePerMinute: 0.3 },
      passengers: 1, amount, ended,
    });
    const point = (lng: number, lat: number) => ({ type: 'Point', coordinates: [lng, lat] });
    const trips = [
      { ticketNumber: 'TKT-0001', service: service(25.5, true), estimatedPrice: 2400, estimatedDistance: 8.2, finalPrice: 2550, cashPrice: 2550, settledAmount: 2550, settled: true, finalDistance: 8.6, paymentMethod: 'momo', checkedOut: true, checkOutTime: at(-2), droppedOffLocation: point(-0.2052, 5.5701), createdAt: at(-2), updatedAt: at(-2) },
      { ticketNumber: 'TKT-0002', service: service(18, true), estimatedPrice: 1800, estimatedDistance: 6.1, finalPrice: 1800, settledAmount: 1800, settled: true, refundAmount: 500, refunded: true, finalDistance: 6.0, paymentMethod: 'momo', checkedOut: true, checkOutTime: at(-1), droppedOffLocation: point(-0.1870, 5.6037), createdAt: at(-1), updatedAt: at(-1) },
      { ticketNumber: 'TKT-0003', service: service(0, false), estimatedPrice: 1500, estimatedDistance: 5, paymentMethod: 'cash', createdAt: now, updatedAt: now },
    ].map((t) => ({ id: ids.next(), user: 'passenger-demo', pickupLocation: point(-0.2166, 5.5560), serviceDestination: point(-0.2052, 5.5701), ...t }));
    await tx.trip.createMany({ data: trips });

    const merchant = { id: ids.next(), name: 'Demo Merchant', signingSecret: newApiKey('whsec'), ...audit };
    await tx.merchant.create({ data: merchant });
    const requestInfo = (reference: string, amount: number) => ({
      Message: 'Transaction pending. Expect callback request for final state',
      ResponseCode: '0001',
      Data: { TransactionId: ids.next(), Description: 'Trip payment', ClientReference: reference, Amount: amount, Charges: 0.05, AmountAfterCharges: amount - 0.05, AmountCharged: amount, DeliveryFee: 0 },
    });
    const tx1 = requestInfo('TRIP-TKT-0001', 25.5);
    await tx.transaction.createMany({
      data: [
        { id: ids.next(), merchantId: merchant.id, amount: 2550, fees: 5, status: 'success', requestType: 'mobile_money', description: 'Trip payment', reference: 'TRIP-TKT-0001', callBackUrl: 'https://merchant.example.com/payments/callback', customerName: 'Akua Sarpong', customerPhone: '+233244987654', requestInfo: tx1, callBackInfo: { ResponseCode: '0000', Message: 'success', Data: { Amount: 25.5, Charges: 0.05, AmountAfterCharges: 25.45, AmountCharged: 25.5, Description: 'The Mobile Money payment has been approved and processed successfully.', ClientReference: 'TRIP-TKT-0001', TransactionId: tx1.Data.TransactionId, ExternalTransactionId: '000011112222', OrderId: ids.next() } }, callBackTime: at(-2), ...audit },
        { id: ids.next(), merchantId: merchant.id, amount: 1500, fees: 0, status: 'pending', requestType: 'mobile_money', description: 'Trip payment', reference: 'TRIP-TKT-0003', callBackUrl: 'https://merchant.example.com/payments/callback', customerPhone: '+233201112223', requestInfo: requestInfo('TRIP-TKT-0003', 15), ...audit },
      ],
    });

    await tx.apiKey.createMany({
      data: [
        { id: ids.next(), keyHash: hashApiKey(credentials.admin), role: 'admin', principalId: ids.next(), label: 'demo admin', ...audit },
        { id: ids.next(), keyHash: hashApiKey(credentials.assembly), role: 'assembly', principalId: approver.id, label: 'demo assembly approver', ...audit },
        { id: ids.next(), keyHash: hashApiKey(credentials.merchant), role: 'merchant', principalId: merchant.id, label: 'demo merchant', ...audit },
      ],
    });
  });

  await mkdir(credentialsDir, { recursive: true });
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
