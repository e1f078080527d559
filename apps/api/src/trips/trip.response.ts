import { pesewasToCedis, type GeoPoint, type TripState } from '@transport/domain';

/** The Trip of the interface. Money in cedis (two decimals at most), distances in kilometres. */
export interface TripResponse {
  _id: string;
  service: {
    _id: string;
    serviceID: string;
    type: string;
    driver: { _id: string; name: string; phone: string; email: string; walletAccount?: string; rating?: number };
    vehicle: { _id: string; registrationNumber?: string; make?: string; model?: string; capacity?: number; type?: string };
    pricing: { _id: string; type: string; pricePerKm: number; pricePerMinute: number };
    passengers: number;
    amount: number;
    ended: boolean;
  };
  ticketNumber: string;
  estimatedPrice: number;
  estimatedDistance: number;
  finalPrice?: number;
  cashPrice?: number;
  charges: number;
  settledAmount: number;
  discount: number;
  settled: boolean;
  finalDistance?: number;
  refundAmount: number;
  refunded: boolean;
  paymentMethod?: string;
  user: string;
  pickupLocation: GeoPoint;
  serviceDestination: GeoPoint;
  droppedOffLocation?: GeoPoint;
  checkedOut: boolean;
  checkOutTime?: string;
  createdAt: string;
  updatedAt: string;
  __v: number;
}

const dropUndefined = <T extends object>(o: T): T => {
  for (const key of Object.keys(o) as Array<keyof T>) if (o[key] === undefined) delete o[key];
  return o;
};
const cedis = (p: number | undefined) => (p === undefined ? undefined : pesewasToCedis(p));

export function toTripResponse(t: TripState): TripResponse {
  const s = t.service;
  return dropUndefined({
    _id: t.id,
    service: {
      _id: s.id,
      serviceID: s.serviceID,
      type: s.type,
      driver: dropUndefined({ _id: s.driver.id, name: s.driver.name, phone: s.driver.phone, email: s.driver.email, walletAccount: s.driver.walletAccount, rating: s.driver.rating }),
      vehicle: dropUndefined({ _id: s.vehicle.id, registrationNumber: s.vehicle.registrationNumber, make: s.vehicle.make, model: s.vehicle.model, capacity: s.vehicle.capacity, type: s.vehicle.type }),
      pricing: { _id: s.pricing.id, type: s.pricing.type, pricePerKm: pesewasToCedis(s.pricing.pricePerKm), pricePerMinute: pesewasToCedis(s.pricing.pricePerMinute) },
      passengers: s.passengers,
      amount: pesewasToCedis(s.amount),
      ended: s.ended,
    },
    ticketNumber: t.ticketNumber,
    estimatedPrice: pesewasToCedis(t.estimatedPrice),
    estimatedDistance: t.estimatedDistance,
    finalPrice: cedis(t.finalPrice),
    cashPrice: cedis(t.cashPrice),
    charges: pesewasToCedis(t.charges),
    settledAmount: pesewasToCedis(t.settledAmount),
    discount: pesewasToCedis(t.discount),
    settled: t.settled,
    finalDistance: t.finalDistance,
    refundAmount: pesewasToCedis(t.refundAmount),
    refunded: t.refunded,
    paymentMethod: t.paymentMethod,
    user: t.user,
    pickupLocation: t.pickupLocation,
    serviceDestination: t.serviceDestination,
    droppedOffLocation: t.droppedOffLocation,
    checkedOut: t.checkedOut,
    checkOutTime: t.checkOutTime?.toISOString(),
    createdAt: t.createdAt.toISOString(),
    updatedAt: t.updatedAt.toISOString(),
    __v: t.version,
  });
}
