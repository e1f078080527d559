import type { DomainErrorCode } from '@transport/domain';
import { problem, type Problem, type ProblemField } from './http/problem';

/**
 * The app's own error codes (HTTP-level refusals the domain has no word for), each with its one status. Together
 * with the domain's catalogue (`DomainErrorCode`, whose kinds map to statuses in the problem filter) this is every
 * `code` a client can see.
 */
export const APP_ERROR_STATUS = {
  VALIDATION_FAILED: 400,
  MALFORMED_JSON: 400,
  BAD_BODY: 400,
  MALFORMED_REQUEST: 400,
  UNAUTHORIZED: 401,
  INVALID_CREDENTIALS: 401,
  CSRF_REJECTED: 403,
  ACCOUNT_DISABLED: 403,
  ACCOUNT_NOT_CONFIRMED: 403,
  CURRENT_PASSWORD_WRONG: 403,
  LINK_EXPIRED: 410,
  WEAK_PASSWORD: 422,
  INVALID_SIGNATURE: 401,
  FORBIDDEN: 403,
  ROUTE_NOT_FOUND: 404,
  REQUEST_TIMEOUT: 408,
  PRECONDITION_FAILED: 412,
  NOTIFICATION_NOT_REDELIVERABLE: 409,
  CALLBACK_TOKEN_EXPIRED: 410,
  BODY_TOO_LARGE: 413,
  IF_MATCH_REQUIRED: 428,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RANGE_NOT_SATISFIABLE: 416,
  HEADERS_TOO_LARGE: 431,
  RATE_LIMITED: 429,
  TOO_MANY_CALLBACKS: 429,
  PROVIDER_UNREACHABLE: 502,
  PROVIDER_ERROR: 502,
  MESSAGE_NOT_SENT: 502,
  SMS_BUDGET_EXHAUSTED: 503,
  DATABASE_UNAVAILABLE: 503,
} as const;

export type AppErrorCode = keyof typeof APP_ERROR_STATUS;

/** Every code of the API's problem bodies. */
export type ErrorCode = DomainErrorCode | AppErrorCode;

/** An app-level refusal; the problem filter answers it with its catalogued status. */
export class AppError extends Error {
  override readonly name = 'AppError';
  readonly status: number;

  constructor(
    readonly code: AppErrorCode,
    readonly detail: string,
    readonly extra: { errors?: ProblemField[]; retryAfter?: number } = {},
  ) {
    super(detail);
    this.status = APP_ERROR_STATUS[code];
  }

  /** The HTTP status this error is answered with. */
  getStatus(): number {
    return this.status;
  }

  /** The problem body (and Retry-After seconds, for 429s) this error is answered with. */
  getResponse(): { problem: Problem; retryAfter?: number } {
    return {
      problem: problem(this.status, this.detail, { code: this.code, errors: this.extra.errors }),
      retryAfter: this.extra.retryAfter,
    };
  }
}
