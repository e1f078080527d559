import {
  geoPoint,
  moneyToCedis,
  parseCallbackPayload,
  Transaction,
  Trip,
  type Driver,
  type Vehicle,
} from '@transport/domain';
import { newSigningSecret } from '../core/platform/secrets';
import type { DemoContext } from './demo-registry';
import type { PrismaExecutor } from './prisma-executor';

/** Trips of the working driver in the linked vehicle: one settled, one refunded, one under way. */
export async function seedTrips(
  { db, ids, now, at }: DemoContext,
  { accra, driver, vehicle }: { accra: string; driver: Driver; vehicle: Vehicle },
) {
  const drivers = [driver];
  const linkedVehicle = vehicle.toState();
  const driverState = drivers[0].toState();
  const tripRequest = (ticketNumber: string, estimatedDistance: number, paymentMethod: string) => ({
    ticketNumber,
    serviceID: `SRV-${ticketNumber.slice(-4)}`,
    serviceType: 'taxi',
    passengers: 1,
    user: 'passenger-demo',
    driver: {
      id: driverState.id,
      name: driverState.name,
      phone: driverState.phone,
      email: driverState.email,
      walletAccount: driverState.walletAccount,
      rating: drivers[0].rating,
      approved: true,
      verified: true,
    },
    vehicle: {
      id: linkedVehicle.id,
      registrationNumber: linkedVehicle.registrationNumber,
      make: linkedVehicle.make,
      model: linkedVehicle.model,
      capacity: linkedVehicle.capacity,
      type: linkedVehicle.type,
      approved: true,
      driverId: linkedVehicle.driverId,
    },
    pricing: { id: ids.next(), type: 'standard', pricePerKm: 2_500_000, pricePerMinute: 300_000 },
    pickupLocation: geoPoint(-0.2166, 5.556),
    serviceDestination: geoPoint(-0.2052, 5.5701),
    estimatedDistance,
    estimatedMinutes: 20,
    paymentMethod,
    assemblyId: accra,
  });
  const settled = Trip.create(tripRequest('TKT-0001', 8.2, 'momo'), ids, at(-2));
  settled.end({ finalDistance: 8.6, durationMinutes: 22 }, at(-2));
  settled.checkOut(geoPoint(-0.2052, 5.5701), at(-2));
  settled.settle(settled.amountDue ?? 0, 'momo', at(-2));
  const refunded = Trip.create(tripRequest('TKT-0002', 6.1, 'cash'), ids, at(-1));
  refunded.end({ finalDistance: 6, durationMinutes: 15, discount: 1_000_000 }, at(-1));
  refunded.checkOut(geoPoint(-0.187, 5.6037), at(-1));
  refunded.settle(refunded.amountDue ?? 0, 'cash', at(-1));
  refunded.refund(5_000_000, at(-1));
  const ongoing = Trip.create(tripRequest('TKT-0003', 5, 'momo'), ids, now);
  for (const t of [settled, refunded, ongoing]) await db.trips.add(t);
}

/** The demo merchant and its payments: one paid, one waiting for its callback. Answers the merchant's id. */
export async function seedPayments({ db, ids, now, at }: DemoContext, tx: PrismaExecutor): Promise<string> {
  const merchantId = ids.next();
  await tx.merchant.create({
    data: {
      id: merchantId,
      name: 'Demo Merchant',
      signingSecret: newSigningSecret(),
      createdAt: at(-400),
      updatedAt: at(-400),
    },
  });
  const request = (reference: string, amount: number) => ({
    merchantId,
    amount,
    description: 'Trip payment',
    reference,
    callBackUrl: 'https://merchant.example.com/payments/callback',
    customerName: 'Akua Sarpong',
    customerPhone: '0244987654',
    requestType: 'mobile_money',
  });
  const requestInfo = (reference: string, amount: number) => ({
    Message: 'Transaction pending. Expect callback request for final state',
    ResponseCode: '0001',
    Data: {
      TransactionId: ids.next(),
      Description: 'Trip payment',
      ClientReference: reference,
      Amount: moneyToCedis(amount),
      Charges: 0.05,
      AmountAfterCharges: moneyToCedis(amount - 50_000),
      AmountCharged: moneyToCedis(amount),
      DeliveryFee: 0,
    },
  });
  // The provider knows each payment by its platform-unique ClientReference: the transaction's id.
  const requested = (reference: string, amount: number, when: Date) => {
    const t = Transaction.intend(request(reference, amount), ids, when);
    t.applyRequestAnswer(requestInfo(t.id, amount), when);
    return t;
  };
  const paid = requested('TRIP-TKT-0001', 25_500_000, at(-2));
  paid.applyCallback(
    parseCallbackPayload({
      ResponseCode: '0000',
      Message: 'success',
      Data: {
        Amount: 25.5,
        Charges: 0.05,
        AmountAfterCharges: 25.45,
        AmountCharged: 25.5,
        Description: 'The Mobile Money payment has been approved and processed successfully.',
        ClientReference: paid.id,
        TransactionId: paid.toState().providerTransactionId ?? '',
        ExternalTransactionId: '000011112222',
        OrderId: ids.next(),
      },
    }),
    at(-2),
    true, // the demo's paid payment, as if the provider had signed its callback
  );
  const waiting = requested('TRIP-TKT-0003', 15_000_000, now);
  for (const t of [paid, waiting]) await db.transactions.add(t);
  return merchantId;
}
