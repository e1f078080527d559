import {
  Driver,
  Transaction,
  Trip,
  Vehicle,
  VehicleOwner,
  geoPoint,
  type DriverRegistration,
  type IdGenerator,
  type VehicleRegistration,
} from '../../src';
import { FixedClock, ObjectIdGeneratorFor, PlainTextHasher, SeededRandomSource } from './support';

export const T0 = new Date('2026-06-01T09:00:00.000Z');
export const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);
export const USER = '65a0000000000000000000a1';
/** Another assembly user: a vehicle's approver is never its inspector. */
export const APPROVER = '65a0000000000000000000a2';
export const hasher = new PlainTextHasher();

export function idsFor(seed: number): IdGenerator {
  return ObjectIdGeneratorFor(new FixedClock(T0), new SeededRandomSource(seed));
}

export function owner(ids: IdGenerator, n: number, when = at(n)) {
  return VehicleOwner.register(
    {
      name: `Owner ${n} Mensah`,
      phone: `024400${String(n).padStart(4, '0')}`,
      email: `owner${n}@example.com`,
      idType: 'ghana_card',
      idNumber: `GHA-${n}-00`,
    },
    ids,
    when,
  );
}

export function vehicle(
  ids: IdGenerator,
  ownerId: string,
  n: number,
  when = at(n),
  fields: Partial<VehicleRegistration> = {},
) {
  return Vehicle.register(
    {
      ownerId,
      registrationNumber: `GR ${1000 + n}-24`,
      roadWorthyExpiryDate: at(60 * 24 * (n + 1)),
      insuranceExpiryDate: at(60 * 24 * 400),
      make: 'Toyota',
      capacity: 4,
      ...fields,
    },
    ids,
    when,
  );
}

export function driver(ids: IdGenerator, n: number, when = at(n), fields: Partial<DriverRegistration> = {}) {
  return Driver.register(
    {
      name: `Driver ${n}`,
      phone: `020100${String(n).padStart(4, '0')}`,
      email: `Driver${n}@Example.com`,
      license: `DL-${n}-2020`,
      licenseClass: 'B',
      licenseExpiry: at(60 * 24 * 400),
      licenseIssueDate: at(-60 * 24 * 400),
      idType: 'ghana_card',
      idNumber: `GHA-D${n}`,
      gender: 'female',
      ...fields,
    },
    { ids, random: new SeededRandomSource(n + 1), hasher },
    when,
  );
}

export function trip(ids: IdGenerator, n: number, when: Date) {
  return Trip.create(
    {
      ticketNumber: `TKT-${n}`,
      serviceID: `SRV-${n}`,
      serviceType: 'taxi',
      driver: {
        id: '65a0000000000000000000d1',
        name: 'D',
        phone: '+233201000001',
        email: 'd@example.com',
        approved: true,
        verified: true,
      },
      vehicle: {
        id: '65a0000000000000000000e1',
        registrationNumber: 'GR 1-24',
        capacity: 4,
        approved: true,
        driverId: '65a0000000000000000000d1',
      },
      pricing: { id: '65a0000000000000000000c1', type: 'standard', pricePerKm: 2_500_000, pricePerMinute: 300_000 },
      passengers: 1,
      user: 'passenger',
      pickupLocation: geoPoint(-0.2, 5.5),
      serviceDestination: geoPoint(-0.21, 5.51),
      estimatedDistance: 5,
      estimatedMinutes: 12,
      paymentMethod: 'momo',
    },
    ids,
    when,
  );
}

export function transaction(ids: IdGenerator, merchantId: string, reference: string, when = T0) {
  return Transaction.request(
    {
      merchantId,
      amount: 25_500_000,
      description: 'Trip payment',
      reference,
      callBackUrl: 'https://merchant.example.com/cb',
      customerPhone: '0244987654',
      requestType: 'mobile_money',
    },
    { Message: 'pending', ResponseCode: '0001', Data: { Amount: 25.5, Charges: 0.05 } },
    ids,
    when,
  );
}
