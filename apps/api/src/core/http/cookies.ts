import { serialize, type SerializeOptions } from 'cookie';
import type { FastifyReply } from 'fastify';

/**
 * Sets a cookie as the API always wrote it (Express's res.cookie): `maxAge` in milliseconds given, written as Max-Age in
 * seconds with the matching Expires, path `/` unless another is named.
 */
export function setCookie(reply: FastifyReply, name: string, value: string, options: SerializeOptions): void {
  const written: SerializeOptions = { path: '/', ...options };
  if (options.maxAge !== undefined) {
    written.expires = new Date(Date.now() + options.maxAge);
    written.maxAge = Math.floor(options.maxAge / 1000);
  }
  reply.header('Set-Cookie', serialize(name, value, written));
}

/** Clears a cookie as Express's res.clearCookie did: empty, expired at the epoch's first millisecond, no Max-Age. */
export function clearCookie(reply: FastifyReply, name: string, options: SerializeOptions): void {
  const { maxAge: _ignored, ...rest } = options;
  reply.header('Set-Cookie', serialize(name, '', { path: '/', ...rest, expires: new Date(1) }));
}
