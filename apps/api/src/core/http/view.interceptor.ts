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

/**
 * The body in the caller's view, as the route declared it. No closures made per request: each named one is a
 * defineProperty call in the build (esbuild's keepNames), on every answer.
 */
function viewed(declared: DeclaredView, viewer: Viewer, body: unknown): unknown {
  const { resource } = declared;
  if (declared.place === 'body') return viewedEach(resource, viewer, body);
  if (declared.place === 'payload') {
    const envelope = body as { payload?: unknown };
    return { ...envelope, payload: viewedEach(resource, viewer, envelope.payload) };
  }
  return (body as Array<{ vehicle: unknown }>).map((entry) => ({
    ...entry,
    vehicle: viewOf(resource, viewer, entry.vehicle),
  }));
}

/** A record, or each record of a list, in the viewer's view. */
function viewedEach(resource: ViewedResource, viewer: Viewer, value: unknown): unknown {
  if (!Array.isArray(value)) return viewOf(resource, viewer, value);
  const out = new Array<unknown>(value.length);
  for (let i = 0; i < value.length; i++) out[i] = viewOf(resource, viewer, value[i]);
  return out;
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
