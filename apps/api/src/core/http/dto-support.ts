import { Transform } from 'class-transformer';
import { ValidateBy } from 'class-validator';
import { OBJECT_ID_PATTERN } from '@transport/domain';

// What every feature's request and response classes share: id and date formats, the If-Match header.

export const idMessage = {
  message: ({ property }: { property: string }) => `${property} must be a 24-character lowercase hex id`,
};
/** OpenAPI options of a 24-hex id. */
export const ID = { example: '65a1b2c3d4e5f60718293a4b', pattern: OBJECT_ID_PATTERN.source };
/** OpenAPI options of a date-time. */
export const DATE = { format: 'date-time', example: '2026-11-22T08:30:00.000Z' };

export const IF_MATCH = {
  name: 'If-Match',
  required: false,
  description: 'The revision (__v) the client last saw; a newer one makes the request a 409.',
};

const iso = (d: Date | undefined) => d?.toISOString();
export { iso };

// Absent, not null: the interface shows an optional field only when it is set. A response object leaves such a field
// undefined and JSON.stringify leaves it out (so do the views and the CSV cells). Deleting the keys instead, as a
// helper did, turned each object into a dictionary that JSON.stringify writes about 1.5 times slower (a trips page).

/**
 * Cedis as a JSON number with at most `decimals` decimals, read exactly: the number must be the one such a decimal
 * reads as (25.5, not 25.499999 or 0.1 + 0.2); more decimals are refused, never rounded. class-validator's own
 * `maxDecimalPlaces` reads the number's text and throws on one JavaScript writes with an exponent (1e-7): a 500.
 */
export const IsCedis = (decimals = 2) =>
  ValidateBy({
    name: 'cedis',
    validator: {
      validate: (value) =>
        typeof value === 'number' &&
        Number.isFinite(value) &&
        Math.round(value * 10 ** decimals) / 10 ** decimals === value,
      defaultMessage: (args) =>
        `${args?.property} must be an amount in cedis (a JSON number) with at most ${decimals} decimals`,
    },
  });

const ISO_DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})?)?$/;

/**
 * Only ISO 8601 strings become dates; numbers, booleans and other text stay as they are and fail @IsDate. A date
 * outside the years 1 to 9999 (year 0, which PostgreSQL does not have, or an offset that moves 0001-01-01 back into it)
 * becomes an invalid date, which fails @IsDate too.
 */
export const ToDate = () =>
  Transform(({ value }) => {
    if (typeof value !== 'string' || !ISO_DATE.test(value)) return value;
    const date = new Date(value);
    const year = date.getUTCFullYear();
    return year >= 1 && year <= 9999 ? date : new Date(Number.NaN);
  });
