import fc from 'fast-check';
import { DomainError } from '../shared/domain-error';
import { geoPoint } from '../shared/geo-point';
import { days, ports, T0, onlyRefusals } from '../testing/fixtures';
import { estimatePrice, type Pricing } from './pricing';
import { Trip, type TripRequest } from './trip';

/** Millionths of a cedi in a pesewa: the amounts below are written in pesewas. */
const P = 10_000;
const pricing: Pricing = {
  id: '65a0000000000000000000c1',
  type: 'standard',
  pricePerKm: 250 * P,
  pricePerMinute: 30 * P,
};

const driver = {
  id: '65a0000000000000000000d1',
  name: 'Kojo',
  phone: '+233244555666',
  email: 'k@example.com',
  walletAccount: '233244555666',
  rating: 4.5,
  approved: true,
  verified: true,
};
const vehicle = {
  id: '65a0000000000000000000e1',
  registrationNumber: 'GR 1-24',
  make: 'Toyota',
  model: 'Corolla',
  capacity: 4,
  type: 'taxi',
  approved: true,
  driverId: driver.id,
};
const request = (over: Partial<TripRequest> = {}): TripRequest => ({
  ticketNumber: 'TKT-1',
  serviceID: 'SRV-1',
  serviceType: 'taxi',
  driver,
  vehicle,
  pricing,
  passengers: 2,
  user: 'passenger-1',
  pickupLocation: geoPoint(-0.2166, 5.556),
  serviceDestination: geoPoint(-0.2052, 5.5701),
  estimatedDistance: 8,
  estimatedMinutes: 20,
  paymentMethod: 'momo',
  ...over,
});
const codeOf = (fn: () => unknown): string => {
  try {
    fn();
  } catch (error) {
    return (error as DomainError).code;
  }
  throw new Error('expected a DomainError');
};
const newTrip = (over: Partial<TripRequest> = {}) => Trip.create(request(over), ports().ids, T0);
const ended = () => {
  const t = newTrip();
  t.end({ finalDistance: 10, durationMinutes: 25, discount: 100 * P, charges: 50 * P }, days(1));
  return t;
};

describe('Trip creation', () => {
  it('snapshots the service and estimates the price in pesewas', () => {
    const s = newTrip().toState();
    expect(s.estimatedPrice).toBe((8 * 250 + 20 * 30) * P);
    expect(s.service).toMatchObject({
      serviceID: 'SRV-1',
      type: 'taxi',
      passengers: 2,
      amount: 0,
      ended: false,
      driver: { id: driver.id, rating: 4.5 },
      vehicle: { id: vehicle.id, capacity: 4 },
    });
    expect(s.service.driver).not.toHaveProperty('approved');
    expect(s).toMatchObject({
      settled: false,
      refunded: false,
      checkedOut: false,
      charges: 0,
      discount: 0,
      paymentMethod: 'momo',
    });
    expect(newTrip({ paymentMethod: undefined }).toState()).not.toHaveProperty('paymentMethod');
  });

  it.each([
    ['an unapproved vehicle', { vehicle: { ...vehicle, approved: false } }, 'TRIP_VEHICLE_NOT_APPROVED'],
    ['an unapproved driver', { driver: { ...driver, approved: false } }, 'TRIP_DRIVER_NOT_APPROVED'],
    ['an unverified driver', { driver: { ...driver, verified: false } }, 'TRIP_DRIVER_NOT_APPROVED'],
    ['a vehicle linked to someone else', { vehicle: { ...vehicle, driverId: undefined } }, 'TRIP_DRIVER_NOT_LINKED'],
    ['more passengers than seats', { passengers: 5 }, 'TRIP_TOO_MANY_PASSENGERS'],
    ['no passengers', { passengers: 0 }, 'INVALID_NUMBER'],
    ['an unknown service type', { serviceType: 'rocket' }, 'INVALID_VALUE'],
    ['an unknown payment method', { paymentMethod: 'gold' }, 'INVALID_VALUE'],
    ['a negative distance', { estimatedDistance: -1 }, 'INVALID_NUMBER'],
    ['an impossible duration', { estimatedMinutes: 100_000 }, 'INVALID_NUMBER'],
  ])('refuses %s', (_name, over, code) => {
    expect(codeOf(() => newTrip(over as Partial<TripRequest>))).toBe(code);
  });

  it("belongs to its vehicle's assembly when one is given, to none otherwise", () => {
    const accra = '65b000000000000000000001';
    expect(newTrip({ assemblyId: accra }).toState().assemblyId).toBe(accra);
    expect(newTrip().toState()).not.toHaveProperty('assemblyId');
    expect(codeOf(() => newTrip({ assemblyId: 'x' }))).toBe('INVALID_ID');
  });

  it('accepts any passenger count when the vehicle capacity is unknown', () => {
    expect(newTrip({ vehicle: { ...vehicle, capacity: undefined }, passengers: 9 }).toState().service.passengers).toBe(
      9,
    );
  });
});

