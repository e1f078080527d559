import { DomainError } from './domain-error';
import type { DomainErrorCode } from './error-codes';

export const CommonErrors = {
  notFound: (what: string, id: string) => new DomainError('NOT_FOUND', `No ${what} with id ${id}`),
  concurrentUpdate: (what: string, id: string) =>
    new DomainError('CONCURRENT_UPDATE', `The ${what} ${id} was changed by someone else; reload it and try again`),
  duplicate: (code: DomainErrorCode, message: string, field?: string) => new DomainError(code, message, field),
};

/**
 * Records a request names by id, with the code a missing one breaks as. Not `NOT_FOUND` (404, the addressed record is
 * absent): the request is well-formed but refers to a record that does not exist, a `<THING>_NOT_FOUND` rule (422).
 */
const REFERENCE_CODES = {
  assembly: 'ASSEMBLY_NOT_FOUND',
  driver: 'DRIVER_NOT_FOUND',
  owner: 'OWNER_NOT_FOUND',
  principal: 'PRINCIPAL_NOT_FOUND',
  region: 'REGION_NOT_FOUND',
  station: 'STATION_NOT_FOUND',
  transportUnion: 'TRANSPORT_UNION_NOT_FOUND',
  vehicle: 'VEHICLE_NOT_FOUND',
} as const satisfies Record<string, DomainErrorCode>;
export type ReferencedRecord = keyof typeof REFERENCE_CODES;

export const ReferenceErrors = {
  /** The request's `field` names `id`, and no `record` has it: `ReferenceErrors.missing('owner', id, 'ownerID')`. */
  missing: (record: ReferencedRecord, id: string, field: string = record) =>
    new DomainError(REFERENCE_CODES[record], `${field} ${id} names no record`, field),
};

/** The uniqueness rules every repository enforces, with the one error each breaks as. */
export const DuplicateErrors = {
  vehicleRegistration: () =>
    CommonErrors.duplicate(
      'VEHICLE_REGISTRATION_TAKEN',
      'Another vehicle has this registration number',
      'registrationNumber',
    ),
  driverEmail: () => CommonErrors.duplicate('DRIVER_EMAIL_TAKEN', 'Another driver has this email', 'email'),
  /** Told at activation only, to whoever holds the phone and its key. */
  activatedDriverEmail: () =>
    CommonErrors.duplicate(
      'DRIVER_EMAIL_TAKEN',
      'An activated driver already has this e-mail: register again with your own e-mail, or ask your assembly',
      'email',
    ),
  region: () => CommonErrors.duplicate('REGION_TAKEN', 'The country already has a region with this name', 'name'),
  assemblyUserEmail: () =>
    CommonErrors.duplicate('ASSEMBLY_USER_EMAIL_TAKEN', 'Another assembly user has this email', 'email'),
  assemblyUserPhone: () =>
    CommonErrors.duplicate(
      'ASSEMBLY_USER_PHONE_TAKEN',
      'Another assembly user has this phone number: a person has one account, with one role',
      'phone',
    ),
  tripTicket: () => CommonErrors.duplicate('TRIP_TICKET_TAKEN', 'Another trip has this ticket number', 'ticketNumber'),
  transactionReference: () =>
    CommonErrors.duplicate(
      'TRANSACTION_REFERENCE_TAKEN',
      'This merchant already has a transaction with this reference',
      'reference',
    ),
};
