import { applyDecorators, type Type } from '@nestjs/common';
import {
  ApiExtraModels,
  ApiProperty,
  ApiPropertyOptional,
  ApiResponse,
  getSchemaPath,
  type OpenAPIObject,
} from '@nestjs/swagger';
import { PROBLEM_CONTENT_TYPE } from './problem';

export class ProblemFieldDoc {
  @ApiProperty({ example: 'limit' }) field!: string;
  @ApiProperty({ example: 'limit must be an integer from 1 to 500' }) message!: string;
}

/** RFC 9457 problem details: the body of every error. */
export class ProblemDoc {
  @ApiProperty({
    example: 'about:blank',
    description: 'A URI naming the kind of problem (urn:transport:problem:<code> for coded ones).',
  })
  type!: string;
  @ApiProperty({ example: 'Bad Request' }) title!: string;
  @ApiProperty({ example: 400 }) status!: number;
  @ApiProperty({ example: 'limit: limit must be an integer from 1 to 500' }) detail!: string;
  @ApiPropertyOptional({
    example: 'VALIDATION_FAILED',
    description: 'Stable machine-readable code (domain error codes such as VEHICLE_NOT_INSPECTED).',
  })
  code?: string;
  @ApiPropertyOptional({
    example: 'urn:transport:request:3f2b9c1e-7d0a-4c55-9f43-1b2d8e6a0c77',
    description:
      "This occurrence: the request's id (the client's `X-Request-Id`, or one the service made), as the response's " +
      '`X-Request-Id` header and the service logs carry it. Quote it when reporting a problem.',
  })
  instance?: string;
  @ApiPropertyOptional({
    type: [ProblemFieldDoc],
    description: 'For validation failures: each field and what is wrong with it.',
  })
  errors?: ProblemFieldDoc[];
}

const MEANINGS: Record<number, string> = {
  400: 'Invalid input: a malformed parameter or body field, an unknown field, or malformed JSON.',
  401: 'No API key, or an unknown or revoked one (with a WWW-Authenticate header).',
  403: 'A valid API key whose role may not call this operation.',
  404: 'No such record (or one the caller may not see).',
  409: 'Conflicts with the stored state: a duplicate, or a record changed by someone else.',
  410: 'Gone: the record or link expired (a callback URL past its grace period after the final state).',
  413: 'The body is larger than 100 kB.',
  415: 'The body is not application/json.',
  422: 'Well-formed, but a rule refuses it; `code` says which.',
  428: 'No If-Match header (`IF_MATCH_REQUIRED`): this change needs the revision (`__v`) the client last saw.',
  502: 'A gateway this operation depends on (the SMS gateway) refused or could not be reached; nothing else changed that a repeat would not redo.',
  503: 'The database is busy or unreachable (`DATABASE_UNAVAILABLE`): nothing was changed; retry after the Retry-After header (seconds).',
  429: 'Too many requests (`RATE_LIMITED`, with a Retry-After header in seconds), or too many callbacks kept for one transaction (`TOO_MANY_CALLBACKS`).',
};

/** Documents error responses as problem+json. */
export function ApiProblems(...statuses: number[]) {
  return applyDecorators(
    ApiExtraModels(ProblemDoc),
    ...statuses.map((status) =>
      ApiResponse({
        status,
        description: MEANINGS[status],
        content: { [PROBLEM_CONTENT_TYPE]: { schema: { $ref: getSchemaPath(ProblemDoc) } } },
      }),
    ),
  );
}

/**
 * A list answer that is JSON by default and, with `Accept: text/csv`, the whole filtered list as a CSV download with
 * these columns (core/http/csv-export.ts).
 */
export function ApiListOrCsv(
  type: Type,
  csv: { filename: string; columns: readonly string[] },
  /** When the JSON body is an envelope (operation 5's `{ status, payload }`) rather than the array itself. */
  envelope?: Type,
) {
  const json = envelope
    ? { $ref: getSchemaPath(envelope) }
    : { type: 'array' as const, items: { $ref: getSchemaPath(type) } };
  return applyDecorators(
    ApiExtraModels(type, ...(envelope ? [envelope] : [])),
    ApiResponse({
      status: 200,
      description:
        `${envelope ? 'JSON: `{ "status": 200, "payload": [...] }`' : 'A JSON array'} (one page; \`Link\` header for the next). With \`Accept: text/csv\` and an API key (401 without one): the whole filtered list (limit and after do not apply), ` +
        `streamed as ${csv.filename} (RFC 4180, a header row, cells starting with = + - @ prefixed with '), columns: ${csv.columns.join(', ')}.`,
      content: {
        'application/json': { schema: json },
        'text/csv': { schema: { type: 'string' } },
      },
    }),
  );
}

/**
 * A schema that takes null and nothing else (OpenAPI 3.0: `nullable` adds null to the `type` beside it, which it needs;
 * the enum then keeps null only). openapi-typescript writes it `never | null`.
 */
const NULL_ONLY = { type: 'object', nullable: true, enum: [null] };

/**
 * A property holding a `type` object or null. OpenAPI 3.0's `nullable` adds null to the `type` beside it and to nothing
 * else (3.0.3 says so), so `{ type: X, nullable: true }` (Nest writes it as `nullable` beside an `allOf` of X's $ref)
 * takes no null: X is an object. Said instead as one of X or a schema that takes null only, which a strict validator
 * and openapi-typescript (`X | null`) read alike, and Redocly's lint accepts. The class declares X with @ApiExtraModels.
 */
export function ApiNullableObject(type: Type, options: { description: string; required?: boolean }) {
  return ApiProperty({
    description: options.description,
    required: options.required ?? true,
    oneOf: [{ $ref: getSchemaPath(type) }, NULL_ONLY],
  } as never);
}

/** Keywords of a schema as a whole, which Nest's decorators (one per property) cannot say, by schema name. */
const SCHEMA_KEYWORDS = new Map<string, { minProperties?: number; additionalProperties?: boolean }>();

/**
 * Declares keywords of a request or response class's schema as a whole: `minProperties: 1` with
 * `additionalProperties: false` says "at least one of these fields" (a renewal: one of two dates, or both). Applied to
 * the document by declareSchemaKeywords.
 */
export function ApiSchemaKeywords(keywords: { minProperties?: number; additionalProperties?: boolean }) {
  return (target: Type) => void SCHEMA_KEYWORDS.set(target.name, keywords);
}

/** Adds the keywords declared with ApiSchemaKeywords to their schemas (in place), and returns the document. */
export function declareSchemaKeywords(document: OpenAPIObject): OpenAPIObject {
  const schemas = document.components?.schemas ?? {};
  for (const [name, keywords] of SCHEMA_KEYWORDS) if (schemas[name]) Object.assign(schemas[name], keywords);
  return document;
}
