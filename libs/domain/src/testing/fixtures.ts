// The fixtures every test shares, the domain's and the apps': times, ids of the actors, the ports, valid inputs.

import { DomainError } from '../shared/domain-error';
import { FixedClock, SeededRandomSource } from './fakes';
import { PlainTextHasher, SequentialIdGenerator } from './fakes';
import type { VehicleRegistration } from '../vehicle/vehicle';
import type { DriverRegistration } from '../driver/driver';
import { allChecksPassed } from '../driver/approval-checklist';

export const T0 = new Date('2026-06-01T09:00:00.000Z');
export const DAY = 86_400_000;
export const days = (n: number, from: Date = T0) => new Date(from.getTime() + n * DAY);

export const OWNER = '65a000000000000000000001';
export const INSPECTOR = '65a000000000000000000002';
export const APPROVER = '65a000000000000000000003';
export const STATION = '65a000000000000000000004';
export const UNION = '65a000000000000000000005';

export function ports(seed = 1) {
  return {
    ids: new SequentialIdGenerator(),
    random: new SeededRandomSource(seed),
    hasher: new PlainTextHasher(),
    clock: new FixedClock(T0),
  };
}

/** The domain's own: a checklist on which every item passed. */
export { allPassed } from '../vehicle/inspection-checklist';

export const vehicleInput = (over: Partial<VehicleRegistration> = {}): VehicleRegistration => ({
  ownerId: OWNER,
  registrationNumber: 'GR 1234-24',
  roadWorthyExpiryDate: days(180),
  insuranceExpiryDate: days(365),
  ...over,
});

export const driverInput = (over: Partial<DriverRegistration> = {}): DriverRegistration => ({
  name: 'Kojo Antwi',
  phone: '0244555666',
  email: 'Kojo.Antwi@Example.com',
  license: 'dl-0001-2020',
  licenseClass: 'B',
  licenseExpiry: days(400),
  licenseIssueDate: days(-800),
  idType: 'ghana_card',
  idNumber: 'GHA-700000001-1',
  gender: 'male',
  ...over,
});

/** The domain's own: a driver's checklist on which every check passed. */
export const passedDriverChecklist = allChecksPassed();

/**
 * For property tests that try transitions a rule may refuse: a refusal is a DomainError; anything else (a TypeError,
 * a RangeError) is a bug and must fail the property, so it is thrown on.
 */
export function onlyRefusals(error: unknown): void {
  if (!(error instanceof DomainError)) throw error;
}
