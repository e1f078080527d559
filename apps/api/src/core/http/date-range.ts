import { DomainError } from '@transport/domain';

export const MAX_RANGE_DAYS = 366;
const DAY = 86_400_000;
const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?(Z|[+-]\d{2}:\d{2})?$/;

const invalid = (field: string, message: string) => new DomainError('INVALID_DATE_RANGE', message, field);

/**
 * One formatter per zone and shape, made once: building an Intl.DateTimeFormat costs far more than using one (it was
 * 12% of the trips endpoint's CPU when made per call).
 */
const FORMATTERS = new Map<string, Intl.DateTimeFormat>();
function formatter(locale: string, options: Intl.DateTimeFormatOptions & { timeZone: string }): Intl.DateTimeFormat {
  // Two shapes are used, told apart by their locale, so the zone and the locale make the key.
  const key = `${locale}|${options.timeZone}`;
  let format = FORMATTERS.get(key);
  if (!format) FORMATTERS.set(key, (format = new Intl.DateTimeFormat(locale, options)));
  return format;
}

/** Milliseconds the zone is ahead of UTC at an instant. */
function zoneOffset(instant: number, timeZone: string): number {
  const parts = formatter('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(instant));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const asUtc = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  return asUtc - Math.floor(instant / 1000) * 1000;
}

/** A wall-clock time in a zone, as an instant (two passes settle zones whose offset changes that day). */
function zonedToInstant(fields: number[], timeZone: string): number {
  const [y, mo, d, h = 0, mi = 0, s = 0, ms = 0] = fields;
  const wall = Date.UTC(y, mo - 1, d, h, mi, s, ms);
  let instant = wall - zoneOffset(wall, timeZone);
  instant = wall - zoneOffset(instant, timeZone);
  return instant;
}

/**
 * The first instant of a day in a zone, kept: a day's start is fixed once the process has its time-zone data, and the
 * two Intl lookups of zonedToInstant cost about 40 µs a bound (a list by dates asks for two). At most DAY_STARTS days
 * are kept; past that the memory starts again.
 */
const DAY_STARTS = 4096;
const dayStarts = new Map<string, number>();
function dayStart(y: number, mo: number, d: number, timeZone: string): number {
  const key = `${timeZone}|${y}-${mo}-${d}`;
  let instant = dayStarts.get(key);
  if (instant === undefined) {
    if (dayStarts.size >= DAY_STARTS) dayStarts.clear();
    dayStarts.set(key, (instant = zonedToInstant([y, mo, d], timeZone)));
  }
  return instant;
}

function checkCalendar(field: string, y: number, mo: number, d: number): void {
  // PostgreSQL has no year 0 (JavaScript's year 0 is 1 BC).
  if (y < 1) throw invalid(field, `${field} must be a date from the year 0001 on`);
  const probe = new Date(Date.UTC(y, mo - 1, d));
  if (probe.getUTCFullYear() !== y || probe.getUTCMonth() !== mo - 1 || probe.getUTCDate() !== d) {
    throw invalid(field, `${field} is not a calendar date`);
  }
}

interface Bound {
  instant: number;
  dateOnly: boolean;
}

function parseBound(field: string, raw: string, timeZone: string): Bound {
  const dateOnly = DATE_ONLY.exec(raw);
  if (dateOnly) {
    const [y, mo, d] = dateOnly.slice(1).map(Number);
    checkCalendar(field, y, mo, d);
    return { instant: dayStart(y, mo, d, timeZone), dateOnly: true };
  }
  const dateTime = DATE_TIME.exec(raw);
  if (!dateTime)
    throw invalid(field, `${field} must be YYYY-MM-DD or an ISO 8601 date-time such as 2026-11-01T08:30:00Z`);
  const [y, mo, d, h, mi] = dateTime.slice(1, 6).map(Number);
  const s = Number(dateTime[6] ?? 0);
  const ms = Number((dateTime[7] ?? '0').padEnd(3, '0'));
  checkCalendar(field, y, mo, d);
  if (h > 23 || mi > 59 || s > 59) throw invalid(field, `${field} has an impossible time of day`);
  const zone = dateTime[8];
  if (!zone) return { instant: zonedToInstant([y, mo, d, h, mi, s, ms], timeZone), dateOnly: false };
  const offset =
    zone === 'Z' ? 0 : (zone[0] === '-' ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6))) * 60_000;
  return { instant: Date.UTC(y, mo - 1, d, h, mi, s, ms) - offset, dateOnly: false };
}

/**
 * The half-open range [from, to) of a `startDate`/`endDate` query: dates without a time are days in `timeZone`
 * (a date-only end includes that whole day); date-times without an offset are wall-clock times there.
 */
export function parseDateRange(startDate: string, endDate: string, timeZone: string): { from: Date; to: Date } {
  const start = parseBound('startDate', startDate, timeZone);
  const end = parseBound('endDate', endDate, timeZone);
  const to = end.dateOnly ? dayStart(...endDayAfter(endDate), timeZone) : end.instant + 1;
  if (start.instant >= to) throw invalid('startDate', 'startDate must not be after endDate');
  if (to - start.instant > MAX_RANGE_DAYS * DAY)
    throw invalid('endDate', `The range may cover at most ${MAX_RANGE_DAYS} days`);
  return { from: new Date(start.instant), to: new Date(to) };
}

function endDayAfter(date: string): [number, number, number] {
  const [y, mo, d] = date.split('-').map(Number);
  const next = new Date(Date.UTC(y, mo - 1, d) + DAY);
  return [next.getUTCFullYear(), next.getUTCMonth() + 1, next.getUTCDate()];
}

/** The first instant after the whole day that is `days` days after `now`'s day, in `timeZone`. */
export function endOfDayAfter(now: Date, days: number, timeZone: string): Date {
  const parts = formatter('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' })
    .format(now)
    .split('-')
    .map(Number);
  const target = new Date(Date.UTC(parts[0], parts[1] - 1, parts[2]) + (days + 1) * DAY);
  return new Date(zonedToInstant([target.getUTCFullYear(), target.getUTCMonth() + 1, target.getUTCDate()], timeZone));
}

/**
 * The expiry window of the lists (`within` of GET /vehicles/compliance, `expiring` of GET /vehicles/all and
 * /drivers/all): documents ending by the end of the day `days` days after `now`'s day in `timeZone`, expired ones
 * included. `end` is the first instant after it; `last`, its last instant (what "ends on or before" compares with).
 */
export function expiryWindow(now: Date, days: number, timeZone: string): { end: Date; last: Date } {
  const end = endOfDayAfter(now, days, timeZone);
  return { end, last: new Date(end.getTime() - 1) };
}
