import type { FastifyReply, FastifyRequest } from 'fastify';
import pino, { type DestinationStream, type Logger } from 'pino';
import { isCallbackRoute } from '../http/callback-route';
import { loggableUrl } from './logging';

/** Which answers the access log writes (ACCESS_LOG_READ_SAMPLE, ACCESS_LOG_SLOW_MS). */
export interface AccessLogPolicy {
  /**
   * The share (0 to 1) of successful, fast reads (GET or HEAD answered 2xx within `slowMs`) that get a line; 1: every
   * one. Every other answer always gets its line: a refusal, an error, a redirect or 304, a slow answer, every write.
   */
  readSample: number;
  /** An answer that took at least this many ms always gets its line, whatever the sample. */
  slowMs: number;
}

/** Whether an answered request gets its line under the policy; `random` in [0, 1) decides the sampled reads. */
export function keepsLine(
  policy: AccessLogPolicy,
  answer: { method: string; status: number; ms: number },
  random: () => number = Math.random,
): boolean {
  if (policy.readSample >= 1) return true;
  if (answer.status < 200 || answer.status > 299) return true;
  if (answer.method !== 'GET' && answer.method !== 'HEAD') return true;
  if (answer.ms >= policy.slowMs) return true;
  return random() < policy.readSample;
}

/** What pino keeps on a logger for writing a line itself: its stream, its bindings and its clock. */
interface PinoInternals {
  stream: DestinationStream;
  bindings: string;
  time: () => string;
}

function internalsOf(logger: Logger): PinoInternals {
  const fields = logger as unknown as Record<symbol, unknown>;
  return {
    stream: fields[pino.symbols.streamSym] as DestinationStream,
    bindings: fields[pino.symbols.chindingsSym] as string,
    time: fields[pino.symbols.timeSym] as () => string,
  };
}

const text = (value: string): string => JSON.stringify(value);

/**
 * The access log: one line per answered request, built from a few fields (no request or response object is
 * serialised): the request's id, method, loggable URL and client address (TRUST_PROXY decides whether X-Forwarded-For
 * counts), the status and the time to answer in ms. Errors (5xx) at level error, the rest at info. The shape is the one
 * pino-http wrote before (`req`, `res`, `responseTime`, "GET 200"), so log queries keep working.
 *
 * The line is written by hand into the logger's own destination, byte for byte what `logger.info(line, msg)` writes
 * (access-log.spec.ts compares them): pino's generic path (its mixin, the redaction of every top-level key by the
 * `*.headers.authorization` path, a generic serialisation) cost more than the rest of a cheap request, and every value
 * here is one this function made safe itself (loggableUrl) or one the server made (the id, the status, the address).
 */
export function accessLog(
  logger: Logger,
  policy: AccessLogPolicy,
  random: () => number = Math.random,
): (request: FastifyRequest, reply: FastifyReply) => void {
  const { stream, bindings, time } = internalsOf(logger);
  const opening = { info: `{"level":${logger.levels.values.info}`, error: `{"level":${logger.levels.values.error}` };
  return (request, reply) => {
    const status = reply.statusCode;
    const level = status >= 500 ? 'error' : 'info';
    if (!logger.isLevelEnabled(level)) return;
    const ms = Math.round(reply.elapsedTime);
    const method = request.method;
    if (!keepsLine(policy, { method, status, ms }, random)) return;
    const address = request.ip === undefined ? '' : `,"remoteAddress":${text(request.ip)}`;
    stream.write(
      `${opening[level]}${time()}${bindings},"req":{"id":${text(request.id)},"method":${text(method)},` +
        `"url":${text(loggableUrl(request.url, isCallbackRoute(request)))}${address}},"res":{"statusCode":${status}},` +
        `"responseTime":${ms},"msg":${text(`${method} ${status}`)}}\n`,
    );
  };
}
