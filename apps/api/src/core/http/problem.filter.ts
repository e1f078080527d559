import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import { isDomainError, type DomainErrorKind } from '@transport/domain';
import type { Request, Response } from 'express';
import { AppError, type AppErrorCode } from '../errors';
import { requestInstance } from '../observability/logging';
import { problem, PROBLEM_CONTENT_TYPE, type Problem, type ProblemField } from './problem';

const STATUS_BY_KIND: Record<DomainErrorKind, number> = {
  validation: 400,
  not_found: 404,
  conflict: 409,
  rule: 422,
  forbidden: 403,
};

/** The id pino-http gave the request (the client's X-Request-Id when it sent a sane one). */
const requestIdOf = (request: Request): string | undefined => (request as Request & { id?: string }).id;

/** The problem, naming the request it answers (the same id as the access log line and the X-Request-Id header). */
function withInstance(body: Problem, request: Request): Problem {
  const id = requestIdOf(request);
  return id === undefined ? body : { ...body, instance: requestInstance(id) };
}

/** What a failed statement's error says about the database: its SQLSTATE or socket code, a kind, a message. */
interface DatabaseFault {
  code?: unknown;
  originalCode?: unknown;
  kind?: unknown;
  message?: unknown;
}

/**
 * Where the database's own report is in an error. Every query of the app runs through Prisma
 * (persistence/prisma-executor.ts): its driver adapter's report is `meta.driverAdapterError.cause`, with PostgreSQL's
 * SQLSTATE as `originalCode` (`code` for the errors it does not name) and Prisma's `kind`. The pool's own failures (no
 * connection within the wait limit, a connection lost) pass through Prisma as `pg` raised them, and so do the errors of
 * the libraries that use the pool directly (the rate limiter, the job queue): the error itself is then the report.
 */
function databaseFaults(error: unknown): DatabaseFault[] {
  if (!error || typeof error !== 'object') return [];
  const adapter = (error as { meta?: { driverAdapterError?: { cause?: unknown } } }).meta?.driverAdapterError?.cause;
  return adapter && typeof adapter === 'object' ? [error, adapter] : [error];
}

const sqlState = (fault: DatabaseFault) => String(fault.originalCode ?? fault.code);

/**
 * A failure of the database rather than of the request: no pooled connection within the wait limit, a statement
 * cancelled by its timeout (57014), a lost or refused connection.
 */
const UNAVAILABLE_CODES = new Set(['57014', '57P01', 'ECONNREFUSED']);
const UNAVAILABLE_MESSAGES =
  /timeout exceeded when trying to connect|Connection terminated|canceling statement due to statement timeout|ECONNREFUSED/;
export function databaseUnavailable(error: unknown): boolean {
  return databaseFaults(error).some(
    (fault) =>
      UNAVAILABLE_CODES.has(sqlState(fault)) ||
      fault.kind === 'DatabaseNotReachable' ||
      UNAVAILABLE_MESSAGES.test(String(fault.message ?? '')),
  );
}

/**
 * A value the database refused as a value (SQLSTATE class 22: a date out of its range, a NUL character, a number too
 * large, text too long): the request's fault. The edge validation should have refused it first; this is the backstop
 * that keeps such a gap a 400 instead of a 500.
 */
const VALUE_ERROR_CODES = new Set(['22001', '22003', '22007', '22008', '22021', '22P02', '22P05']);
export function valueRefusedByDatabase(error: unknown): boolean {
  return databaseFaults(error).some((fault) => VALUE_ERROR_CODES.has(sqlState(fault)));
}

/** Express/body-parser errors carry a status and a type; they are the client's fault, never a 500. */
interface BodyParserError {
  status?: number;
  statusCode?: number;
  type?: string;
  expose?: boolean;
}

/** The one place where errors become HTTP: domain error kinds to statuses, everything to problem+json. */
@Catch()
export class ProblemFilter implements ExceptionFilter {
  private readonly logger = new Logger('ProblemFilter');

