import { applyDecorators, SetMetadata } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AuthenticatedRequest } from '../auth/auth.decorators';
import { viewOf, type ViewedResource, type Viewer } from '../auth/views';

export const VIEW_KEY = 'transport:view';

/** Where the records sit in a response body. */
export type ViewPlace = 'body' | 'payload' | 'each.vehicle';

interface DeclaredView {
  resource: ViewedResource;
  place: ViewPlace;
}

/**
 * The response carries this resource (at `place`): it is sent in the caller's view of it (core/auth/views.ts).
 * 'body': the body is the record, or an array of them; 'payload': body.payload is; 'each.vehicle': body is an array
 * of entries whose `vehicle` is. Declared twice: as Nest metadata (the OpenAPI document and the tests read it) and in
 * the Fastify route's config, which the hook below reads.
 */
export const View = (resource: ViewedResource, place: ViewPlace = 'body') =>
  applyDecorators(SetMetadata(VIEW_KEY, { resource, place }), RouteConfig({ view: { resource, place } }));

/** The body in the caller's view, as the route declared it. */
function viewed(declared: DeclaredView, viewer: Viewer, body: unknown): unknown {
  const one = (record: unknown) => viewOf(declared.resource, viewer, record);
  const many = (value: unknown) => (Array.isArray(value) ? value.map(one) : one(value));
  if (declared.place === 'body') return many(body);
  if (declared.place === 'payload') {
    const envelope = body as { payload?: unknown };
    return { ...envelope, payload: many(envelope.payload) };
  }
  return (body as Array<{ vehicle: unknown }>).map((entry) => ({ ...entry, vehicle: one(entry.vehicle) }));
}

/**
 * Every record a route answers with goes out in the caller's view of it: a Fastify preSerialization hook (it sees
 * only bodies about to become JSON; a CSV export is a stream and applies the view to each row itself, csv-export.ts),
 * in place of an RxJS interceptor around every route.
 */
export function applyViews(
  request: FastifyRequest,
  _reply: FastifyReply,
  body: unknown,
  done: (error: Error | null, body?: unknown) => void,
): void {
  const declared = (request.routeOptions.config as { view?: DeclaredView }).view;
  if (!declared) return done(null, body);
  done(null, viewed(declared, (request as AuthenticatedRequest).principal?.role ?? 'anonymous', body));
}
