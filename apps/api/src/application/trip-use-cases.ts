import { DomainError, Trip, type IdGenerator, type Pricing, type TripRequest } from '@transport/domain';
import { auditEntriesFor, type Actor } from './audit-log';
import { changeAggregate, type UseCaseDeps } from './change-aggregate';
import type { WorkContext } from './unit-of-work';

/** A trip as the platform records it: the domain's request, with the driver and vehicle named by id (their snapshots
 * are taken here) and the pricing not yet given an id. */
export type NewTrip = Omit<TripRequest, 'driver' | 'vehicle' | 'pricing'> & {
  driverId: string;
  vehicleId: string;
  pricing: Omit<Pricing, 'id'>;
};

/** Creates a trip with a snapshot of the driver, the vehicle and the pricing as they are now. */
export function addTrip(deps: UseCaseDeps & { ids: IdGenerator }, input: NewTrip, actor: Actor): Promise<Trip> {
  return deps.uow.run(async (context) => {
    const [driver, vehicle] = await Promise.all([context.drivers.findById(input.driverId), context.vehicles.findById(input.vehicleId)]);
    if (!driver) throw new DomainError('DRIVER_NOT_FOUND', `driver ${input.driverId} names no record`, 'rule', 'driver');
    if (!vehicle) throw new DomainError('VEHICLE_NOT_FOUND', `vehicle ${input.vehicleId} names no record`, 'rule', 'vehicle');
    const d = driver.toState();
    const v = vehicle.toState();
    const trip = Trip.create(
      {
        ticketNumber: input.ticketNumber,
        serviceID: input.serviceID,
        serviceType: input.serviceType,
        driver: { id: d.id, name: d.name, phone: d.phone, email: d.email, walletAccount: d.walletAccount, rating: driver.rating, approved: d.approved, verified: d.verified },
        vehicle: { id: v.id, registrationNumber: v.registrationNumber, make: v.make, model: v.model, capacity: v.capacity, type: v.type, approved: v.approved, driverId: v.driverId },
        pricing: { id: deps.ids.next(), ...input.pricing },
        passengers: input.passengers,
        user: input.user,
        pickupLocation: input.pickupLocation,
        serviceDestination: input.serviceDestination,
        estimatedDistance: input.estimatedDistance,
        estimatedMinutes: input.estimatedMinutes,
        paymentMethod: input.paymentMethod,
      },
      deps.ids,
      deps.clock.now(),
    );
    const saved = await context.trips.add(trip);
    await context.audit.append(auditEntriesFor('trip', trip.pullEvents(), actor, null, saved.toState()));
    return saved;
  });
}

export async function changeTrip(deps: UseCaseDeps, tripId: string, actor: Actor, action: string, transition: (trip: Trip, at: Date) => void, expectedVersion?: number): Promise<Trip> {
  const spec = { entity: 'trip', store: (c: WorkContext) => c.trips, id: tripId, actor, expectedVersion, action };
  return (await changeAggregate(deps, spec, transition)).saved;
}
