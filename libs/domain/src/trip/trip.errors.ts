import { DomainError } from '../shared/domain-error';
import { moneyText } from '../shared/money';

export const TripErrors = {
  vehicleNotApproved: () => new DomainError('TRIP_VEHICLE_NOT_APPROVED', 'Trips need an approved vehicle'),
  driverNotApproved: () =>
    new DomainError('TRIP_DRIVER_NOT_APPROVED', 'Trips need an approved driver who has activated the account'),
  driverNotLinked: () => new DomainError('TRIP_DRIVER_NOT_LINKED', 'The vehicle is not linked to this driver'),
  tooManyPassengers: () =>
    new DomainError('TRIP_TOO_MANY_PASSENGERS', 'More passengers than the vehicle has seats', 'passengers'),
  alreadyEnded: () => new DomainError('TRIP_ALREADY_ENDED', 'The trip has already ended'),
  notEnded: () => new DomainError('TRIP_NOT_ENDED', 'End the trip first'),
  alreadyCheckedOut: () => new DomainError('TRIP_ALREADY_CHECKED_OUT', 'The passenger has already checked out'),
  alreadySettled: () => new DomainError('TRIP_ALREADY_SETTLED', 'The trip is already settled'),
  notSettled: () => new DomainError('TRIP_NOT_SETTLED', 'Only a settled trip can be refunded'),
  discountTooLarge: () =>
    new DomainError('TRIP_DISCOUNT_TOO_LARGE', 'discount cannot be more than the final price', 'discount'),
  settlementMismatch: (due: number) =>
    new DomainError(
      'TRIP_SETTLEMENT_MISMATCH',
      `The amount settled must be the amount due: ${moneyText(due)}`,
      'amount',
    ),
  refundTooLarge: (left: number) =>
    new DomainError(
      'TRIP_REFUND_TOO_LARGE',
      `Refunds cannot exceed the settled amount; at most ${moneyText(left)} is left`,
      'amount',
    ),
  refundNotPositive: () => new DomainError('INVALID_AMOUNT', 'A refund must be more than zero', 'amount'),
};
