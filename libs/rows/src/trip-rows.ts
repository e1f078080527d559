import { moneyText, type TripState } from '@transport/domain';
import { toJson } from './json';

/**
 * A trip's `trips` row and its service's `trip_services` row (whose `tripId` is the trip's id); no drop-off yet
 * (`undefined`) leaves the column as it is on an update. Money is written as exact decimal text (numeric columns); the
 * pricing snapshot keeps its prices in millionths of a cedi (whole numbers in JSON).
 */
export function tripRows(s: TripState) {
  const trip = {
    id: s.id,
    ticketNumber: s.ticketNumber,
    estimatedPrice: moneyText(s.estimatedPrice),
    estimatedDistance: s.estimatedDistance,
    finalPrice: s.finalPrice === undefined ? null : moneyText(s.finalPrice),
    cashPrice: s.cashPrice === undefined ? null : moneyText(s.cashPrice),
    charges: moneyText(s.charges),
    settledAmount: moneyText(s.settledAmount),
    discount: moneyText(s.discount),
    settled: s.settled,
    finalDistance: s.finalDistance ?? null,
    refundAmount: moneyText(s.refundAmount),
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
    amount: moneyText(v.amount),
    ended: v.ended,
  };
  return { trip, service };
}
