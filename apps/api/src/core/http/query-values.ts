import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, Matches, Max, Min, ValidateBy } from 'class-validator';
import { OBJECT_ID_PATTERN, type PageRequest } from '@transport/domain';
import { cursorRecord, listOrder } from './list-order';

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
    // ApiProperty, not ApiPropertyOptional: the latter sets required: false over what it is given.
    ApiProperty({ description, pattern: OBJECT_ID_PATTERN.source, example: '65a1b2c3d4e5f60718293a4b', required }),
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

/** The widest expiry window a list looks ahead (`within`, `expiring`): a year, a leap day included. */
export const MAX_WINDOW_DAYS = 366;

/**
 * A number of days ahead: an integer from 0 to 366. Anything else ("-1", "7days", "1.5", a repeated parameter) is one
 * 400 saying so.
 */
export function DaysParam(description: string, defaultDays?: number) {
  return applyDecorators(
    ApiPropertyOptional({ description, default: defaultDays, minimum: 0, maximum: MAX_WINDOW_DAYS, type: 'integer' }),
    IsOptional(),
    Transform(({ value }) => (typeof value === 'string' && /^\d{1,4}$/.test(value) ? Number(value) : value)),
    ValidateBy({
      name: 'days',
      validator: {
        validate: (value) => Number.isInteger(value) && value >= 0 && value <= MAX_WINDOW_DAYS,
        defaultMessage: (args) => `${args?.property} must be an integer from 0 to ${MAX_WINDOW_DAYS}`,
      },
    }),
  );
}

/**
 * The page a list query asks for: its `limit` (default 50), `after` cursor, whether to count, and its order (`sort`,
 * where the list has one; newest first otherwise). A cursor made in another order than `sort` is a 400.
 */
export function pageRequest<K extends string = never>(query: {
  limit?: number;
  after?: string;
  count?: string;
  sort?: string;
}): PageRequest<K> {
  return {
    limit: query.limit ?? DEFAULT_LIMIT,
    after: query.after === undefined ? undefined : cursorRecord(query.after, query.sort),
    count: query.count === 'true',
    order: listOrder<K>(query.sort),
  };
}
