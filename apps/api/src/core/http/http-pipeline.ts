import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { fastify, type FastifyError, type FastifyReply, type FastifyRequest } from 'fastify';
import helmet from 'helmet';
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { parse as parseQuery } from 'node:querystring';
import type { Logger } from 'pino';
import type { AppConfig } from '../../config';
import { clientRequestId, QUIET, requestLogScope } from '../observability/logging';
import { accessLog, type AccessLogPolicy } from '../observability/access-log';
import type { Metrics } from '../observability/metrics';
import { inputShapeProblem } from './input-shape';
import { PROBLEM_CONTENT_TYPE } from './problem';
import { answerError, frameworkProblem, sendProblem } from './problem.filter';
import { noStoreForCallers } from './no-store';
import { installBodyParser } from './request-body';
import { conditionalAnswers } from './conditional-answers';
import { applyViews } from './view.interceptor';

/**
 * The security headers, computed once: helmet's middleware run a single time at start against a response that only
 * records what it sets, then the same headers given to every answer. Helmet's headers depend on its options only, not
 * on the request (no CSP nonces here), so running its eleven middlewares again per request (as @fastify/helmet does,
 * about 100 µs, or over the raw response, about 5 µs and a validated setHeader each) buys nothing. The CSP keeps /docs
 * working (Swagger UI's scripts and styles are served from here; its one inline style block needs 'unsafe-inline'
 * styles, which helmet allows by default); no upgrade-insecure-requests, which would break /docs served over plain
 * http.
 */
export const HELMET_OPTIONS: Parameters<typeof helmet>[0] = {
  contentSecurityPolicy: { directives: { 'img-src': ["'self'", 'data:'], 'upgrade-insecure-requests': null } },
};
export const SECURITY_HEADERS: Readonly<Record<string, string>> = (() => {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader: (name: string, value: string) => void (headers[name] = value),
    removeHeader: (name: string) => void delete headers[name],
  } as unknown as ServerResponse;
  helmet(HELMET_OPTIONS)({ headers: {} } as IncomingMessage, recorder, () => undefined);
  return Object.freeze(headers);
})();

/** The first path segment that is not valid percent-encoding (Express named it so), for the 400's detail. */
function undecodable(url: string): string {
  const path = url.split('?')[0];
  return (
    path.split('/').find((segment) => {
      try {
        decodeURIComponent(segment);
        return false;
      } catch {
        return true;
      }
    }) ?? path
  );
}

/**
 * Fastify's own refusals before any hook runs (a path that is not valid percent-encoding, a parameter past
 * maxParamLength): answered as problems, naming the request, with the security headers like every other answer.
 */
function frameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  reply.headers(SECURITY_HEADERS);
  reply.header('X-Request-Id', request.id);
  const detail =
    error.code === 'FST_ERR_BAD_URL' ? `Failed to decode param '${undecodable(request.url)}'` : error.message;
  sendProblem(request, reply, frameworkProblem(error.statusCode ?? 400, detail));
}

/**
 * A request Node could not read (headers past its size limit, a malformed request line or header, a request not
 * complete within the server's timeouts): answered as a problem like every other refusal, not with Fastify's own JSON
 * shape, then the connection closed, as Node does. It has no request id: there is no request.
 */
export function clientError(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  if (!socket.writable) {
    socket.destroy(error);
    return;
  }
  const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  const detail =
    status === 431
      ? 'The request headers (the URL included) are larger than this server reads'
      : status === 408
        ? 'The request was not received in time'
        : 'The request is not valid HTTP';
  const body = JSON.stringify({ ...frameworkProblem(status, detail), title: STATUS_CODES[status] });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\nContent-Type: ${PROBLEM_CONTENT_TYPE}; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}

/**
 * The HTTP adapter: Fastify, routing as the API always has (any letter case, a trailing slash or not, Node's query
 * string parser: a repeated name is a list), the client's X-Request-Id as the request's id when it is a sane one, the
 * client address behind TRUST_PROXY's proxies. No Fastify logger: the access log is one line written below.
 *
 * The request's id and the security headers are set by the first hook of all, added here before Nest's adapter adds
 * its own (CORS among them), so every answer carries them: errors, CORS preflights and the docs included.
 */
