import { randomUUID } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { IncomingMessage, ServerResponse } from 'node:http';
import pino, { type DestinationStream, type Logger } from 'pino';
import { Logger as NestPinoLogger, PinoLogger, type Params } from 'nestjs-pino';
import type { LogLevel } from '../../config';
import { isCallbackRoute } from '../http/callback-route';

/**
 * Logs: pino, one JSON object per line on stdout: Nest's own messages through nestjs-pino, and one access-log line per
 * request (accessLog below, written from a Fastify hook: core/http/http-pipeline.ts), carrying the request id.
 */
export function createRootLogger(level: LogLevel, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'transport-api' },
      timestamp: pino.stdTimeFunctions.isoTime,
      // Belt and braces: nothing below logs headers, but an error object carrying a request must not leak its key.
      redact: {
        paths: ['req.headers.authorization', 'req.headers.cookie', '*.headers.authorization'],
        censor: '[redacted]',
      },
    },
    destination,
  );
}

/** An X-Request-Id a client may choose: short, URI-safe (it goes into the problem's `instance` URN unescaped). */
const CLIENT_REQUEST_ID = /^[A-Za-z0-9._~-]{1,100}$/;

/** A request's id: the client's X-Request-Id when it is a sane one, else a new UUID. */
export function clientRequestId(given: string | string[] | undefined): string {
  return typeof given === 'string' && CLIENT_REQUEST_ID.test(given) ? given : randomUUID();
}

/** The request's id (clientRequestId), echoed in the response. */
export function requestId(request: IncomingMessage, response: ServerResponse): string {
  const id = clientRequestId(request.headers['x-request-id']);
  response.setHeader('X-Request-Id', id);
  return id;
}

/** The problem `instance` naming one request (RFC 9457: a URI reference identifying this occurrence). */
export const requestInstance = (id: string): string => `urn:transport:request:${id}`;

/** Query parameters that carry no personal data or secret; every other value is logged as `[redacted]`. */
const PLAIN_QUERY_PARAMS = new Set([
  'limit',
  'cursor',
  'state',
  'status',
  'date',
  'days',
  'entity',
  'id',
  'count',
  'kind',
]);

/** The callback's token segment in a path, whatever its letter case (the router ignores case). */
const CALLBACK_TOKEN = /(\/payment\/callback\/)[^/]+/i;
/** The third segment of a path the router matched as the callback (`/<payment>/<callback>/<token>`), however written. */
const THIRD_SEGMENT = /^(\/[^/]*\/[^/]*\/)[^/]*/;

/**
 * The URL as it may be logged: the callback token in the payment callback path and every query value that is not
 * known to be harmless (an email, a name searched for, a phone) replaced by `[redacted]`. `callback`: the router
 * matched the callback route (then the token's segment is redacted however the path spells the rest, percent-escapes
 * included); without it, any path that reads as the callback's in any letter case is redacted too.
 */
export function loggableUrl(url: string, callback = false): string {
  const [path, query] = splitOnce(url, '?');
  const safePath = callback
    ? path.replace(THIRD_SEGMENT, '$1[redacted]')
    : path.replace(CALLBACK_TOKEN, '$1[redacted]');
  if (query === undefined) return safePath;
  const params = new URLSearchParams(query);
  const parts: string[] = [];
  for (const [name, value] of params) {
    parts.push(
      `${encodeURIComponent(name)}=${PLAIN_QUERY_PARAMS.has(name) ? encodeURIComponent(value) : '[redacted]'}`,
    );
  }
  return parts.length > 0 ? `${safePath}?${parts.join('&')}` : safePath;
}

function splitOnce(value: string, separator: string): [string, string | undefined] {
  const at = value.indexOf(separator);
  return at < 0 ? [value, undefined] : [value.slice(0, at), value.slice(at + 1)];
}

/**
 * The access log: one line per answered request, built from a few fields (no request or response object is
 * serialised): the request's id, method, loggable URL and client address (TRUST_PROXY decides whether X-Forwarded-For
 * counts), the status and the time to answer in ms. Errors (5xx) at level error, the rest at info. The shape is the one
 * pino-http wrote before (`req`, `res`, `responseTime`, "GET 200"), so log queries keep working.
 */
export function accessLog(logger: Logger): (request: FastifyRequest, reply: FastifyReply) => void {
  return (request, reply) => {
    const status = reply.statusCode;
    const level = status >= 500 ? 'error' : 'info';
    if (!logger.isLevelEnabled(level)) return;
    const line = {
      req: {
        id: request.id,
        method: request.method,
        url: loggableUrl(request.url, isCallbackRoute(request)),
        remoteAddress: request.ip,
      },
      res: { statusCode: status },
      responseTime: Math.round(reply.elapsedTime),
    };
    logger[level](line, `${request.method} ${status}`);
  };
}

/** nestjs-pino's settings: Nest's own messages go to the one pino logger. */
export function loggerParams(logger: Logger): Params {
  return { pinoHttp: { logger }, renameContext: 'context' };
}

/** Nest's LoggerService over pino, usable before the app exists (the database opens first and logs). */
export function nestLogger(params: Params): NestPinoLogger {
  return new NestPinoLogger(new PinoLogger(params), params);
}

/**
 * The request's id on every line Nest's loggers write while it is served (the events of a sign-in or a callback, a
 * warning), as pino-http's per-request logger gave them on Express: `req.id`, the key the access log uses. Through
 * nestjs-pino's own request scope (`PinoLogger.runInContext`, what its HTTP middleware would open), entered in an
 * `onRequest` hook: everything after it, the body read included, runs inside (observability.e2e sends a body 100 ms
 * after its headers and finds the id on the event the sign-in logged). Health probes write no line and open no scope.
 */
export function requestLogScope(
  params: Params,
): (request: FastifyRequest, reply: FastifyReply, done: () => void) => void {
  const pino = new PinoLogger(params);
  return (request, _reply, done) => {
    if (QUIET.test(request.url)) return done();
    pino.runInContext(done, { bindings: { req: { id: request.id } } });
  };
}

/** Health probes: every few seconds from the orchestrator, logged by no one. */
export const QUIET = /^\/health(\/live|\/ready)?(\?|$)/;
