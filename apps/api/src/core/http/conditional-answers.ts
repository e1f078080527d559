import { hash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fresh from 'fresh';

/**
 * The weak ETag Express's `etag` package gives a body: `W/"<length in hex>-<SHA-1, base64, first 27 characters>"`,
 * the same value (conditional-answers.spec compares the two), computed with Node's one-shot `crypto.hash` rather than
 * the package's `createHash` object: the package cost about 5 µs of the 80 µs that `/health/live` took.
 */
export function weakEtag(body: string | Buffer): string {
  const length = typeof body === 'string' ? Buffer.byteLength(body) : body.length;
  return `W/"${length.toString(16)}-${hash('sha1', body, 'base64').substring(0, 27)}"`;
}

/**
 * What Express did for every answer sent whole, kept on Fastify because clients may rely on it: a weak `ETag` over
 * the body (the value of Express's `etag` package, so one a client cached before the switch still matches), and a `304 Not
 * Modified` without a body to a GET or HEAD whose `If-None-Match` (or `If-Modified-Since`) shows the client already
 * has it. Streamed answers (the CSV exports) get none, as before; an answer that set its own ETag (the dashboard's
 * files) keeps it. An onSend hook: the payload is the serialised body here.
 */
export function conditionalAnswers(
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
  done: (error: Error | null, payload?: unknown) => void,
): void {
  if ((typeof payload === 'string' || Buffer.isBuffer(payload)) && !reply.hasHeader('ETag'))
    reply.header('ETag', weakEtag(payload));
  if (isFresh(request, reply)) {
    reply.code(304);
    reply.removeHeader('Content-Type');
    reply.removeHeader('Content-Length');
    reply.removeHeader('Transfer-Encoding');
    done(null, '');
    return;
  }
  done(null, payload);
}

/** Express's `req.fresh`: a GET or HEAD answered 2xx or 304 whose validators match the request's conditions. */
function isFresh(request: FastifyRequest, reply: FastifyReply): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  const status = reply.statusCode;
  if ((status < 200 || status >= 300) && status !== 304) return false;
  if (!request.headers['if-none-match'] && !request.headers['if-modified-since']) return false;
  return fresh(request.headers, {
    etag: reply.getHeader('ETag') as string | undefined,
    'last-modified': reply.getHeader('Last-Modified') as string | undefined,
  });
}
