import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { parse as parseCookies } from 'cookie';
import type { Logger } from 'pino';
import { presentedKey } from '../core/auth/api-key.guard';
import { problem, PROBLEM_CONTENT_TYPE } from '../core/http/problem';
import { leaveUnlogged } from '../core/http/http-pipeline';
import { requestInstance } from '../core/observability/logging';
import type { Bulkhead } from '../core/platform/bulkhead';

/** The route a shed registration was routed to (Fastify routes before the first hook runs). */
export const SHED_ROUTE = '/drivers/add';

/**
 * Anonymous registrations refused before the HTTP pipeline while the registration bulkhead is saturated (an onRequest
 * hook, before the body is read).
 *
 * The bulkhead (drivers.module.ts) already keeps a flood of registrations from the pool; but each refused request still
 * went through body parsing, routing, the guard, validation, the interceptors and the exception filter before its 429,
 * and at a thousand a second that work alone doubled the public lists' latency (docs/performance.md: the flood).
 * Here a registration that would be refused is answered from its headers alone: no body read, no route matched, no
 * database touched. It answers exactly what the bulkhead would (the same problem, Retry-After: 1, the request's id),
 * with the security headers set before it. Requests that carry an API key or the session cookie go on to the guard:
 * staff are never held by the bulkhead, and a forged credential is the guard's to refuse.
 *
 * The answer is held SHED_DELAY_MS before it is sent (a tarpit): each connection of a flood that posts again as soon as
 * it is answered is slowed to a few requests a second. The access log leaves these requests out; a warning per window
 * says how many were shed, and the metrics count each under the route.
 */
export interface SheddingOptions {
  /** How often the count of shed requests is logged (a warning per window with any). */
  windowMs?: number;
  /** How long a shed answer is held before it is sent (see below). */
  delayMs?: number;
  /** At most this many answers held at once; past that they go at once (a held answer keeps its socket open). */
  maxHeld?: number;
}

/** A refused registration is answered after this long: a client that retries at once gets 4 answers a second. */
export const SHED_DELAY_MS = 250;

export function shedSaturatedRegistrations(
  bulkhead: Bulkhead,
  sessionCookie: string,
  logger: Logger,
  { windowMs = 10_000, delayMs = SHED_DELAY_MS, maxHeld = 1000 }: SheddingOptions = {},
): (request: FastifyRequest, reply: FastifyReply, next: HookHandlerDoneFunction) => void {
  let shed = 0;
  let windowEnds = 0;
  let held = 0;
  return (request, reply, next) => {
    if (request.method !== 'POST' || !bulkhead.saturated || request.routeOptions.url !== SHED_ROUTE) return next();
    if (presentedKey(request.headers.authorization) !== undefined) return next();
    const cookies = request.headers.cookie;
    if (cookies && parseCookies(cookies)[sessionCookie] !== undefined) return next();

    const now = Date.now();
    if (now >= windowEnds) {
      if (shed > 0) logger.warn({ shed, route: SHED_ROUTE }, `${shed} registrations without a key shed at the door`);
      shed = 0;
      windowEnds = now + windowMs;
    }
    shed += 1;
    leaveUnlogged(request);
    const body = problem(429, bulkhead.refusalDetail, { code: 'RATE_LIMITED' });
    body.instance = requestInstance(request.id);
    // The body is not read: Node discards it and keeps the connection when it can.
    const text = JSON.stringify(body);
    const answer = () => {
      if (reply.raw.destroyed) return;
      void reply
        .code(429)
        .header('Retry-After', '1')
        .header('Content-Type', `${PROBLEM_CONTENT_TYPE}; charset=utf-8`)
        .send(text);
    };
    // Held a moment before it goes: a script that posts again as soon as it is answered (as floods do) gets a few
    // answers a second per connection instead of thousands, so the event loop stays with everyone else; a client
    // that honours Retry-After waits a second anyway. A timer per held answer costs nothing like a request.
    if (delayMs <= 0 || held >= maxHeld) return answer();
    held += 1;
    setTimeout(() => {
      held -= 1;
      answer();
    }, delayMs).unref();
  };
}
