import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { IncomingMessage, ServerResponse } from 'node:http';
import pino, { type DestinationStream, type Logger } from 'pino';
import { Logger as NestPinoLogger, PinoLogger, type Params } from 'nestjs-pino';
import type { LogLevel } from '../../config';

/**
 * Logs: pino, one JSON object per line on stdout: Nest's own messages through nestjs-pino, and one access-log line per
 * request (access-log.ts, written from a Fastify hook: core/http/http-pipeline.ts), carrying the request id.
 */
export function createRootLogger(level: LogLevel, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'transport-api' },
      timestamp: pino.stdTimeFunctions.isoTime,
      // The request's id on every line written while it is served (requestLogScope below): read only when a line is
      // written, so a request that logs nothing pays for no logger of its own.
      mixin: () => {
        const id = requestIds.getStore();
        return id === undefined ? {} : { req: { id } };
      },
      // Belt and braces: nothing below logs headers, but an error object carrying a request must not leak its key.
      // The access line does not go through it (access-log.ts writes only values it made safe itself).
      redact: {
        paths: ['req.headers.authorization', 'req.headers.cookie', '*.headers.authorization'],
        censor: '[redacted]',
      },
    },
    destination,
  );
}

/**
 * The service's log destination: stdout through a buffer, written asynchronously once it holds `minLength` bytes or
 * `periodicFlush` ms have passed (so a quiet service's line still shows within a second), instead of one blocking
 * write per line. What is buffered is written before the process ends: on SIGTERM and on a crash main.ts waits for
 * flushLogs, and pino writes the rest synchronously on any other exit.
 */
export function serviceLogDestination(fd = 1): ReturnType<typeof pino.destination> {
  return pino.destination({ dest: fd, sync: false, minLength: 4096, periodicFlush: 1000 });
}

/** Resolves once every line the logger has buffered is written (at once for a destination that does not buffer). */
export function flushLogs(logger: Logger): Promise<void> {
  return new Promise((flushed) => {
    try {
      logger.flush(() => flushed());
    } catch {
      // A destination that cannot flush (closed, or one without flush) has nothing more to write.
      flushed();
    }
  });
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

/** nestjs-pino's settings: Nest's own messages go to the one pino logger. */
export function loggerParams(logger: Logger): Params {
  return { pinoHttp: { logger }, renameContext: 'context' };
}

/** Nest's LoggerService over pino, usable before the app exists (the database opens first and logs). */
export function nestLogger(params: Params): NestPinoLogger {
  return new NestPinoLogger(new PinoLogger(params), params);
}

/** The id of the request being served, for the lines written meanwhile (createRootLogger's mixin). */
const requestIds = new AsyncLocalStorage<string>();

/**
 * The request's id on every line Nest's loggers write while it is served (the events of a sign-in or a callback, a
 * warning), as pino-http's per-request logger gave them on Express: `req.id`, the key the access log uses. The id is
 * kept in an async-local store entered in an `onRequest` hook (everything after it, the body read included, runs
 * inside: observability.e2e sends a body 100 ms after its headers and finds the id on the event the sign-in logged)
 * and read by the root logger only when a line is written: no child logger is made per request. Health probes write
 * no line and enter no scope.
 */
export function requestLogScope(): (request: FastifyRequest, reply: FastifyReply, done: () => void) => void {
  return (request, _reply, done) => {
    if (QUIET.test(request.url)) return done();
    requestIds.run(request.id, done);
  };
}

/** Health probes: every few seconds from the orchestrator, logged by no one. */
export const QUIET = /^\/health(\/live|\/ready)?(\?|$)/;
