import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import { isDomainError, type DomainErrorKind } from '@transport/domain';
import type { FastifyReply, FastifyRequest } from 'fastify';
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

/** The problem, naming the request it answers (the same id as the access log line and the X-Request-Id header). */
function withInstance(body: Problem, request: FastifyRequest): Problem {
  return { ...body, instance: requestInstance(request.id) };
}

/** What a failed statement's error says about the database: its SQLSTATE or socket code, a kind, a message. */
interface DatabaseFault {
  code?: unknown;
  originalCode?: unknown;
  kind?: unknown;
  message?: unknown;
}

/**
 * Where the database's own report is in an error. Prisma's models and the statements of a unit of work run through
 * Prisma (persistence/prisma-executor.ts): its driver adapter's report is `meta.driverAdapterError.cause`, with
 * PostgreSQL's SQLSTATE as `originalCode` (`code` for the errors it does not name) and Prisma's `kind`. The pool's own
 * failures (no connection within the wait limit, a connection lost) pass through Prisma as `pg` raised them, and so do
 * the errors of what uses the pool directly (Kysely's statements outside a unit of work, the rate limiter, the job
 * queue): the error itself is then the report.
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

/** Errors raised while reading a body carry a status and a type (request-body.ts); the client's fault, never a 500. */
interface BodyParserError {
  status?: number;
  statusCode?: number;
  type?: string;
  expose?: boolean;
}

/**
 * The code of a refusal that came without one (Nest's and Fastify's own HTTP errors, the static-file plugin's, Node's
 * unreadable requests), by its status: every problem a client sees carries a `code` of the catalogue.
 */
const CODE_BY_STATUS: Readonly<Record<number, AppErrorCode>> = {
  400: 'MALFORMED_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'ROUTE_NOT_FOUND',
  405: 'ROUTE_NOT_FOUND',
  408: 'REQUEST_TIMEOUT',
  412: 'PRECONDITION_FAILED',
  413: 'BODY_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  416: 'RANGE_NOT_SATISFIABLE',
  429: 'RATE_LIMITED',
  431: 'HEADERS_TOO_LARGE',
};

/** What the framework's refusal says, in our words where its own are only the status's name. */
const DETAIL_BY_CODE: Partial<Record<AppErrorCode, string>> = {
  UNSUPPORTED_MEDIA_TYPE: 'Send the request body as application/json (one media type in Content-Type)',
  FORBIDDEN: 'This path is not served',
};

/**
 * The problem of a refusal that has a status and no code of ours (a framework's), with the code its status has (or the
 * one given). Past 4xx, the status and what was said, as before.
 */
export function frameworkProblem(status: number, detail: string, code = CODE_BY_STATUS[status]): Problem {
  return problem(status, detail, status >= 400 && status < 500 ? { code } : {});
}

/** The refusal of a request no route answers. */
export const routeNotFound = (request: FastifyRequest) =>
  new AppError('ROUTE_NOT_FOUND', `No route ${request.method} ${request.url.split('?')[0]}`);

/**
 * A framework's refusal: an error with a 4xx status and no body-parser `type` (request-body.ts's refusals have one):
 * Fastify's own (`FST_` codes), @fastify/static's, and the `send` library's under it (http-errors: a range past the end
 * of a file, a failed precondition).
 */
function frameworkRefusal(error: unknown): { statusCode: number; code: string; message: string } | undefined {
  const candidate = error as { statusCode?: unknown; status?: unknown; code?: unknown; type?: unknown };
  const statusCode = candidate?.statusCode ?? candidate?.status;
  if (typeof statusCode !== 'number' || statusCode < 400 || statusCode >= 500 || candidate.type !== undefined)
    return undefined;
  const code = typeof candidate.code === 'string' ? candidate.code : '';
  return { statusCode, code, message: String((error as Error).message ?? '') };
}

