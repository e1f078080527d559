import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, Matches } from 'class-validator';
import { OBJECT_ID_PATTERN, type ListOrder } from '@transport/domain';
import { AppError } from '../errors';

/** The order of every list without a `sort`, and of a list's `sort` by default: newest first. */
export const NEWEST_FIRST = '-createdAt';

/** A list's `sort` values: each field ascending, or descending with a leading `-`. */
export function sortValues(fields: readonly string[]): string[] {
  return fields.flatMap((field) => [field, `-${field}`]);
}

/** `sort`: one of the list's orders (each field either way); anything else is a 400 that names them. */
export function SortParam(fields: readonly string[], description: string) {
  const values = sortValues(fields);
  return applyDecorators(
    ApiPropertyOptional({ description, enum: values, default: NEWEST_FIRST, type: String }),
    IsOptional(),
    IsIn(values, { message: `sort must be one of ${values.join(', ')}` }),
  );
}

/**
 * A cursor of a list with orders: newest first, the `_id` of the last record of the previous page (as every list's);
 * in another order, that order and the `_id` (`registrationNumber.65a1b2c3d4e5f60718293a4b`), so that it cannot be
 * taken for a cursor of another order.
 */
const CURSOR = new RegExp(`^(?:-?[A-Za-z]{1,40}\\.)?${OBJECT_ID_PATTERN.source.slice(1)}`);

/** `after` of a list with orders: the cursor of the `Link` header, whatever the order. */
export function CursorParam() {
  return applyDecorators(
    ApiPropertyOptional({
      description:
        'Cursor: follow the `Link` header (rel="next") rather than making one. Newest first it is the `_id` of the last record of the previous page; ' +
        'in another order it also names that order (`registrationNumber.65a1b2c3d4e5f60718293a4b`). A cursor continues only the order it was made in: ' +
        'sent with another `sort`, it is refused (400).',
      pattern: CURSOR.source,
      example: '65a1b2c3d4e5f60718293a4b',
    }),
    IsOptional(),
    Matches(CURSOR, {
      message:
        'after must be a cursor from the Link header: an _id, or a sort and an _id (name.65a1b2c3d4e5f60718293a4b)',
    }),
  );
}

/** A `sort` value as the stores read it: absent for newest first (the order every list has without one). */
export function listOrder<K extends string>(sort: string | undefined): ListOrder<K> | undefined {
  if (sort === undefined || sort === NEWEST_FIRST) return undefined;
  const descending = sort.startsWith('-');
  return { by: (descending ? sort.slice(1) : sort) as K, descending };
}

/** The cursor the next page's link carries: the last record's `_id`, with the order unless newest first. */
export function cursorOf(sort: string | null | undefined, id: string): string {
  return !sort || sort === NEWEST_FIRST ? id : `${sort}.${id}`;
}

/**
 * The record a cursor names, once it is known to continue the order asked for: a cursor of another order would start
 * the page at a place that means nothing in this one, so it is a 400 saying which order it belongs to.
 */
export function cursorRecord(after: string, sort: string | undefined): string {
  const dot = after.lastIndexOf('.');
  const made = dot < 0 ? NEWEST_FIRST : after.slice(0, dot);
  const asked = sort ?? NEWEST_FIRST;
  if (made !== asked) {
    const message = `after continues the list in sort=${made} order, not sort=${asked}: send the sort it was made with, or start again without after`;
    throw new AppError('VALIDATION_FAILED', `after: ${message}`, { errors: [{ field: 'after', message }] });
  }
  return after.slice(dot + 1);
}