describe('Trip life cycle', () => {
  it('ends with the final price from distance and time, once', () => {
    const t = ended();
    const s = t.toState();
    expect(s).toMatchObject({
      finalDistance: 10,
      finalPrice: (10 * 250 + 25 * 30) * P,
      discount: 100 * P,
      charges: 50 * P,
      service: { ended: true, amount: 3250 * P },
    });
    expect(t.amountDue).toBe((3250 - 100 + 50) * P);
    expect(codeOf(() => t.end({ finalDistance: 1, durationMinutes: 1 }, days(2)))).toBe('TRIP_ALREADY_ENDED');
  });

  it('ends without discount or charges when none are given, and refuses a discount above the price', () => {
    const t = newTrip();
    expect(t.amountDue).toBeUndefined();
    expect(codeOf(() => t.end({ finalDistance: 1, durationMinutes: 0, discount: 251 * P }, days(1)))).toBe(
      'TRIP_DISCOUNT_TOO_LARGE',
    );
    t.end({ finalDistance: 1, durationMinutes: 0 }, days(1));
    expect(t.toState()).toMatchObject({ discount: 0, charges: 0, finalPrice: 250 * P });
  });

  it('checks out once, after the end, recording where and when', () => {
    const early = newTrip();
    expect(codeOf(() => early.checkOut(geoPoint(0, 0), days(1)))).toBe('TRIP_NOT_ENDED');
    const t = ended();
    t.checkOut(geoPoint(-0.2, 5.5), days(2));
    expect(t.toState()).toMatchObject({
      checkedOut: true,
      checkOutTime: days(2),
      droppedOffLocation: { type: 'Point', coordinates: [-0.2, 5.5] },
    });
    expect(codeOf(() => t.checkOut(geoPoint(0, 0), days(3)))).toBe('TRIP_ALREADY_CHECKED_OUT');
  });

  it('settles once for exactly the amount due; cash settlements record the cash price', () => {
    expect(codeOf(() => newTrip().settle(100 * P, 'cash', days(1)))).toBe('TRIP_NOT_ENDED');
    const t = ended();
    expect(codeOf(() => t.settle(3199 * P, 'cash', days(2)))).toBe('TRIP_SETTLEMENT_MISMATCH');
    expect(codeOf(() => t.settle(3200 * P, 'barter', days(2)))).toBe('INVALID_VALUE');
    t.settle(3200 * P, 'cash', days(2));
    expect(t.toState()).toMatchObject({
      settled: true,
      settledAmount: 3200 * P,
      cashPrice: 3200 * P,
      paymentMethod: 'cash',
    });
    expect(codeOf(() => t.settle(3200 * P, 'cash', days(3)))).toBe('TRIP_ALREADY_SETTLED');
    const momo = ended();
    momo.settle(3200 * P, 'momo', days(2));
    expect(momo.toState()).not.toHaveProperty('cashPrice');
  });

  it('refunds only settled trips, in parts that never exceed the settled amount', () => {
    expect(codeOf(() => ended().refund(100 * P, days(2)))).toBe('TRIP_NOT_SETTLED');
    const t = ended();
    t.settle(3200 * P, 'momo', days(2));
    expect(codeOf(() => t.refund(0, days(3)))).toBe('INVALID_AMOUNT');
    t.refund(1200 * P, days(3));
    t.refund(2000 * P, days(3));
    expect(t.toState()).toMatchObject({ refunded: true, refundAmount: 3200 * P });
    expect(() => t.refund(1, days(4))).toThrow(/at most 0.00/);
  });

  it('keeps money with a third decimal exactly: a 1.95% charge of 10.00 and what is due with it', () => {
    const t = newTrip();
    t.end({ finalDistance: 10, durationMinutes: 25, charges: 195_000 }, days(1));
    expect(t.amountDue).toBe(3250 * P + 195_000);
    expect(() => t.settle(3250 * P, 'cash', days(2))).toThrow(/amount due: 32.695/);
    t.settle(32_695_000, 'cash', days(2));
    t.refund(12_345_000, days(3));
    expect(() => t.refund(20_350_001, days(3))).toThrow(/at most 20.35 is left/);
    expect(t.toState()).toMatchObject({ settledAmount: 32_695_000, cashPrice: 32_695_000, refundAmount: 12_345_000 });
  });

  it('records each step as an event', () => {
    const t = ended();
    t.checkOut(geoPoint(0, 0), days(2));
    t.settle(3200 * P, 'momo', days(2));
    t.refund(10, days(3));
    expect(t.pullEvents().map((e) => e.type)).toEqual([
      'TripCreated',
      'TripEnded',
      'TripCheckedOut',
      'TripSettled',
      'TripRefunded',
    ]);
    expect(t.pullEvents()).toEqual([]);
  });

  it('restores from state', () => {
    const t = Trip.restore({ ...ended().toState(), version: 2 });
    expect([t.version, typeof t.id]).toEqual([2, 'string']);
  });

  it('prices exactly, rounding to the nearest pesewa', () => {
    expect(estimatePrice({ ...pricing, pricePerKm: 333 * P }, 1.5, 0)).toBe(500 * P);
    // A price per km with a third decimal (2.345) is kept; the fare of a measured distance is whole pesewas.
    expect(estimatePrice({ ...pricing, pricePerKm: 2_345_000, pricePerMinute: 0 }, 2, 0)).toBe(4_690_000);
    expect(estimatePrice({ ...pricing, pricePerKm: 2_345_000, pricePerMinute: 0 }, 1, 0)).toBe(2_350_000);
    expect(() => estimatePrice({ ...pricing, pricePerKm: 0.5 }, 1, 0)).toThrow(/pricePerKm/);
    expect(() => estimatePrice(pricing, 2000, 0)).toThrow(/distance/);
  });
});

