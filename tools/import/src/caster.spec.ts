import {
  canonicalCard,
  canonicalPlate,
  castRecord,
  CastTally,
  plainName,
  slashedDate,
  typedPhone,
  type Cast,
  type DateRead,
} from './caster';
import { parseJsonLine } from './json-line';
import { RecordRefused } from './records';

const cast = (doc: Record<string, unknown>, types: Parameters<typeof castRecord>[1], order: 'dmy' | 'mdy' = 'dmy') => {
  const dates: DateRead[] = [];
  const casts: Cast[] = [];
  const out = castRecord(
    doc,
    types,
    order,
    (d) => dates.push(d),
    (c) => casts.push(c),
  );
  return { out, dates, casts };
};

describe('reading values as the original’s Mongoose schema cast them', () => {
  it('reads a date written with slashes day first by default, month first when told', () => {
    expect(slashedDate('05/03/2027', 'dmy')).toEqual(new Date('2027-03-05T00:00:00Z'));
    expect(slashedDate('05/03/2027', 'mdy')).toEqual(new Date('2027-05-03T00:00:00Z'));
    expect(slashedDate('31.12.26', 'dmy')).toEqual(new Date('2026-12-31T00:00:00Z'));
    expect(slashedDate('5-3-2027 14:30', 'dmy')).toEqual(new Date('2027-03-05T14:30:00Z'));
    expect(slashedDate('2027-03-05', 'dmy')).toBeUndefined();
  });

  it('refuses a date impossible in the order given, saying what the other order reads', () => {
    expect(() => slashedDate('31/12/2026', 'mdy')).toThrow(RecordRefused);
    expect(() => slashedDate('31/12/2026', 'mdy')).toThrow('day first it would be 31 December 2026 (--date-order dmy)');
    expect(() => slashedDate('12/31/2026', 'dmy')).toThrow('month first it would be 31 December 2026');
    expect(() => slashedDate('31/31/2026', 'dmy')).toThrow(/is not a date day first$/);
  });

  it('casts numbers, booleans, years and "no value" spellings, telling each, and leaves the document read as it was', () => {
    const doc = {
      capacity: '14',
      approved: 'yes',
      online: 0,
      makeYear: 2015,
      registered: '2016',
      expiry: '05/03/2027',
      vin: '',
      netWeight: Number.NaN,
      owner: '',
      service: { amount: '25.50', ended: 'true' },
      name: '4',
    };
    const { out, dates, casts } = cast(doc, {
      capacity: 'number',
      approved: 'boolean',
      online: 'boolean',
      makeYear: 'date',
      registered: 'date',
      expiry: 'date',
      vin: 'text',
      netWeight: 'number',
      owner: 'id',
      'service.amount': 'number',
      'service.ended': 'boolean',
      missing: 'number',
    });
    expect(out).toEqual({
      capacity: 14,
      approved: true,
      online: false,
      makeYear: new Date('2015-01-01T00:00:00Z'),
      registered: new Date('2016-01-01T00:00:00Z'),
      expiry: new Date('2027-03-05T00:00:00Z'),
      owner: null,
      service: { amount: 25.5, ended: true },
      name: '4',
    });
    expect(doc.service).toEqual({ amount: '25.50', ended: 'true' });
    expect(dates).toEqual([{ field: 'expiry', read: '05/03/2027', stored: '2027-03-05T00:00:00.000Z' }]);
    expect(casts).toContainEqual({ field: 'netWeight', read: 'NaN', stored: 'absent' });
    expect(casts).toContainEqual({ field: 'makeYear', read: '2015', stored: '"2015-01-01T00:00:00.000Z"' });
    expect(casts).toHaveLength(10);
  });

  it('leaves what Mongoose would not cast for the mapping to refuse, and returns an untouched document as it is', () => {
    const doc = { capacity: 'four', approved: 'maybe', expiry: 'soon', id: 'x' };
    const { out, casts } = cast(doc, { capacity: 'number', approved: 'boolean', expiry: 'date', id: 'id' });
    expect(out).toBe(doc);
    expect(casts).toEqual([]);
  });

  it('tallies each distinct cast per field with a count and an example', () => {
    const tally = new CastTally();
    tally.add('vehicles', { field: 'capacity', read: '"4"', stored: '4' }, 'a');
    tally.add('vehicles', { field: 'capacity', read: '"4"', stored: '4' }, 'b');
    expect(tally.entries()).toEqual([
      { collection: 'vehicles', field: 'capacity', read: '"4"', stored: '4', records: 2, example: 'a' },
    ]);
    expect(tally.records.get('vehicles.capacity')).toBe(2);
  });

  it('reads the bare NaN and Infinity Python’s json_util writes, outside strings only', () => {
    expect(parseJsonLine('{"a":NaN,"b":"NaN, \\"Infinity\\"","c":[-Infinity]}')).toEqual({
      a: { $numberDouble: 'NaN' },
      b: 'NaN, "Infinity"',
      c: [{ $numberDouble: '-Infinity' }],
    });
    expect(() => parseJsonLine('{"a":NaN,}')).toThrow(SyntaxError);
    expect(() => parseJsonLine('{"a":nope}')).toThrow(SyntaxError);
  });
});

describe('the canonical forms of plates and Ghana Card numbers', () => {
  it('writes a plate as GR 1234-24 whatever separators people used, and leaves other shapes to the domain', () => {
    for (const spelled of ['GR 1234-24', 'GR-1234-24', 'gr1234 24', ' GR 1234 - 24 ', 'GR1234-24'])
      expect([spelled, canonicalPlate(spelled)]).toEqual([spelled, 'GR 1234-24']);
    expect(canonicalPlate('AS 77-K')).toBe('AS 77-K');
    expect(canonicalPlate('DIPLOMAT 1')).toBeUndefined();
  });

  it('writes a Ghana Card number as printed, GHA-123456789-0', () => {
    for (const spelled of ['GHA-123456789-0', 'gha 123456789 0', 'GHA1234567890'])
      expect([spelled, canonicalCard(spelled)]).toEqual([spelled, 'GHA-123456789-0']);
    expect(canonicalCard('GHA-100000000')).toBeUndefined();
  });
});

describe('names and phone numbers as people wrote them', () => {
  it('reads the phone forms people write, the first of two numbers, in the canonical form', () => {
    expect(typedPhone('+233 (0) 24 412 3456')).toBe('+233244123456');
    expect(typedPhone('00233244123456')).toBe('+233244123456');
    expect(typedPhone('244123456')).toBe('+233244123456');
    expect(typedPhone('0244123457 / 020 555 5555')).toBe('+233244123457');
    expect(typedPhone('0244123457 or 0205555555')).toBe('+233244123457');
    expect(typedPhone('12')).toBeUndefined();
  });

  it('writes quotes in a name as apostrophes and leaves out what the rule refuses', () => {
    expect(plainName('Kwame “Papa” Mensah 🙏')).toBe("Kwame 'Papa' Mensah");
    expect(plainName('🙏')).toBeUndefined();
  });

  it('leaves a phone or a name the rules take to the domain, so only refused ones are listed', () => {
    const { out, casts } = cast({ phone: '024 412 3456', name: 'Ama  Serwaa' }, { phone: 'phone', name: 'name' });
    expect(out).toEqual({ phone: '024 412 3456', name: 'Ama  Serwaa' });
    expect(casts).toEqual([]);
    expect(cast({ phone: '12', name: '🙏' }, { phone: 'phone', name: 'name' }).casts).toEqual([]);
  });
});
