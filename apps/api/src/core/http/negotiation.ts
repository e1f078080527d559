import accepts from 'accepts';
import type { FastifyRequest } from 'fastify';

/** The media type among `types` the request's Accept header prefers, the first on a tie (as Express's req.accepts). */
export function preferredType(request: FastifyRequest, types: string[]): string | undefined {
  const chosen = accepts(request.raw).type(types);
  return typeof chosen === 'string' ? chosen : undefined;
}

/** Whether the request's Accept-Encoding takes gzip (Express's req.acceptsEncodings). */
export function acceptsGzip(request: FastifyRequest): boolean {
  return accepts(request.raw).encoding(['gzip']) === 'gzip';
}
