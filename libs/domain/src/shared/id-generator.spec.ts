import { FixedClock, SeededRandomSource } from '../testing/fakes';
import { DomainError } from './domain-error';
import { assertObjectId, isObjectId, OBJECT_ID_PATTERN, ObjectIdGenerator, objectIdTime } from './id-generator';

describe('ObjectIdGenerator', () => {
  it('makes 24-character lowercase hex ids that encode the creation second', () => {
    const clock = new FixedClock('2026-11-22T08:00:00.750Z');
    const id = new ObjectIdGenerator(clock, new SeededRandomSource(1)).next();
    expect(id).toMatch(/^[0-9a-f]{24}$/);
    expect(objectIdTime(id).toISOString()).toBe('2026-11-22T08:00:00.000Z');
  });

  it('gives distinct ids within one second', () => {
    const ids = new ObjectIdGenerator(new FixedClock('2026-01-01T00:00:00Z'), new SeededRandomSource(2));
    const made = Array.from({ length: 1000 }, () => ids.next());
    expect(new Set(made).size).toBe(1000);
  });

  it('orders ids from later seconds after earlier ones', () => {
    const clock = new FixedClock('2026-01-01T00:00:00Z');
    const ids = new ObjectIdGenerator(clock, new SeededRandomSource(3));
    const first = ids.next();
    clock.advance(1000);
    expect(ids.next() > first).toBe(true);
  });

  it('draws the 8 bytes after the timestamp afresh for each id, so one id does not lead to the next', () => {
    const drawn: number[] = [];
    const random = {
      bytes: (n: number) => {
        drawn.push(n);
        return Uint8Array.from({ length: n }, (_, i) => (drawn.length * 16 + i) & 0xff);
      },
    };
    const ids = new ObjectIdGenerator(new FixedClock('2026-01-01T00:00:00Z'), random);
    const [a, b] = [ids.next(), ids.next()];
    expect(drawn).toEqual([8, 8]);
    expect(a.slice(8)).toBe('1011121314151617');
    expect(b.slice(8)).toBe('2021222324252627');
    expect(a.slice(0, 8)).toBe(b.slice(0, 8));
  });
});

describe('object id checks', () => {
  it('accepts 24 lowercase hex characters only', () => {
    expect(isObjectId('65a1b2c3d4e5f60718293a4b')).toBe(true);
    expect(isObjectId('65A1B2C3D4E5F60718293A4B')).toBe(false);
    expect(isObjectId('65a1b2c3d4e5f60718293a4')).toBe(false);
    expect(isObjectId(42)).toBe(false);
  });

  it('states the pattern once, for the validators and the OpenAPI document of the apps', () => {
    expect(OBJECT_ID_PATTERN.source).toBe('^[0-9a-f]{24}$');
    expect(['65a1b2c3d4e5f60718293a4b', '65A1B2C3D4E5F60718293A4B'].map((id) => OBJECT_ID_PATTERN.test(id))).toEqual([
      true,
      false,
    ]);
  });

  it('throws a validation DomainError naming the field', () => {
    expect(() => assertObjectId('nope', 'ownerID')).toThrow(DomainError);
    try {
      assertObjectId('nope', 'ownerID');
    } catch (error) {
      expect(error).toMatchObject({ code: 'INVALID_ID', kind: 'validation', field: 'ownerID' });
    }
    expect(assertObjectId('65a1b2c3d4e5f60718293a4b', 'ownerID')).toBe('65a1b2c3d4e5f60718293a4b');
  });
});