/** The problem an error is answered with: domain error kinds to statuses, every refusal with its code. */
export function problemOf(error: unknown, request: FastifyRequest): Problem {
  if (isDomainError(error)) {
    const errors: ProblemField[] | undefined = error.field
      ? [{ field: error.field, message: error.message }]
      : undefined;
    return problem(STATUS_BY_KIND[error.kind], error.message, { code: error.code, errors });
  }
  if (error instanceof AppError) return error.getResponse().problem;
  // Nest's own HTTP errors (an unknown route) and the framework's (a Content-Type that is no media type, a path the
  // static plugin will not serve): answered with the code their status has.
  const framework = frameworkRefusal(error);
  if (error instanceof HttpException || framework) {
    const status = framework?.statusCode ?? (error as HttpException).getStatus();
    if (CODE_BY_STATUS[status] === 'ROUTE_NOT_FOUND') return routeNotFound(request).getResponse().problem;
    const payload = framework ? framework.message : (error as HttpException).getResponse();
    const message = typeof payload === 'string' ? payload : (payload as { message?: unknown }).message;
    const said = Array.isArray(message) ? message.join('; ') : String(message ?? (error as Error).message);
    // Fastify's body refusals (FST_ERR_CTP_*: a length that does not match what came) are the body's fault.
    const code: AppErrorCode | undefined =
      status === 400 && framework?.code.startsWith('FST_ERR_CTP_') ? 'BAD_BODY' : CODE_BY_STATUS[status];
    return frameworkProblem(status, (code && DETAIL_BY_CODE[code]) ?? said, code);
  }
  if (databaseUnavailable(error))
    return new AppError(
      'DATABASE_UNAVAILABLE',
      'The database is busy or unreachable (no connection within DATABASE_POOL_WAIT_MS, or a statement ran past its limit); try again shortly',
    ).getResponse().problem;
  if (valueRefusedByDatabase(error)) {
    logger.warn({ err: error }, `${request.method}: a value reached the database that validation should refuse`);
    return new AppError(
      'VALIDATION_FAILED',
      'A value in the request is outside what can be stored or searched for',
    ).getResponse().problem;
  }
  return bodyParserProblem(error) ?? problem(500, 'The server failed to handle the request; it has been logged');
}

const logger = new Logger('ProblemFilter');

/**
 * Answers an error as a problem naming its request: the one way errors become HTTP, for Nest's filter (below) and for
 * Fastify's error handler (http-pipeline.ts), which answers what goes wrong outside Nest's routes (the dashboard's
 * files, a hook of theirs).
 */
export function answerError(error: unknown, request: FastifyRequest, reply: FastifyReply): void {
  const body = withInstance(problemOf(error, request), request);
  if (body.status >= 500) {
    // The access log line of this request carries its (redacted) URL; this one carries what went wrong.
    logger.error({ err: error, requestId: request.id }, `${request.method} failed: ${body.detail}`);
  }
  if (body.status === 401) reply.header('WWW-Authenticate', 'Bearer realm="transport"');
  const retryAfter = error instanceof AppError ? error.extra.retryAfter : undefined;
  if (body.status === 429 && retryAfter) reply.header('Retry-After', String(retryAfter));
  if (body.status === 503) reply.header('Retry-After', '1');
  send(reply, body);
}

/** Nest's side of the one place where errors become HTTP. */
@Catch()
export class ProblemFilter implements ExceptionFilter {
  catch(error: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    answerError(error, http.getRequest<FastifyRequest>(), http.getResponse<FastifyReply>());
  }
}

/** The problem for an error raised while reading the body (request-body.ts), if it is one. */
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

/** A problem as the body of the reply, with its content type (Fastify adds charset=utf-8 to a string body). */
function send(reply: FastifyReply, body: Problem): void {
  void reply.status(body.status).type(`${PROBLEM_CONTENT_TYPE}; charset=utf-8`).send(JSON.stringify(body));
}

/** Answers a refusal outside Nest's filter (Fastify's own errors before routing), naming the request as the filter does. */
export function sendProblem(request: FastifyRequest, reply: FastifyReply, body: Problem): void {
  send(reply, withInstance(body, request));
}
