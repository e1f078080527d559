import { geoPoint, moneyFromCedis, moneyToCedis } from '@transport/domain';
import { allPassed, days, passedDriverChecklist } from '@transport/domain/testing';
import { ADMIN, APPROVER, driverInput, fakePorts, INSPECTOR, ownerInput, PLATFORM } from '../core/testing/fixtures';
import { driversOnFakes, registerAndReadKey } from '../drivers/drivers.testing';
import { OwnersService } from '../owners/owners.service';
import { VehiclesService } from '../vehicles/vehicles.service';
import { TripsService, type NewTrip } from './trips.service';

async function setup() {
  const p = fakePorts();
  const trips = new TripsService(p.uow, p.stores, p.clock, p.ids);
  const owners = new OwnersService(p.uow, p.stores, p.clock, p.ids);
  const vehicles = new VehiclesService(p.uow, p.stores, p.clock, p.ids);
  const drivers = driversOnFakes(p);
  const owner = await owners.add(ownerInput(), INSPECTOR);
  const vehicle = await vehicles.register(
    {
      ownerId: owner._id,
      registrationNumber: 'GR 1-24',
      capacity: 4,
      roadWorthyExpiryDate: days(100),
      insuranceExpiryDate: days(100),
    },
    INSPECTOR,
  );
  await vehicles.inspect(vehicle._id, allPassed(), INSPECTOR);
  await vehicles.approve(vehicle._id, APPROVER);
  const driver = await registerAndReadKey(p, drivers, driverInput(), INSPECTOR);
  await drivers.activate(driver._id, driver.activationKey!, INSPECTOR, '203.0.113.7');
  await drivers.approve(driver._id, passedDriverChecklist, APPROVER);
  await vehicles.link(vehicle._id, { driver: driver._id }, INSPECTOR);
  const input = (over: Partial<NewTrip> = {}): NewTrip => ({
    ticketNumber: 'TKT-1',
    serviceID: 'SRV-1',
    serviceType: 'taxi',
    driverId: driver._id,
    vehicleId: vehicle._id,
    pricing: { type: 'standard', pricePerKm: 2_500_000, pricePerMinute: 300_000 },
    passengers: 1,
    user: 'passenger-1',
    pickupLocation: geoPoint(-0.2166, 5.556, 'pickupLocation'),
    serviceDestination: geoPoint(-0.19, 5.6, 'serviceDestination'),
    estimatedDistance: 8,
    estimatedMinutes: 20,
    ...over,
  });
  return { ...p, trips, driver, vehicle, input };
}

describe('TripsService on fakes', () => {
  it('records a trip with a snapshot of its driver and vehicle, audited once', async () => {
    const s = await setup();
    const trip = await s.trips.add(s.input(), PLATFORM);
    expect(trip.service).toMatchObject({
      driver: { _id: s.driver._id, name: 'Kojo Antwi' },
      vehicle: { _id: s.vehicle._id, registrationNumber: 'GR 1-24' },
      pricing: { pricePerKm: 2.5 },
    });
    expect(await s.trips.get(trip._id)).toEqual(trip);
    expect(s.uow.audit.entries.filter((e) => e.entityId === trip._id).map((e) => e.action)).toEqual(['TripCreated']);
  });

  it('refuses an unknown driver or vehicle (DRIVER_NOT_FOUND, VEHICLE_NOT_FOUND) and too many passengers, writing nothing', async () => {
    const s = await setup();
    await expect(s.trips.add(s.input({ driverId: '65a0000000000000000000ff' }), PLATFORM)).rejects.toMatchObject({
      code: 'DRIVER_NOT_FOUND',
      kind: 'rule',
    });
    await expect(s.trips.add(s.input({ vehicleId: '65a0000000000000000000ff' }), PLATFORM)).rejects.toMatchObject({
      code: 'VEHICLE_NOT_FOUND',
    });
    await expect(s.trips.add(s.input({ passengers: 9 }), PLATFORM)).rejects.toMatchObject({
      code: 'TRIP_TOO_MANY_PASSENGERS',
    });
    expect((await s.trips.listCreatedBetween({ from: days(-1), to: days(1) }, { limit: 10 }, ADMIN)).items).toEqual([]);
  });

  it('ends, checks out, settles for exactly the amount due, and refunds up to the settled amount', async () => {
    const s = await setup();
    const trip = await s.trips.add(s.input(), PLATFORM);
    await expect(s.trips.settle(trip._id, 100, 'cash', PLATFORM)).rejects.toMatchObject({ code: 'TRIP_NOT_ENDED' });
    const ended = await s.trips.end(
      trip._id,
      { finalDistance: 10, durationMinutes: 20, discount: 1_000_000, charges: 195_000 },
      PLATFORM,
      0,
    );
    expect(ended.finalPrice).toBeGreaterThan(0);
    await expect(
      s.trips.end(trip._id, { finalDistance: 10, durationMinutes: 20, discount: 0, charges: 0 }, PLATFORM),
    ).rejects.toMatchObject({ code: 'TRIP_ALREADY_ENDED' });
    expect(await s.trips.checkOut(trip._id, geoPoint(-0.19, 5.6, 'droppedOffLocation'), PLATFORM)).toMatchObject({
      checkedOut: true,
    });
    // Millionths of a cedi: a charge with a third decimal (0.195) is kept exactly.
    const due =
      moneyFromCedis(ended.finalPrice, 'finalPrice') -
      moneyFromCedis(ended.discount, 'discount') +
      moneyFromCedis(ended.charges, 'charges');
    expect(ended.charges).toBe(0.195);
    await expect(s.trips.settle(trip._id, due + 1, 'cash', PLATFORM)).rejects.toMatchObject({
      code: 'TRIP_SETTLEMENT_MISMATCH',
    });
    expect(await s.trips.settle(trip._id, due, 'momo', PLATFORM)).toMatchObject({
      settled: true,
      paymentMethod: 'momo',
    });
    await expect(s.trips.refund(trip._id, due + 1, PLATFORM)).rejects.toMatchObject({ code: 'TRIP_REFUND_TOO_LARGE' });
    expect(await s.trips.refund(trip._id, due, PLATFORM)).toMatchObject({
      refunded: true,
      refundAmount: moneyToCedis(due),
    });
  });

  it('refuses unknown trips and stale revisions', async () => {
    const s = await setup();
    const trip = await s.trips.add(s.input(), PLATFORM);
    await expect(s.trips.get('65a0000000000000000000ff')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(s.trips.checkOut(trip._id, geoPoint(0, 0, 'droppedOffLocation'), PLATFORM, 7)).rejects.toMatchObject({
      code: 'CONCURRENT_UPDATE',
    });
  });

  it('lists trips created in [from, to), newest first', async () => {
    const s = await setup();
    const first = await s.trips.add(s.input(), PLATFORM);
    s.clock.advance(60_000);
    const second = await s.trips.add(s.input({ ticketNumber: 'TKT-2' }), PLATFORM);
    const all = await s.trips.listCreatedBetween({ from: days(-1), to: days(1) }, { limit: 10 }, ADMIN);
    expect(all.items.map((t) => t._id)).toEqual([second._id, first._id]);
    expect((await s.trips.listCreatedBetween({ from: days(1), to: days(2) }, { limit: 10 }, ADMIN)).items).toEqual([]);
  });
});
