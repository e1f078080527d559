import accepts from 'accepts';
import type { FastifyRequest } from 'fastify';

/** The media type among `types` the request's Accept header prefers, the first on a tie (as Express's req.accepts). */
export function preferredType(request: FastifyRequest, types: string[]): string | undefined {
  const chosen = accepts(request.raw).type(types);
  return typeof chosen === 'string' ? chosen : undefined;
}
