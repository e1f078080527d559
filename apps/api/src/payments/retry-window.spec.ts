import { retriesFor } from './retry-window';

/** The smallest delay pg-boss can pick before retry c (from 0): min(max, first * 2^c) (its jitter only adds). */
const covered = (retries: number, first: number, max: number) =>
  Array.from({ length: retries }, (_, c) => Math.min(max, first * 2 ** c)).reduce((a, b) => a + b, 0);

describe('retriesFor', () => {
  it.each([
    [24, 30, 3600],
    [24, 1, 2],
    [72, 60, 3600],
    [1, 3600, 3600],
  ])(
    'covers at least %i h with delays from %i s capped at %i s, and no retry more than needed',
    (hours, first, max) => {
      const retries = retriesFor(hours, first, max);
      expect(covered(retries, first, max)).toBeGreaterThanOrEqual(hours * 3600);
      expect(covered(retries - 1, first, max)).toBeLessThan(hours * 3600);
    },
  );

  it('gives the default notification policy (30 s doubling to 1 h, 24 h) 30 retries: 30 s to 32 min in 7 steps, then 23 hourly', () => {
    expect(retriesFor(24, 30, 3600)).toBe(30);
  });
});
