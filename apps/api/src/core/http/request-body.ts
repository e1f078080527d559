import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { AppError } from '../errors';
import { isCallbackRoute } from './callback-route';

/** The largest JSON body a route takes (413 past it). */
export const JSON_BODY_LIMIT_BYTES = 100 * 1024;

/**
 * Routes whose body is raw bytes (a photo), by the route the router matched, with the most bytes each takes (413 past
 * it): the body reaches the route as a Buffer whatever its Content-Type, and the route tells its type by the bytes.
 */
export const RAW_BODY_ROUTES: Readonly<Record<string, { bytes: number; what: string }>> = {
  '/vehicles/:id/inspection-photos': { bytes: 5 * 1024 * 1024, what: 'A photo' },
  '/enforcement/notices/:id/photos': { bytes: 5 * 1024 * 1024, what: 'A photo' },
  // The public notice page's contest form: a short text and a photo of at most 5 MB, with the form's framing.
  '/n/:token/contest': { bytes: 6 * 1024 * 1024, what: 'A contest with its photo' },
};

/** Routes that also take a plain HTML form (application/x-www-form-urlencoded, at most 2 kB): the public pages' forms. */
export const FORM_BODY_ROUTES: ReadonlySet<string> = new Set(['/n/:token/pay']);

/** Methods whose body is read; a body on any other method is left unread, as before. */
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

export interface BodyLimits {
  /** The callback's raw body limit (CALLBACK_BODY_LIMIT_BYTES). */
  callbackBytes: number;
}

const tooLarge = () => new AppError('BODY_TOO_LARGE', 'The request body is larger than 100 kB');
const rawTooLarge = (raw: { bytes: number; what: string }) =>
  new AppError('BODY_TOO_LARGE', `${raw.what} is at most ${raw.bytes / 1024 / 1024} MB`);
const malformed = () => new AppError('MALFORMED_JSON', 'The request body is not valid JSON');

/** A refusal shaped as body-parser's: problem.filter.ts answers it as it answered body-parser's. */
function bodyParserError(status: number, type: string, message: string, expose: boolean): Error {
  return Object.assign(new Error(message), { status, type, expose });
}

/** As body-parser refused a JSON body in another charset: a 415 whose problem says which. */
const unsupportedCharset = (charset: string) =>
  bodyParserError(415, 'charset.unsupported', `unsupported charset "${charset.toUpperCase()}"`, true);

/** The body's bytes as sent: inflated when it came compressed (gzip, deflate or br, as body-parser took it). */
function decoded(payload: IncomingMessage): Readable | Error {
  const encoding = (payload.headers['content-encoding'] ?? 'identity').toLowerCase();
  if (encoding === 'identity') return payload;
  const inflate = { gzip: createGunzip, deflate: createInflate, br: createBrotliDecompress }[encoding];
  if (!inflate) return bodyParserError(415, 'encoding.unsupported', `unsupported content encoding "${encoding}"`, true);
  return payload.pipe(inflate());
}

/** JSON as the API took it before (body-parser's strict mode): an object or an array, an empty body as `{}`. */
function parseJson(text: string): unknown {
  if (text.length === 0) return {};
  const first = text.trimStart()[0];
  if (first !== '{' && first !== '[') throw malformed();
  try {
    return JSON.parse(text);
  } catch {
    throw malformed();
  }
}

/**
 * The body as UTF-8 text, refused with 413 as soon as it passes `limit` (by its Content-Length, or while it comes; a
 * compressed body by its inflated size).
 */
function readText(
  payload: IncomingMessage,
  declared: number,
  limit: number,
  done: (error: Error | null, text?: string) => void,
) {
  readBytes(payload, declared, limit, tooLarge, (error, bytes) => done(error, bytes?.toString('utf8')));
}

/** The body's bytes, refused with `tooLarge()` as soon as they pass `limit` (readText's rules). */
function readBytes(
  payload: IncomingMessage,
  declared: number,
  limit: number,
  tooLarge: () => Error,
  done: (error: Error | null, bytes?: Buffer) => void,
) {
  const body = decoded(payload);
  if (body instanceof Error) return done(body);
  if (body === payload && declared > limit) return done(tooLarge());
  const chunks: Buffer[] = [];
  let size = 0;
  const onData = (chunk: Buffer) => {
    size += chunk.length;
    if (size > limit) {
      body.removeListener('data', onData);
      body.removeListener('end', onEnd);
      if (body !== payload) body.destroy();
      done(tooLarge());
      return;
    }
    chunks.push(chunk);
  };
  const onEnd = () => done(null, Buffer.concat(chunks, size));
  body.on('data', onData);
  body.once('end', onEnd);
  body.once('error', (error) =>
    done(
      body === payload
        ? error
        : bodyParserError(400, 'encoding.failed', 'The request body could not be inflated', false),
    ),
  );
}

/** The media type and charset of a Content-Type header, lower-cased. */
function mediaType(header: string | undefined): { type: string; charset?: string } {
  const [type, ...parameters] = (header ?? '').split(';');
  const charset = parameters
    .map((p) => /^\s*charset\s*=\s*"?([^";\s]*)"?\s*$/i.exec(p)?.[1])
    .find((value) => value !== undefined);
  return { type: type.trim().toLowerCase(), charset: charset?.toLowerCase() };
}

/**
 * The one body parser: JSON for every route (415 UNSUPPORTED_MEDIA_TYPE for another content type, 413 past 100 kB,
 * 400 MALFORMED_JSON), and the provider callbacks' raw text whatever its type, so their signatures are checked over the
 * exact bytes and a body that is not JSON can still be stored for inspection. Fastify's own parsers are removed: their
 * refusals (an empty JSON body, an unknown type) had other shapes than the API's problems.
 */
export function installBodyParser(instance: FastifyInstance, limits: BodyLimits): void {
  instance.removeAllContentTypeParsers();
  instance.addContentTypeParser('*', (request: FastifyRequest, payload: IncomingMessage, done) => {
    const headers = request.headers;
    const declared = Number(headers['content-length'] ?? 0);
    const hasBody = declared > 0 || headers['transfer-encoding'] !== undefined;
    // The route the router matched, not the raw path: every letter case and a trailing slash reach the callback, and
    // a query string naming it matches nothing.
    if (isCallbackRoute(request)) return readText(payload, declared, limits.callbackBytes, done);
    const raw = RAW_BODY_ROUTES[request.routeOptions?.url ?? ''];
    if (raw && BODY_METHODS.has(request.method))
      return readBytes(payload, declared, raw.bytes, () => rawTooLarge(raw), done);
    const { type, charset } = mediaType(headers['content-type']);
    if (type === 'application/x-www-form-urlencoded' && FORM_BODY_ROUTES.has(request.routeOptions?.url ?? ''))
      return readText(payload, declared, 2048, (error, text) =>
        error ? done(error) : done(null, Object.fromEntries(new URLSearchParams(text ?? ''))),
      );
    if (type !== 'application/json') {
      if (hasBody && BODY_METHODS.has(request.method))
        return done(new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the request body as application/json'));
      payload.resume();
      return done(null, undefined);
    }
    if (charset !== undefined && !charset.startsWith('utf-')) return done(unsupportedCharset(charset));
    readText(payload, declared, JSON_BODY_LIMIT_BYTES, (error, text) => {
      if (error) return done(error);
      try {
        done(null, parseJson(text ?? ''));
      } catch (refusal) {
        done(refusal as Error);
      }
    });
  });
}
