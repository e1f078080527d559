import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import pino, { type DestinationStream, type Logger } from 'pino';
import type { Options } from 'pino-http';
import { Logger as NestPinoLogger, PinoLogger, type Params } from 'nestjs-pino';
import type { LogLevel } from '../../config';

/**
 * Logs: pino, one JSON object per line on stdout, through nestjs-pino (Nest's own messages included) and pino-http
 * (one access-log line per request, carrying the request id).
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

/** The request's id: the client's X-Request-Id when it is a sane one, else a new UUID; echoed in the response. */
export function requestId(request: IncomingMessage, response: ServerResponse): string {
  const given = request.headers['x-request-id'];
  const id = typeof given === 'string' && CLIENT_REQUEST_ID.test(given) ? given : randomUUID();
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

/**
 * The URL as it may be logged: the callback token in the payment callback path and every query value that is not
 * known to be harmless (an email, a name searched for, a phone) replaced by `[redacted]`.
 */
export function loggableUrl(url: string): string {
  const [path, query] = splitOnce(url, '?');
  const safePath = path.replace(/(\/payment\/callback\/)[^/]+/, '$1[redacted]');
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

/** Probes and scrapes, every few seconds from the orchestrator: not worth an access-log line each. */
const QUIET_PATHS = /^\/health(\/live|\/ready)?$/;

/** pino-http's settings: the access log's shape (no headers, no bodies; method, safe URL, status, duration). */
export function accessLogOptions(logger: Logger): Options {
  return {
    logger,
    genReqId: requestId,
    quietReqLogger: true,
    autoLogging: { ignore: (request) => QUIET_PATHS.test((request.url ?? '').split('?')[0]) },
    customLogLevel: (_request, response, error) => (error || response.statusCode >= 500 ? 'error' : 'info'),
    customSuccessMessage: (request, response) => `${request.method} ${response.statusCode}`,
    customErrorMessage: (request, response) => `${request.method} ${response.statusCode}`,
    serializers: {
      // pino-http hands the serializer its standard view of the request (url is Express's originalUrl), raw beside it.
      req: (request: {
        id?: string;
        method?: string;
        url?: string;
        remoteAddress?: string;
        raw?: { ip?: string };
      }) => ({
        id: request.id,
        method: request.method,
        url: loggableUrl(request.url ?? ''),
        // Express's client address (TRUST_PROXY decides whether X-Forwarded-For counts).
        remoteAddress: request.raw?.ip ?? request.remoteAddress,
      }),
      res: (response: ServerResponse) => ({ statusCode: response.statusCode }),
    },
  };
}

/** nestjs-pino's settings: Nest's own messages and the access log go to the one pino logger. */
export function loggerParams(logger: Logger): Params {
  return { pinoHttp: accessLogOptions(logger), renameContext: 'context' };
}

/** Nest's LoggerService over pino, usable before the app exists (the database opens first and logs). */
export function nestLogger(params: Params): NestPinoLogger {
  return new NestPinoLogger(new PinoLogger(params), params);
}