describe('Trip refunds (property)', () => {
  it('never refund more in total than was settled', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -5, max: 5000 * P }), { maxLength: 20 }), (refunds) => {
        const t = ended();
        t.settle(3200 * P, 'momo', days(2));
        for (const amount of refunds) {
          try {
            t.refund(amount, days(3));
          } catch (error) {
            onlyRefusals(error); // refused refunds change nothing
          }
          const s = t.toState();
          expect(s.refundAmount).toBeLessThanOrEqual(s.settledAmount);
          expect(s.refunded).toBe(s.refundAmount > 0);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('Trip pricing (property)', () => {
  it('prices any exact prices, distance and time as whole pesewas within half a pesewa of the exact fare', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1_000_000_000 }),
        fc.integer({ min: 0, max: 1_000_000_000 }),
        fc.integer({ min: 0, max: 100_000 }),
        fc.integer({ min: 0, max: 1_440 }),
        (perKm, perMinute, metres, minutes) => {
          const km = metres / 100;
          const price = estimatePrice({ ...pricing, pricePerKm: perKm, pricePerMinute: perMinute }, km, minutes);
          expect(Number.isSafeInteger(price) && price % P === 0).toBe(true);
          // The exact fare in millionths, as an integer ratio (metres / 100 km): no float in the check.
          const exactTimes100 = BigInt(perKm) * BigInt(metres) + BigInt(perMinute) * BigInt(minutes) * 100n;
          const diffTimes100 = BigInt(price) * 100n - exactTimes100;
          expect(diffTimes100 <= BigInt(P) * 50n && diffTimes100 >= -BigInt(P) * 50n).toBe(true);
        },
      ),
      { numRuns: 500 },
    );
  });
});
