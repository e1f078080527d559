import { FixedClock } from './fakes';

describe('FixedClock', () => {
  it('returns copies, so callers cannot move time by mutating the result', () => {
    const clock = new FixedClock('2026-01-01T00:00:00Z');
    clock.now().setFullYear(1999);
    expect(clock.now().toISOString()).toBe('2026-01-01T00:00:00.000Z');
  });

  it('moves only when set or advanced', () => {
    const clock = new FixedClock(new Date('2026-01-01T00:00:00Z'));
    clock.advance(90_000);
    expect(clock.now().toISOString()).toBe('2026-01-01T00:01:30.000Z');
    clock.set('2027-05-05T05:05:05Z');
    expect(clock.now().toISOString()).toBe('2027-05-05T05:05:05.000Z');
  });
});