export function httpAdapter(config: AppConfig): FastifyAdapter {
  const instance = fastify({
    trustProxy: config.trustProxy,
    genReqId: (request) => clientRequestId(request.headers['x-request-id']),
    routerOptions: {
      // Express had no limit on a path parameter's length; the URL's own limit (Node's header size) stays.
      maxParamLength: 16 * 1024,
      caseSensitive: false,
      ignoreTrailingSlash: true,
      querystringParser: (text: string) => parseQuery(text),
    },
    frameworkErrors: frameworkError,
    clientErrorHandler: clientError,
    // While closing (SIGTERM, after the drain: main.ts) a request already on an open connection is still served, as
    // Node's server did under Express, not refused with Fastify's own 503 body.
    return503OnClosing: false,
  });
  // Every plugin scope answers its errors as problems too. A scope keeps the error handler its parent had when it was
  // registered, and the dashboard's (core/http/dashboard-files.ts) is registered before Nest sets its own on the root
  // at init: without this, an error there (the static plugin's 403 for `..%5c`, the NUL refusal of a hook) was
  // answered in Fastify's own JSON shape. Each new scope gets it (the root's is Nest's, which answers through the same
  // function); a handler set on the root here would draw Fastify's warning when Nest replaces it.
  instance.addHook('onRegister', (scope) => {
    scope.setErrorHandler((error, request, reply) => {
      reply.headers(SECURITY_HEADERS);
      reply.header('X-Request-Id', request.id);
      answerError(error, request, reply);
    });
  });
  instance.addHook('onRequest', (request, reply, done) => {
    reply.header('X-Request-Id', request.id);
    reply.headers(SECURITY_HEADERS);
    done();
  });
  return new FastifyAdapter(instance);
}

export interface PipelineParts {
  logger: Logger;
  metrics: Metrics;
  /** The raw body limit of the provider callbacks (CALLBACK_BODY_LIMIT_BYTES). */
  callbackBodyBytes: number;
  /** Which answers get an access-log line (ACCESS_LOG_READ_SAMPLE, ACCESS_LOG_SLOW_MS). */
  accessLog: AccessLogPolicy;
}

/** Answers the access log leaves out: health probes (every few seconds from the orchestrator) and shed floods. */
const unlogged = new WeakSet<FastifyRequest>();
export const leaveUnlogged = (request: FastifyRequest) => unlogged.add(request);

/**
 * What every request goes through after its id and security headers (httpAdapter), as Fastify hooks (no Nest
 * middleware, no RxJS interceptors): the body parser (request-body.ts); the refusal of input no value may hold
 * (input-shape.ts) once the body is parsed; the caller's view of the records answered and no-store for identified
 * callers; then, once answered, one access-log line and the request's duration in the metrics.
 */
export function installPipeline(app: NestFastifyApplication, parts: PipelineParts): void {
  const instance = app.getHttpAdapter().getInstance();
  // Nest's log lines written while a request is served carry its id (logging.ts).
  instance.addHook('onRequest', requestLogScope());
  installBodyParser(instance, { callbackBytes: parts.callbackBodyBytes });
  instance.addHook('preValidation', (request, _reply, done) => {
    done(inputShapeProblem(request.url, request.body));
  });
  // Records in the caller's view (view.interceptor.ts), and no cache keeps an identified caller's answer (no-store.ts).
  instance.addHook('preSerialization', applyViews);
  instance.addHook('onSend', noStoreForCallers);
  // A weak ETag on every answer sent whole and 304 to a client that has it, as Express did (conditional-answers.ts).
  instance.addHook('onSend', conditionalAnswers);
  const log = accessLog(parts.logger, parts.accessLog);
  instance.addHook('onResponse', (request, reply, done) => {
    parts.metrics.observe(request, reply);
    if (!unlogged.has(request) && !QUIET.test(request.url)) log(request, reply);
    done();
  });
}
