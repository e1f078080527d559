import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, Matches, Max, Min } from 'class-validator';
import { OBJECT_ID_PATTERN } from '@transport/domain';

export const MAX_LIMIT = 500;
export const DEFAULT_LIMIT = 50;

/** `limit`: an integer from 1 to 500 (default 50). Anything else, including "10abc" or a repeated parameter, is a 400. */
export function LimitParam() {
  return applyDecorators(
    ApiPropertyOptional({
      description: `How many records to return: an integer from 1 to ${MAX_LIMIT}.`,
      default: DEFAULT_LIMIT,
      minimum: 1,
      maximum: MAX_LIMIT,
      type: 'integer',
    }),
    IsOptional(),
    Transform(({ value }) => (typeof value === 'string' && /^\d{1,6}$/.test(value) ? Number(value) : value)),
    IsInt({ message: `limit must be an integer from 1 to ${MAX_LIMIT}` }),
    Min(1, { message: `limit must be an integer from 1 to ${MAX_LIMIT}` }),
    Max(MAX_LIMIT, { message: `limit must be an integer from 1 to ${MAX_LIMIT}` }),
  );
}

/** An id parameter: 24 lowercase hex characters. A well-formed id that names nothing is simply no match. */
export function IdParam(description: string, required = false) {
  return applyDecorators(
    ApiPropertyOptional({
      description,
      pattern: OBJECT_ID_PATTERN.source,
      example: '65a1b2c3d4e5f60718293a4b',
      required,
    } as never),
    ...(required ? [] : [IsOptional()]),
    Matches(OBJECT_ID_PATTERN, { message: ({ property }) => `${property} must be a 24-character lowercase hex id` }),
  );
}

/** `true` or `false`, nothing else ("1", "yes", "" are 400s). */
export function BooleanParam(description: string) {
  return applyDecorators(
    ApiPropertyOptional({ description, enum: ['true', 'false'], type: String }),
    IsOptional(),
    IsIn(['true', 'false'], { message: ({ property }) => `${property} must be true or false` }),
  );
}

export const toBoolean = (value: string | undefined): boolean | undefined =>
  value === undefined ? undefined : value === 'true';

/** `count=true`: the answer also carries `X-Total-Count`, every record the filters match (computed by the database). */
export function CountParam() {
  return BooleanParam('`true`: also answer `X-Total-Count`, the number of records the filters match on every page.');
}

/** The page a list query asks for: its `limit` (default 50), `after` cursor and whether to count. */
export function pageRequest(query: { limit?: number; after?: string; count?: string }) {
  return { limit: query.limit ?? DEFAULT_LIMIT, after: query.after, count: query.count === 'true' };
}
