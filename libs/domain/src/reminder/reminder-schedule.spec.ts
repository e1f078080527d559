import fc from 'fast-check';
import {
  reminderKey,
  daysUntil,
  dueThreshold,
  dueWindow,
  inQuietHours,
  quietHoursEnd,
  reminderText,
  type ReminderPolicy,
} from './reminder-schedule';

const ACCRA: ReminderPolicy = {
  thresholds: [30, 7, 1, 0],
  quietHours: { fromHour: 20, untilHour: 7 },
  timeZone: 'Africa/Accra',
};

describe('reminder schedule', () => {
  it('counts calendar days in the zone, 0 on the day a document lapses', () => {
    const expiry = new Date('2027-03-10T09:00:00Z');
    expect(daysUntil(expiry, new Date('2027-03-10T23:59:00Z'), 'Africa/Accra')).toBe(0);
    expect(daysUntil(expiry, new Date('2027-03-09T23:59:00Z'), 'Africa/Accra')).toBe(1);
    expect(daysUntil(expiry, new Date('2027-02-08T07:00:00Z'), 'Africa/Accra')).toBe(30);
    expect(daysUntil(expiry, new Date('2027-03-11T00:00:00Z'), 'Africa/Accra')).toBe(-1);
    // The zone decides where a day begins: in Tokyo (UTC+9) 2027-03-10T20:00Z is already the 11th.
    expect(daysUntil(expiry, new Date('2027-03-10T20:00:00Z'), 'Asia/Tokyo')).toBe(-1);
  });

  it('is due at the threshold reached, and keeps the latest one due until the next (a missed morning is caught up)', () => {
    const expiry = new Date('2027-03-10T00:00:00Z');
    const on = (date: string) => dueThreshold(expiry, new Date(`${date}T08:00:00Z`), ACCRA);
    expect(on('2027-02-07')).toBeUndefined(); // 31 days ahead
    expect(on('2027-02-08')).toBe(30);
    expect(on('2027-02-20')).toBe(30);
    expect(on('2027-03-03')).toBe(7);
    expect(on('2027-03-05')).toBe(7);
    expect(on('2027-03-09')).toBe(1);
    expect(on('2027-03-10')).toBe(0);
    expect(on('2027-03-11')).toBeUndefined(); // lapsed yesterday: nothing more to remind of
  });

  it('keeps quiet from 20:00 until 07:00 on the zone clock, wrapping midnight', () => {
    const at = (time: string) => inQuietHours(new Date(`2027-03-10T${time}Z`), ACCRA);
    expect(at('19:59:59')).toBe(false);
    expect(at('20:00:00')).toBe(true);
    expect(at('23:30:00')).toBe(true);
    expect(at('03:00:00')).toBe(true);
    expect(at('06:59:59')).toBe(true);
    expect(at('07:00:00')).toBe(false);
    expect(at('12:00:00')).toBe(false);
    // Read on the zone's clock, not UTC's: 20:00 UTC is 21:00 in Lagos (UTC+1), quiet; 19:30 UTC is 20:30 there.
    const lagos = { ...ACCRA, timeZone: 'Africa/Lagos' };
    expect(inQuietHours(new Date('2027-03-10T19:30:00Z'), lagos)).toBe(true);
    expect(inQuietHours(new Date('2027-03-10T06:30:00Z'), lagos)).toBe(false);
  });

  it('says when the quiet hours end: at once outside them, else the morning hour that ends them', () => {
    const end = (iso: string, policy = ACCRA) => quietHoursEnd(new Date(iso), policy).toISOString();
    expect(end('2027-03-10T12:34:56.000Z')).toBe('2027-03-10T12:34:56.000Z');
    expect(end('2027-03-10T20:00:00.000Z')).toBe('2027-03-11T07:00:00.000Z');
    expect(end('2027-03-11T06:59:59.000Z')).toBe('2027-03-11T07:00:00.000Z');
    // On the zone's clock: 07:00 in Kathmandu (UTC+5:45) is 01:15 UTC.
    expect(end('2027-03-10T20:00:00.000Z', { ...ACCRA, timeZone: 'Asia/Kathmandu' })).toBe('2027-03-11T01:15:00.000Z');
  });

  it('handles quiet hours within one day, and none at all when both ends are equal', () => {
    const day = { ...ACCRA, quietHours: { fromHour: 1, untilHour: 5 } };
    expect(inQuietHours(new Date('2027-03-10T00:59:00Z'), day)).toBe(false);
    expect(inQuietHours(new Date('2027-03-10T01:00:00Z'), day)).toBe(true);
    expect(inQuietHours(new Date('2027-03-10T05:00:00Z'), day)).toBe(false);
    const none = { ...ACCRA, quietHours: { fromHour: 0, untilHour: 0 } };
    expect(inQuietHours(new Date('2027-03-10T03:00:00Z'), none)).toBe(false);
  });

  it('never names an earlier threshold after a later one, and every due expiry lies in the due window', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('2026-01-01'), max: new Date('2030-01-01'), noInvalidDate: true }),
        fc.integer({ min: -5 * 86_400, max: 40 * 86_400 }),
        fc.integer({ min: 1, max: 3 * 86_400 }),
        (at, ahead, later) => {
          const expiry = new Date(at.getTime() + ahead * 1000);
          const first = dueThreshold(expiry, at, ACCRA);
          const next = dueThreshold(expiry, new Date(at.getTime() + later * 1000), ACCRA);
          if (first !== undefined && next !== undefined) expect(next).toBeLessThanOrEqual(first);
          if (first !== undefined) {
            const window = dueWindow(at, ACCRA);
            expect(expiry >= window.from && expiry <= window.to).toBe(true);
          }
        },
      ),
    );
  });

  it('names one reminder per record, document, expiry and threshold (a renewed expiry is another reminder)', () => {
    const doc = { entity: 'vehicle', entityId: 'v1', document: 'insurance', expiry: new Date('2027-01-31T00:00:00Z') };
    expect(reminderKey(doc, 7)).toBe('vehicle:v1:insurance:2027-01-31T00:00:00.000Z:7');
    expect(
      new Set([reminderKey(doc, 7), reminderKey(doc, 1), reminderKey({ ...doc, expiry: new Date('2028-01-31') }, 7)])
        .size,
    ).toBe(3);
  });

  it('says which document of which vehicle lapses, and when', () => {
    const at = new Date('2027-03-03T08:00:00Z');
    expect(
      reminderText(
        { document: 'roadworthy', expiry: new Date('2027-03-10T00:00:00Z'), subject: 'GR 1234-20' },
        at,
        'Africa/Accra',
      ),
    ).toMatch(/^The roadworthy certificate of GR 1234-20 expires in 7 days, on 2027-03-10\./);
    expect(reminderText({ document: 'licence', expiry: new Date('2027-03-04T10:00:00Z') }, at, 'Africa/Accra')).toMatch(
      /^Your driving licence expires tomorrow\./,
    );
    expect(
      reminderText({ document: 'insurance', expiry: new Date('2027-03-03T23:00:00Z') }, at, 'Africa/Accra'),
    ).toMatch(/expires today/);
  });
});
