import { Inject, Injectable } from '@nestjs/common';
import {
  CommonErrors,
  ReferenceErrors,
  Trip,
  assemblyScope,
  auditEntriesFor,
  jurisdictionOf,
  type Actor,
  type Clock,
  type DataStores,
  type GeoPoint,
  type IdGenerator,
  type Page,
  type PageRequest,
  type Pricing,
  type TripRequest,
  type UnitOfWork,
} from '@transport/domain';
import { changeAggregate, type Transition } from '../core/change-aggregate';
import { CLOCK, ID_GENERATOR, STORES, UNIT_OF_WORK } from '../core/tokens';
import { toTripResponse, type TripResponse } from './trips.dto';

/**
 * A trip as the platform records it: the domain's request, with the driver and vehicle named by id (their snapshots
 * are taken here) and the pricing not yet given an id.
 */
export type NewTrip = Omit<TripRequest, 'driver' | 'vehicle' | 'pricing'> & {
  driverId: string;
  vehicleId: string;
  pricing: Omit<Pricing, 'id'>;
};

/** Intracity trips: recording, the trip's life (end, check-out, settlement, refunds), and the lists. */
@Injectable()
export class TripsService {
  constructor(
    @Inject(UNIT_OF_WORK) private readonly uow: UnitOfWork,
    @Inject(STORES) private readonly stores: DataStores,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
  ) {}

  /** Trips created in [from, to), newest first. */
  /** Assembly staff see their assembly's trips (by the vehicle's assembly when recorded); admins every trip. */
  async listCreatedBetween(
    range: { from: Date; to: Date },
    request: PageRequest,
    actor: Actor,
  ): Promise<Page<TripResponse>> {
    const page = await this.stores.trips.listCreatedBetween(range, request, assemblyScope(jurisdictionOf(actor)));
    return { ...page, items: page.items.map((t) => toTripResponse(t.toState())) };
  }

  async get(id: string): Promise<TripResponse> {
    const trip = await this.stores.trips.findById(id);
    if (!trip) throw CommonErrors.notFound('trip', id);
    return toTripResponse(trip.toState());
  }

  /** Creates a trip with a snapshot of the driver, the vehicle and the pricing as they are now. */
  async add(input: NewTrip, actor: Actor): Promise<TripResponse> {
    const saved = await this.uow.run(async (context) => {
      const [driver, vehicle] = await Promise.all([
        context.drivers.findById(input.driverId),
        context.vehicles.findById(input.vehicleId),
      ]);
      if (!driver) throw ReferenceErrors.missing('driver', input.driverId);
      if (!vehicle) throw ReferenceErrors.missing('vehicle', input.vehicleId);
      const d = driver.toState();
      const v = vehicle.toState();
      const trip = Trip.create(
        {
          ticketNumber: input.ticketNumber,
          serviceID: input.serviceID,
          serviceType: input.serviceType,
          driver: {
            id: d.id,
            name: d.name,
            phone: d.phone,
            email: d.email,
            walletAccount: d.walletAccount,
            rating: driver.rating,
            approved: d.approved,
            verified: d.verified,
          },
          vehicle: {
            id: v.id,
            registrationNumber: v.registrationNumber,
            make: v.make,
            model: v.model,
            capacity: v.capacity,
            type: v.type,
            approved: v.approved,
            driverId: v.driverId,
          },
          pricing: { id: this.ids.next(), ...input.pricing },
          passengers: input.passengers,
          user: input.user,
          pickupLocation: input.pickupLocation,
          serviceDestination: input.serviceDestination,
          estimatedDistance: input.estimatedDistance,
          estimatedMinutes: input.estimatedMinutes,
          paymentMethod: input.paymentMethod,
          assemblyId: v.assemblyId,
        },
        this.ids,
        this.clock.now(),
      );
      const stored = await context.trips.add(trip);
      await context.audit.append(auditEntriesFor('trip', trip.pullEvents(), actor, null, stored.toState()));
      return stored;
    });
    return toTripResponse(saved.toState());
  }

  /** The final price from the final distance and duration (once); money in millionths of a cedi. */
  end(
    id: string,
    input: { finalDistance: number; durationMinutes: number; discount: number; charges: number },
    actor: Actor,
    expectedVersion?: number,
  ): Promise<TripResponse> {
    return this.change(id, actor, expectedVersion, 'TripEnded', (t, at) => t.end(input, at));
  }

  checkOut(id: string, droppedOffLocation: GeoPoint, actor: Actor, expectedVersion?: number): Promise<TripResponse> {
    return this.change(id, actor, expectedVersion, 'TripCheckedOut', (t, at) => t.checkOut(droppedOffLocation, at));
  }

  /** Settles once, for exactly the amount due (millionths of a cedi). */
  settle(
    id: string,
    amount: number,
    paymentMethod: string,
    actor: Actor,
    expectedVersion?: number,
  ): Promise<TripResponse> {
    return this.change(id, actor, expectedVersion, 'TripSettled', (t, at) => t.settle(amount, paymentMethod, at));
  }

  /** Refunds add up to at most the settled amount (millionths of a cedi). */
  refund(id: string, amount: number, actor: Actor, expectedVersion?: number): Promise<TripResponse> {
    return this.change(id, actor, expectedVersion, 'TripRefunded', (t, at) => t.refund(amount, at));
  }

  private async change(
    id: string,
    actor: Actor,
    expectedVersion: number | undefined,
    action: string,
    transition: Transition<Trip>,
  ): Promise<TripResponse> {
    const spec = { entity: 'trip', store: (c: DataStores) => c.trips, id, actor, expectedVersion, action };
    const { saved } = await changeAggregate({ uow: this.uow, clock: this.clock }, spec, transition);
    return toTripResponse(saved.toState());
  }
}