  catch(error: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<Request>();
    const response = http.getResponse<Response>();
    const body = withInstance(this.toProblem(error, request), request);
    if (body.status >= 500) {
      // The access log line of this request carries its (redacted) URL; this one carries what went wrong.
      this.logger.error({ err: error, requestId: requestIdOf(request) }, `${request.method} failed: ${body.detail}`);
    }
    if (body.status === 401) response.setHeader('WWW-Authenticate', 'Bearer realm="transport"');
    const retryAfter = error instanceof AppError ? error.extra.retryAfter : undefined;
    if (body.status === 429 && retryAfter) response.setHeader('Retry-After', String(retryAfter));
    if (body.status === 503) response.setHeader('Retry-After', '1');
    response.status(body.status).type(PROBLEM_CONTENT_TYPE).send(JSON.stringify(body));
  }

  private toProblem(error: unknown, request: Request): Problem {
    if (isDomainError(error)) {
      const errors: ProblemField[] | undefined = error.field
        ? [{ field: error.field, message: error.message }]
        : undefined;
      return problem(STATUS_BY_KIND[error.kind], error.message, { code: error.code, errors });
    }
    if (error instanceof AppError) return error.getResponse().problem;
    // Nest's own HTTP errors: an unknown route, and whatever a library raises.
    if (error instanceof HttpException) {
      const status = error.getStatus();
      const payload = error.getResponse();
      if (
        status === 404 &&
        typeof payload === 'object' &&
        /^Cannot /.test(String((payload as { message?: unknown }).message))
      ) {
        return new AppError('ROUTE_NOT_FOUND', `No route ${request.method} ${request.path}`).getResponse().problem;
      }
      const message = typeof payload === 'string' ? payload : (payload as { message?: unknown }).message;
      return problem(status, Array.isArray(message) ? message.join('; ') : String(message ?? error.message));
    }
    if (databaseUnavailable(error))
      return new AppError(
        'DATABASE_UNAVAILABLE',
        'The database is busy or unreachable (no connection within DATABASE_POOL_WAIT_MS, or a statement ran past its limit); try again shortly',
      ).getResponse().problem;
    if (valueRefusedByDatabase(error)) {
      this.logger.warn({ err: error }, `${request.method}: a value reached the database that validation should refuse`);
      return new AppError(
        'VALIDATION_FAILED',
        'A value in the request is outside what can be stored or searched for',
      ).getResponse().problem;
    }
    return bodyParserProblem(error) ?? problem(500, 'The server failed to handle the request; it has been logged');
  }
}

/** The problem for an error raised while reading the body (express/body-parser), if it is one. */
function bodyParserProblem(error: unknown): Problem | undefined {
  const parserError = error as BodyParserError;
  const status = parserError?.status ?? parserError?.statusCode;
  if (typeof status !== 'number' || status < 400 || status >= 500) return undefined;
  if (parserError.type === 'entity.parse.failed')
    return new AppError('MALFORMED_JSON', 'The request body is not valid JSON').getResponse().problem;
  if (parserError.type === 'entity.too.large')
    return new AppError('BODY_TOO_LARGE', 'The request body is larger than 100 kB').getResponse().problem;
  return problem(status, parserError.expose ? String((error as Error).message) : 'The request body was refused', {
    code: 'BAD_BODY' satisfies AppErrorCode,
  });
}

/** Answers an app refusal from Express middleware (outside Nest's filter), naming the request as the filter does. */
export function sendProblem(request: Request, response: Response, error: AppError): void {
  const body = withInstance(error.getResponse().problem, request);
  response.status(body.status).type(PROBLEM_CONTENT_TYPE).send(JSON.stringify(body));
}

/** Express error middleware placed right after the body parser: its failures become problems, not generic errors. */
export function bodyParserErrors(
  error: unknown,
  _request: Request,
  response: Response,
  next: (error?: unknown) => void,
): void {
  const parsed = bodyParserProblem(error);
  if (!parsed) return next(error);
  const body = withInstance(parsed, _request);
  response.status(body.status).type(PROBLEM_CONTENT_TYPE).send(JSON.stringify(body));
}
