/**
 * When an owner or a driver is reminded that a document is about to lapse: a number of days before its expiry (30, 7,
 * 1, and 0 for the day it lapses), counted in calendar days of one time zone (Africa/Accra), never during the quiet
 * hours of that zone. Pure rules: the time comes in, the answer goes out (the app keeps what was sent).
 */

/** The documents reminded of: a vehicle's roadworthy certificate and insurance (to its owner), a driver's licence. */
export const REMINDER_DOCUMENTS = ['roadworthy', 'insurance', 'licence'] as const;
export type ReminderDocument = (typeof REMINDER_DOCUMENTS)[number];

/** A reminder's identity: one per record, document, expiry and threshold (a renewed expiry is another reminder). */
export function reminderKey(
  reminder: { entity: string; entityId: string; document: string; expiry: Date },
  threshold: number,
): string {
  return `${reminder.entity}:${reminder.entityId}:${reminder.document}:${reminder.expiry.toISOString()}:${threshold}`;
}

/** Quiet hours as local hours of the day: no message from `fromHour`:00 until `untilHour`:00 (may wrap midnight). */
export interface QuietHours {
  fromHour: number;
  untilHour: number;
}

export interface ReminderPolicy {
  /** Days before expiry, e.g. [30, 7, 1, 0] (0: the day it lapses). */
  thresholds: readonly number[];
  quietHours: QuietHours;
  /** An IANA time zone, e.g. Africa/Accra: where days begin and quiet hours are read. */
  timeZone: string;
}

interface LocalTime {
  year: number;
  month: number;
  day: number;
  hour: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** The calendar date and hour of an instant in a zone, through Intl (the zone's rules, daylight saving included). */
function localTime(at: Date, timeZone: string): LocalTime {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(at).map((p) => [p.type, p.value]));
  return { year: Number(parts.year), month: Number(parts.month), day: Number(parts.day), hour: Number(parts.hour) };
}

/** Days since 1970-01-01 of a calendar date (no zone: dates are compared as dates). */
const dayNumber = (t: LocalTime) => Math.floor(Date.UTC(t.year, t.month - 1, t.day) / 86_400_000);

/** The local calendar date of an instant, as YYYY-MM-DD. */
export function localDate(at: Date, timeZone: string): string {
  const t = localTime(at, timeZone);
  return `${t.year}-${String(t.month).padStart(2, '0')}-${String(t.day).padStart(2, '0')}`;
}

/** Whole calendar days from `at` to `expiry` in the zone: 0 on the day it lapses, negative after. */
export function daysUntil(expiry: Date, at: Date, timeZone: string): number {
  return dayNumber(localTime(expiry, timeZone)) - dayNumber(localTime(at, timeZone));
}

/** Whether `at` falls in the quiet hours, read on the zone's clock. */
export function inQuietHours(at: Date, policy: Pick<ReminderPolicy, 'quietHours' | 'timeZone'>): boolean {
  const { fromHour, untilHour } = policy.quietHours;
  if (fromHour === untilHour) return false;
  const hour = localTime(at, policy.timeZone).hour;
  return fromHour < untilHour ? hour >= fromHour && hour < untilHour : hour >= fromHour || hour < untilHour;
}

/** Zones' offsets are whole quarter hours: quiet hours begin and end on a quarter hour of UTC. */
const QUARTER_HOUR_MS = 15 * 60_000;

/**
 * When a message held by the quiet hours may go: `at` itself outside them, else the first instant after them (the
 * `untilHour`:00 that ends them, on the zone's clock). Used for every message that does not answer the person's own
 * action (docs/security.md).
 */
export function quietHoursEnd(at: Date, policy: Pick<ReminderPolicy, 'quietHours' | 'timeZone'>): Date {
  if (!inQuietHours(at, policy)) return at;
  let next = Math.floor(at.getTime() / QUARTER_HOUR_MS) * QUARTER_HOUR_MS;
  do next += QUARTER_HOUR_MS;
  while (inQuietHours(new Date(next), policy));
  return new Date(next);
}

/**
 * The threshold whose reminder is due for a document expiring at `expiry`: the smallest threshold not below the days
 * left, so a reminder missed (the service was down that morning, the document was recorded late) is still sent once
 * while it means something, and an earlier threshold is never sent after a later one. Undefined when none is due:
 * more days left than the largest threshold, or the document has lapsed before today.
 */
export function dueThreshold(expiry: Date, at: Date, policy: ReminderPolicy): number | undefined {
  const days = daysUntil(expiry, at, policy.timeZone);
  if (days < 0) return undefined;
  const candidates = policy.thresholds.filter((t) => t >= days);
  return candidates.length > 0 ? Math.min(...candidates) : undefined;
}

/** The widest window of expiry instants that may have a reminder due at `at`: for the query that finds them. */
export function dueWindow(at: Date, policy: ReminderPolicy): { from: Date; to: Date } {
  const largest = Math.max(0, ...policy.thresholds);
  // A day either side of the exact bounds: zones are at most 14 h from UTC, and dueThreshold decides exactly.
  return {
    from: new Date(at.getTime() - 2 * 86_400_000),
    to: new Date(at.getTime() + (largest + 2) * 86_400_000),
  };
}

const DOCUMENT_NAMES: Record<ReminderDocument, string> = {
  roadworthy: 'roadworthy certificate',
  insurance: 'insurance',
  licence: 'driving licence',
};

/** The text message, short enough for one SMS; `subject` names the vehicle (its plate) or nothing for a licence. */
export function reminderText(
  reminder: { document: ReminderDocument; expiry: Date; subject?: string },
  at: Date,
  timeZone: string,
): string {
  const what = `${reminder.subject ? `The ${DOCUMENT_NAMES[reminder.document]} of ${reminder.subject}` : `Your ${DOCUMENT_NAMES[reminder.document]}`}`;
  const days = daysUntil(reminder.expiry, at, timeZone);
  const when =
    days <= 0
      ? 'expires today'
      : days === 1
        ? 'expires tomorrow'
        : `expires in ${days} days, on ${localDate(reminder.expiry, timeZone)}`;
  return `${what} ${when}. Please renew it at your assembly; ask the assembly to stop these reminders if you no longer want them.`;
}
