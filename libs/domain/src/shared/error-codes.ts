import type { DomainErrorKind } from './domain-error';

/**
 * Every code a DomainError can carry, with its kind. The kind is the code's, not the throw site's: a code always maps
 * to the same HTTP status (validation 400, not_found 404, conflict 409, rule 422). Two families look alike on purpose:
 * - `NOT_FOUND`: the record the request addresses (its path) does not exist, or is not the caller's to see (404).
 * - `<THING>_NOT_FOUND`: a reference inside the request (an ownerID, a region) names no record (422): the request
 *   is well-formed, but the world it refers to is not as the caller thinks.
 * The app adds its HTTP-level codes (UNAUTHORIZED, RATE_LIMITED, ...) in one place of its own (apps/api/src/core/errors.ts).
 */
export const ERROR_KINDS = {
  // The input itself is malformed (400).
  CALLBACK_URL_REFUSED: 'validation',
  INVALID_AMOUNT: 'validation',
  INVALID_CALLBACK: 'validation',
  INVALID_CHECKLIST: 'validation',
  INVALID_COLOR: 'validation',
  INVALID_DATE: 'validation',
  INVALID_DATES: 'validation',
  INVALID_DATE_RANGE: 'validation',
  INVALID_DIGITAL_ADDRESS: 'validation',
  INVALID_DOCUMENT_NUMBER: 'validation',
  INVALID_EMAIL: 'validation',
  INVALID_ID: 'validation',
  INVALID_ID_LIST: 'validation',
  INVALID_LOCATION: 'validation',
  INVALID_NUMBER: 'validation',
  INVALID_PAYMENT_REQUEST: 'validation',
  INVALID_PHONE: 'validation',
  INVALID_RATING: 'validation',
  INVALID_REGISTRATION_NUMBER: 'validation',
  INVALID_ROLE: 'validation',
  INVALID_TEXT: 'validation',
  INVALID_VALUE: 'validation',
  INVALID_VEHICLE_TYPE: 'validation',
  INVALID_VIN: 'validation',
  INVALID_WEIGHTS: 'validation',
  PHONE_NOT_ALLOWED: 'validation',
  // The addressed record does not exist (404).
  NOT_FOUND: 'not_found',
  // Collides with stored data: a duplicate, a lost race, a repeated transition (409).
  ALREADY_IN_ASSEMBLY: 'conflict',
  ASSEMBLY_USER_EMAIL_TAKEN: 'conflict',
  ASSEMBLY_USER_PHONE_TAKEN: 'conflict',
  ASSEMBLY_USER_DISABLED: 'conflict',
  CONCURRENT_UPDATE: 'conflict',
  DRIVER_ALREADY_ACTIVATED: 'conflict',
  DRIVER_ALREADY_APPROVED: 'conflict',
  DRIVER_EMAIL_TAKEN: 'conflict',
  DUPLICATE: 'conflict',
  DUPLICATE_ID: 'conflict',
  OWNER_ALREADY_VERIFIED: 'conflict',
  REGION_TAKEN: 'conflict',
  TRANSACTION_REFERENCE_CONFLICT: 'conflict',
  TRANSACTION_REFERENCE_TAKEN: 'conflict',
  TRIP_ALREADY_CHECKED_OUT: 'conflict',
  TRIP_ALREADY_ENDED: 'conflict',
  TRIP_ALREADY_SETTLED: 'conflict',
  TRIP_TICKET_TAKEN: 'conflict',
  VEHICLE_ALREADY_APPROVED: 'conflict',
  VEHICLE_REGISTRATION_TAKEN: 'conflict',
  // Well-formed, but the state or a reference does not allow it (422).
  ASSEMBLY_NOT_FOUND: 'rule',
  CANNOT_DISABLE_SELF: 'rule',
  CORRECTION_NOT_ALLOWED: 'rule',
  DRIVER_ACTIVATION_KEY_INVALID: 'rule',
  // An Idempotency-Key sent again with another body or to another route: a different request under a used key.
  IDEMPOTENCY_KEY_REUSED: 'rule',
  // An inspection's madeAt outside what the service accepts: ahead of its clock, or older than its bound.
  INSPECTION_MADE_IN_FUTURE: 'rule',
  INSPECTION_MADE_TOO_LONG_AGO: 'rule',
  DRIVER_ACTIVATION_KEY_EXPIRED: 'rule',
  DRIVER_ACTIVATION_TOO_SOON: 'rule',
  DRIVER_BUSY: 'rule',
  DRIVER_CHECKLIST_FAILED: 'rule',
  DRIVER_LICENSE_EXPIRED: 'rule',
  DRIVER_NOT_APPROVED: 'rule',
  DRIVER_NOT_ELIGIBLE: 'rule',
  DRIVER_NOT_FOUND: 'rule',
  DRIVER_NOT_VERIFIED: 'rule',
  DRIVER_OFFLINE: 'rule',
  OTHER_ASSEMBLY: 'rule',
  OWNER_NOT_FOUND: 'rule',
  PRINCIPAL_NOT_FOUND: 'rule',
  REGION_NOT_FOUND: 'rule',
  RENEWAL_EXPIRED: 'rule',
  RENEWAL_NOT_LATER: 'rule',
  STATION_NOT_FOUND: 'rule',
  TRANSPORT_UNION_NOT_FOUND: 'rule',
  TRIP_DISCOUNT_TOO_LARGE: 'rule',
  TRIP_DRIVER_NOT_APPROVED: 'rule',
  TRIP_DRIVER_NOT_LINKED: 'rule',
  TRIP_NOT_ENDED: 'rule',
  TRIP_NOT_SETTLED: 'rule',
  TRIP_REFUND_TOO_LARGE: 'rule',
  TRIP_SETTLEMENT_MISMATCH: 'rule',
  TRIP_TOO_MANY_PASSENGERS: 'rule',
  TRIP_VEHICLE_NOT_APPROVED: 'rule',
  VEHICLE_INSPECTION_FAILED: 'rule',
  VEHICLE_INSURANCE_EXPIRED: 'rule',
  VEHICLE_INSURANCE_MISSING: 'rule',
  VEHICLE_NOT_APPROVED: 'rule',
  VEHICLE_NOT_FOUND: 'rule',
  VEHICLE_NOT_INSPECTED: 'rule',
  VEHICLE_REGISTRATION_NUMBER_MISSING: 'rule',
  VEHICLE_ROADWORTHY_EXPIRED: 'rule',
  VEHICLE_ROADWORTHY_MISSING: 'rule',
  VEHICLE_APPROVER_IS_INSPECTOR: 'rule',

  // The actor's duties do not include this (403).
  DUTY_NOT_ALLOWED: 'forbidden',
} as const satisfies Record<string, DomainErrorKind>;

export type DomainErrorCode = keyof typeof ERROR_KINDS;
