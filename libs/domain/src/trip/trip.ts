import { requireText } from '../shared/contact';
import type { DomainEvent } from '../shared/events';
import type { GeoPoint } from '../shared/geo-point';
import { assertObjectId, type IdGenerator } from '../shared/id-generator';
import { oneOf } from '../shared/identity';
import { assertMoney } from '../shared/money';
import { boundedNumber } from '../shared/values';
import { estimatePrice, MAX_TRIP_KM, type Pricing } from './pricing';
import { TripErrors } from './trip.errors';
import type { Mutable } from '../shared/mutable';

export const PAYMENT_METHODS = ['cash', 'momo', 'card', 'wallet'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
export const SERVICE_TYPES = ['taxi', 'shared', 'delivery'] as const;

/** The driver as the trip saw them when the service started (later changes to the driver do not rewrite trips). */
export interface DriverSnapshot {
  readonly id: string;
  readonly name: string;
  readonly phone: string;
  readonly email: string;
  readonly walletAccount?: string;
  readonly rating?: number;
  readonly approved: boolean;
  readonly verified: boolean;
}

export interface VehicleSnapshot {
  readonly id: string;
  readonly registrationNumber?: string;
  readonly make?: string;
  readonly model?: string;
  readonly capacity?: number;
  readonly type?: string;
  readonly approved: boolean;
  readonly driverId?: string;
}

export interface TripServiceState {
  readonly id: string;
  readonly serviceID: string;
  readonly type: string;
  readonly driver: Omit<DriverSnapshot, 'approved' | 'verified'>;
  readonly vehicle: Omit<VehicleSnapshot, 'approved' | 'driverId'>;
  readonly pricing: Pricing;
  readonly passengers: number;
  /** Millionths of a cedi (exact money). */
  readonly amount: number;
  readonly ended: boolean;
}

/**
 * Money fields are exact: whole millionths of a cedi (`MONEY_DECIMALS`; an imported price of 12.345 is 12345000);
 * distances kilometres.
 */
export interface TripState {
  readonly id: string;
  readonly ticketNumber: string;
  readonly service: TripServiceState;
  readonly estimatedPrice: number;
  readonly estimatedDistance: number;
  readonly finalPrice?: number;
  readonly cashPrice?: number;
  readonly charges: number;
  readonly settledAmount: number;
  readonly discount: number;
  readonly settled: boolean;
  readonly finalDistance?: number;
  readonly refundAmount: number;
  readonly refunded: boolean;
  readonly paymentMethod?: PaymentMethod;
  readonly user: string;
  readonly pickupLocation: GeoPoint;
  readonly serviceDestination: GeoPoint;
  readonly droppedOffLocation?: GeoPoint;
  readonly checkedOut: boolean;
  readonly checkOutTime?: Date;
  /** The assembly of the vehicle when the trip was recorded (whose staff see it); absent: unassigned. */
  readonly assemblyId?: string;
  readonly version: number;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

export interface TripRequest {
  ticketNumber: string;
  serviceID: string;
  serviceType: string;
  driver: DriverSnapshot;
  vehicle: VehicleSnapshot;
  pricing: Pricing;
  passengers: number;
  user: string;
  pickupLocation: GeoPoint;
  serviceDestination: GeoPoint;
  estimatedDistance: number;
  estimatedMinutes: number;
  paymentMethod?: string;
  /** The vehicle's assembly as it is now. */
  assemblyId?: string;
}

/**
 * An intracity trip: created with a snapshot of its service (driver, vehicle, pricing), then ended, checked out,
 * settled once and refunded at most up to what was settled.
 */
export class Trip {
  private events: DomainEvent[] = [];

  private constructor(private state: Mutable<TripState>) {}

  static create(input: TripRequest, ids: IdGenerator, at: Date): Trip {
    const { driver, vehicle } = input;
    if (!vehicle.approved) throw TripErrors.vehicleNotApproved();
    if (!driver.approved || !driver.verified) throw TripErrors.driverNotApproved();
    if (vehicle.driverId !== driver.id) throw TripErrors.driverNotLinked();
    const passengers = boundedNumber(input.passengers, 'passengers', 1, 100, true);
    if (vehicle.capacity !== undefined && passengers > vehicle.capacity) throw TripErrors.tooManyPassengers();
    const estimatedDistance = boundedNumber(input.estimatedDistance, 'estimatedDistance', 0, MAX_TRIP_KM);
    const service: TripServiceState = {
      id: ids.next(),
      serviceID: requireText(input.serviceID, 'serviceID', 60),
      type: oneOf(SERVICE_TYPES, input.serviceType, 'service.type'),
      driver: {
        id: driver.id,
        name: driver.name,
        phone: driver.phone,
        email: driver.email,
        walletAccount: driver.walletAccount,
        rating: driver.rating,
      },
      vehicle: {
        id: vehicle.id,
        registrationNumber: vehicle.registrationNumber,
        make: vehicle.make,
        model: vehicle.model,
        capacity: vehicle.capacity,
        type: vehicle.type,
      },
      pricing: { ...input.pricing },
      passengers,
      amount: 0,
      ended: false,
    };
    const state: Mutable<TripState> = {
      id: ids.next(),
      ticketNumber: requireText(input.ticketNumber, 'ticketNumber', 40),
      service,
      estimatedPrice: estimatePrice(input.pricing, estimatedDistance, input.estimatedMinutes),
      estimatedDistance,
      charges: 0,
      settledAmount: 0,
      discount: 0,
      settled: false,
      refundAmount: 0,
      refunded: false,
      user: requireText(input.user, 'user', 120),
      pickupLocation: input.pickupLocation,
      serviceDestination: input.serviceDestination,
      checkedOut: false,
      version: 0,
      createdAt: at,
      updatedAt: at,
    };
    if (input.paymentMethod !== undefined)
      state.paymentMethod = oneOf(PAYMENT_METHODS, input.paymentMethod, 'paymentMethod');
    if (input.assemblyId !== undefined) state.assemblyId = assertObjectId(input.assemblyId, 'assembly');
    const trip = new Trip(state);
    trip.record('TripCreated', at);
    return trip;
  }

  static restore(state: TripState): Trip {
    return new Trip({ ...state });
  }

  get id(): string {
    return this.state.id;
  }
  get version(): number {
    return this.state.version;
  }
  /** What the passenger owes once the trip has ended: final price less discount plus charges (millionths of a cedi). */
  get amountDue(): number | undefined {
    const s = this.state;
    return s.finalPrice === undefined ? undefined : s.finalPrice - s.discount + s.charges;
  }

  toState(): TripState {
    return { ...this.state };
  }

  pullEvents(): DomainEvent[] {
    const out = this.events;
    this.events = [];
    return out;
  }

  /** Prices the trip from the final distance and duration; discount and charges in millionths of a cedi. */
  end(input: { finalDistance: number; durationMinutes: number; discount?: number; charges?: number }, at: Date): void {
    const s = this.state;
    if (s.service.ended) throw TripErrors.alreadyEnded();
    const finalDistance = boundedNumber(input.finalDistance, 'finalDistance', 0, MAX_TRIP_KM);
    const price = estimatePrice(s.service.pricing, finalDistance, input.durationMinutes);
    const discount = assertMoney(input.discount ?? 0, 'discount');
    const charges = assertMoney(input.charges ?? 0, 'charges');
    if (discount > price) throw TripErrors.discountTooLarge();
    s.service = { ...s.service, amount: price, ended: true };
    s.finalDistance = finalDistance;
    s.finalPrice = price;
    s.discount = discount;
    s.charges = charges;
    s.updatedAt = at;
    this.record('TripEnded', at, { finalPrice: price });
  }

  checkOut(location: GeoPoint, at: Date): void {
    const s = this.state;
    if (!s.service.ended) throw TripErrors.notEnded();
    if (s.checkedOut) throw TripErrors.alreadyCheckedOut();
    s.checkedOut = true;
    s.droppedOffLocation = location;
    s.checkOutTime = at;
    s.updatedAt = at;
    this.record('TripCheckedOut', at);
  }

  /** Once, for exactly the amount due (millionths of a cedi). */
  settle(amount: number, method: string, at: Date): void {
    const s = this.state;
    const due = this.amountDue;
    if (due === undefined) throw TripErrors.notEnded();
    if (s.settled) throw TripErrors.alreadySettled();
    const paymentMethod = oneOf(PAYMENT_METHODS, method, 'paymentMethod');
    if (assertMoney(amount, 'amount') !== due) throw TripErrors.settlementMismatch(due);
    s.settled = true;
    s.settledAmount = amount;
    s.paymentMethod = paymentMethod;
    if (paymentMethod === 'cash') s.cashPrice = amount;
    s.updatedAt = at;
    this.record('TripSettled', at, { amount, paymentMethod });
  }

  /** Partial refunds add up; together they never exceed the settled amount (millionths of a cedi). */
  refund(amount: number, at: Date): void {
    const s = this.state;
    if (!s.settled) throw TripErrors.notSettled();
    if (assertMoney(amount, 'amount') === 0) throw TripErrors.refundNotPositive();
    const left = s.settledAmount - s.refundAmount;
    if (amount > left) throw TripErrors.refundTooLarge(left);
    s.refundAmount += amount;
    s.refunded = true;
    s.updatedAt = at;
    this.record('TripRefunded', at, { amount, total: s.refundAmount });
  }

  private record(type: string, at: Date, data?: Record<string, unknown>): void {
    this.events.push({ type, aggregateId: this.state.id, at, data });
  }
}
