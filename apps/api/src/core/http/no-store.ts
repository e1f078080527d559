import { Header } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AuthenticatedRequest } from '../auth/auth.decorators';

/**
 * For answers that carry a secret shown once (an API key, a signing secret, an activation key): no cache, shared or
 * private, may keep them.
 */
export const NoStore = () => Header('Cache-Control', 'no-store');

/**
 * Every answer to an identified caller (an API key or a dashboard session) is `Cache-Control: no-store`: such answers
 * are the caller's own view, and carry personal data (people, owners, drivers, staff) that no cache, shared or the
 * browser's, may keep. Anonymous answers (the public views, without personal data) are left as they are. An onSend
 * hook: the principal is on the request once the guard let it through (api-key.guard.ts); a route that chose its own
 * Cache-Control (a certificate check: public for a while) keeps it, as it did when this was an interceptor that ran
 * before the route.
 */
export function noStoreForCallers(
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
  done: (error: Error | null, payload?: unknown) => void,
): void {
  if ((request as AuthenticatedRequest).principal && !reply.hasHeader('Cache-Control'))
    reply.header('Cache-Control', 'no-store');
  done(null, payload);
}
