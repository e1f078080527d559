/**
 * What kind of refusal an error is. The API maps kinds to HTTP statuses in one place; the domain never knows HTTP.
 * - `validation`: the input itself is malformed (a bad VIN, a colour that is not hex).
 * - `not_found`: a referenced record does not exist.
 * - `conflict`: the request collides with the current state of stored data (a duplicate, a lost race).
 * - `rule`: the input is well-formed but the state does not allow the transition (approving an uninspected vehicle).
 */
export type DomainErrorKind = 'validation' | 'not_found' | 'conflict' | 'rule';

/** The one error type of the domain: a stable machine-readable `code` plus a message for people. */
export class DomainError extends Error {
  override readonly name = 'DomainError';

  constructor(
    readonly code: string,
    message: string,
    readonly kind: DomainErrorKind = 'rule',
    readonly field?: string,
  ) {
    super(message);
  }
}

export function isDomainError(error: unknown): error is DomainError {
  return error instanceof DomainError;
}
