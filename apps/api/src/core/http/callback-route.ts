import type { FastifyRequest } from 'fastify';

/**
 * The payment callback's route, as the router matched it (Fastify routes before the body is read and before the first
 * hook). The router ignores letter case and a trailing slash (http-pipeline.ts), so `/Payment/Callback/<t>/` is this
 * route too: what the callback's raw-body limit and the log's redaction go by is the match, never the raw path.
 */
export const CALLBACK_ROUTE = '/payment/callback/:token';

export const isCallbackRoute = (request: Pick<FastifyRequest, 'routeOptions'>): boolean =>
  request.routeOptions?.url === CALLBACK_ROUTE;
