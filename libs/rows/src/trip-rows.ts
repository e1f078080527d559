import type { TripState } from '@transport/domain';
import { toJson } from './json';

/**
 * A trip's `trips` row and its service's `trip_services` row (whose `tripId` is the trip's id); no drop-off yet
 * (`undefined`) leaves the column as it is on an update.
 */
export function tripRows(s: TripState) {
  const trip = {
    id: s.id,
    ticketNumber: s.ticketNumber,
    estimatedPrice: s.estimatedPrice,
    estimatedDistance: s.estimatedDistance,
    finalPrice: s.finalPrice ?? null,
    cashPrice: s.cashPrice ?? null,
    charges: s.charges,
    settledAmount: s.settledAmount,
    discount: s.discount,
    settled: s.settled,
    finalDistance: s.finalDistance ?? null,
    refundAmount: s.refundAmount,
    refunded: s.refunded,
    paymentMethod: s.paymentMethod ?? null,
    user: s.user,
    pickupLocation: toJson(s.pickupLocation),
    serviceDestination: toJson(s.serviceDestination),
    droppedOffLocation: s.droppedOffLocation ? toJson(s.droppedOffLocation) : undefined,
    checkedOut: s.checkedOut,
    checkOutTime: s.checkOutTime ?? null,
    assemblyId: s.assemblyId ?? null,
    version: s.version,
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
  };
  const v = s.service;
  const service = {
    id: v.id,
    serviceID: v.serviceID,
    type: v.type,
    driver: toJson(v.driver),
    vehicle: toJson(v.vehicle),
    pricing: toJson(v.pricing),
    passengers: v.passengers,
    amount: v.amount,
    ended: v.ended,
  };
  return { trip, service };
}
