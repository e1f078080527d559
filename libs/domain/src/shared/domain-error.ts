import { ERROR_KINDS, type DomainErrorCode } from './error-codes';

/**
 * What kind of refusal an error is. The API maps kinds to HTTP statuses in one place; the domain never knows HTTP.
 * - `validation`: the input itself is malformed (a bad VIN, a colour that is not hex).
 * - `not_found`: a referenced record does not exist.
 * - `conflict`: the request collides with the current state of stored data (a duplicate, a lost race).
 * - `rule`: the input is well-formed but the state does not allow the transition (approving an uninspected vehicle).
 * - `forbidden`: the actor's duties do not include this (an inspector approving).
 */
export type DomainErrorKind = 'validation' | 'not_found' | 'conflict' | 'rule' | 'forbidden';

/**
 * The one error type of the domain: a stable machine-readable `code` from the catalogue (its kind comes with it), a
 * message for people, and the input field at fault when there is one.
 */
export class DomainError extends Error {
  override readonly name = 'DomainError';
  readonly kind: DomainErrorKind;

  constructor(
    readonly code: DomainErrorCode,
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.kind = ERROR_KINDS[code];
  }
}

export function isDomainError(error: unknown): error is DomainError {
  return error instanceof DomainError;
}
