import type { OpenAPIObject } from '@nestjs/swagger';
import { PROBLEM_CONTENT_TYPE } from './problem';

/**
 * What clients generate code from, beyond what the decorators say: stable operation ids, and the headers every
 * operation carries (the request id, paging links, retry hints), declared once here rather than on every route.
 */

/** `VehiclesController.all` -> `vehiclesAll`: unique (the tests check it) and stable while the code keeps its names. */
export function operationId(controllerKey: string, methodKey: string): string {
  const feature = controllerKey.replace(/Controller$/, '');
  return `${feature[0].toLowerCase()}${feature.slice(1)}${methodKey[0].toUpperCase()}${methodKey.slice(1)}`;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

type Operation = {
  requestBody?: unknown;
  parameters?: Array<{ $ref?: string; name?: string; in?: string }>;
  responses: Record<string, { headers?: Record<string, unknown>; description?: string; content?: unknown }>;
  security?: Array<Record<string, unknown>>;
};

const ref = (kind: 'headers' | 'parameters' | 'schemas', name: string) => ({ $ref: `#/components/${kind}/${name}` });

const problemResponse = (description: string) => ({
  description,
  content: { [PROBLEM_CONTENT_TYPE]: { schema: ref('schemas', 'ProblemDoc') } },
});

/** Adds the shared headers and responses to every operation of the document (in place), and returns it. */
export function declareHeaders(document: OpenAPIObject): OpenAPIObject {
  const components = document.components ?? (document.components = {});
  components.headers = {
    ...components.headers,
    RequestId: {
      description:
        "The request's id: the client's X-Request-Id when it sent a sane one (1-100 of A-Z a-z 0-9 . _ ~ -), else a new UUID. The same id is in the service logs and in a problem's `instance`.",
      schema: { type: 'string', example: '3f2b9c1e-7d0a-4c55-9f43-1b2d8e6a0c77' },
    },
    RetryAfter: {
      description: 'Seconds to wait before trying again.',
      schema: { type: 'integer', minimum: 1, example: 30 },
    },
    Link: {
      description:
        'RFC 8288: `<...>; rel="next"` when more records exist; the URL carries the `after` cursor of the next page. Absent on the last page.',
      schema: { type: 'string', example: '</vehicles/all?limit=50&after=65a0000000000000000000f1>; rel="next"' },
    },
    TotalCount: {
      description: 'With `count=true`: every record the filters match, on every page (computed by the database).',
      schema: { type: 'integer', minimum: 0, example: 23 },
    },
    WWWAuthenticate: {
      description: 'The authentication scheme expected: `Bearer realm="transport"` (a bare key is accepted too).',
      schema: { type: 'string', example: 'Bearer realm="transport"' },
    },
  };
  components.parameters = {
    ...components.parameters,
    RequestId: {
      name: 'X-Request-Id',
      in: 'header',
      required: false,
      description: 'A client-chosen id for this request (1-100 of A-Z a-z 0-9 . _ ~ -), echoed back and logged.',
      schema: { type: 'string', pattern: '^[A-Za-z0-9._~-]{1,100}$' },
    },
  };

  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const operation = (item as Record<string, Operation | undefined>)[method];
      if (!operation) continue;
      const probe = path.startsWith('/health');
      const keyed = (operation.security ?? []).some((s) => 'apiKey' in s);
      operation.parameters = [...(operation.parameters ?? []), ref('parameters', 'RequestId')];
      // Every operation reads the database: a busy or unreachable one is a 503 (probes document their own).
      if (!probe && !operation.responses['503'])
        operation.responses['503'] = problemResponse(
          'The database is busy or unreachable (`DATABASE_UNAVAILABLE`); nothing was changed. Retry after Retry-After seconds.',
        );
      // A key or session cookie that is sent is checked on every route, those open to anonymous callers too.
      if (!probe && !operation.responses['401'])
        operation.responses['401'] = problemResponse(
          'An unknown or revoked API key, or an ended session, was sent: refused even where none is needed.',
        );
      // A body is read by the same parser whatever the route, one the operation takes or not; and on the methods
      // that carry one, the content type is checked first.
      if (!operation.responses['400'])
        operation.responses['400'] = problemResponse(
          'A body that is not valid JSON, or a URL that is not valid percent-encoded UTF-8.',
        );
      if (!operation.responses['413']) operation.responses['413'] = problemResponse('The body is larger than 100 kB.');
      if (method !== 'get' && !operation.responses['415'])
        operation.responses['415'] = problemResponse('The body is not application/json.');
      // The global request limit counts every call with a key (and every call without one, per address).
      if (!probe && keyed && !operation.responses['429'])
        operation.responses['429'] = problemResponse(
          'Too many requests for this key or address (`RATE_LIMITED`); retry after Retry-After seconds.',
        );
      const paged = (operation.parameters ?? []).some((p) => p.in === 'query' && p.name === 'after');
      const counted = (operation.parameters ?? []).some((p) => p.in === 'query' && p.name === 'count');
      for (const [status, response] of Object.entries(operation.responses)) {
        if ('$ref' in response) continue;
        response.headers = { ...response.headers, 'X-Request-Id': ref('headers', 'RequestId') };
        if (status === '429' || status === '503') response.headers['Retry-After'] = ref('headers', 'RetryAfter');
        if (status === '401') response.headers['WWW-Authenticate'] = ref('headers', 'WWWAuthenticate');
        if (paged && status === '200') response.headers.Link = ref('headers', 'Link');
        if (counted && status === '200') response.headers['X-Total-Count'] = ref('headers', 'TotalCount');
      }
    }
  }
  return document;
}
