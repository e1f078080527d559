import createClient, { type Client } from 'openapi-fetch';
import type { components, operations, paths } from './schema';

/**
 * The API's TypeScript client: openapi-fetch over the types openapi-typescript generates from the committed OpenAPI
 * document (schema.ts, written by `npm run openapi`). Every path, parameter, body and answer is typed from the
 * contract; nothing here knows the server's code.
 */
export type { components, operations, paths };
/** The media the client is typed for: JSON answers and problem bodies (lists also answer CSV to `Accept: text/csv`). */
type Json = 'application/json' | 'application/problem+json';
export type ApiClient = Client<paths, Json>;
/** The problem+json body of every error (RFC 9457). */
export type Problem = components['schemas']['ProblemDoc'];

export interface ApiClientOptions {
  /** The API base URL, e.g. https://transport.example.com (the payment routes sit under PAYMENT_BASE_PATH there). */
  baseUrl: string;
  /** An API key, sent as the Authorization header of every request. */
  apiKey?: string;
  /** A fetch implementation (default: the global one). */
  fetch?: typeof globalThis.fetch;
}

export function createApiClient(options: ApiClientOptions): ApiClient {
  const client = createClient<paths, Json>({ baseUrl: options.baseUrl, fetch: options.fetch });
  const { apiKey } = options;
  if (apiKey)
    client.use({
      onRequest({ request }) {
        request.headers.set('Authorization', apiKey);
        return request;
      },
    });
  return client;
}

/** The `after` cursor of the next page, from a list answer's `Link: <...>; rel="next"` header (none on the last page). */
export function nextCursor(response: Response): string | undefined {
  const link = response.headers.get('Link');
  const target = link ? /<([^>]+)>;\s*rel="next"/.exec(link)?.[1] : undefined;
  return target ? (new URL(target, 'http://base').searchParams.get('after') ?? undefined) : undefined;
}
