import { openDatabase, type Database } from '../src/persistence/database';
import { blockOf, PostgresRateLimits } from '../src/persistence/postgres-rate-limits';
import { describeOnPostgres } from './support/postgres-only';
import { openTierStore, type TierStore } from './support/test-app';

/** The shared counters as two instances of the service see them: two limiters on one database. */
describeOnPostgres('shared rate limits taken in blocks', () => {
  let store: TierStore;
  let database: Database;
  const rules = {
    big: { points: 1000, seconds: 60, message: 'Too many big' },
    small: { points: 200, seconds: 60, message: 'Too many small' },
    short: { points: 500, seconds: 1, message: 'Too many short' },
    exact: { points: 150, seconds: 60, message: 'Too many exact' },
  };
  const limits = () => new PostgresRateLimits(database.pool, rules);
  const counted = async (name: string, key: string): Promise<number> => {
    const { rows } = await database.pool.query<{ points: number }>('SELECT points FROM rate_limits WHERE key = $1', [
      `${name}:${key}`,
    ]);
    return rows[0]?.points ?? 0;
  };
  /** Uses until the first refusal: how many were allowed. */
  const allowed = async (uses: () => Promise<void>, most: number): Promise<number> => {
    for (let n = 0; n < most; n++) {
      try {
        await uses();
      } catch (error) {
        expect(error).toMatchObject({ code: 'RATE_LIMITED' });
        return n;
      }
    }
    return most;
  };

  beforeAll(async () => {
    store = await openTierStore('postgresql');
    database = await openDatabase(store.config());
  });
  afterAll(async () => {
    await database?.close();
    await store?.dispose();
  });

  it('takes 1% of a large limit at a time, at most 100 points, and counts small limits one by one', () => {
    expect([blockOf(10_000_000), blockOf(3000), blockOf(1000), blockOf(600), blockOf(199), blockOf(5)]).toEqual([
      100, 30, 10, 6, 1, 1,
    ]);
  });

  it('writes the shared counter once per block, not once per use', async () => {
    const one = limits();
    for (let n = 0; n < 25; n++) await one.consume('big', 'key-a');
    expect(await counted('big', 'key-a')).toBe(30);
    // Concurrent uses wait for the one reservation in flight instead of each taking a block.
    await Promise.all(Array.from({ length: 50 }, () => one.consume('big', 'key-b')));
    expect(await counted('big', 'key-b')).toBe(50);
  });

  it('never lets two instances together past the limit, and refuses early by at most one block each', async () => {
    const [first, second] = [limits(), limits()];
    let turn = 0;
    const both = () => (turn++ % 2 ? first : second).consume('small', 'shared');
    const served = await allowed(both, 400);
    expect(served).toBeLessThanOrEqual(200);
    expect(served).toBeGreaterThanOrEqual(200 - 2 * blockOf(200));
    expect(await counted('small', 'shared')).toBeGreaterThanOrEqual(200);
    // Refused from then on, on both, with the seconds to wait.
    await expect(first.consume('small', 'shared')).rejects.toMatchObject({
      code: 'RATE_LIMITED',
      detail: expect.stringContaining('Too many small; try again in'),
    });
    await expect(second.consume('small', 'shared')).rejects.toMatchObject({ code: 'RATE_LIMITED' });
  });

  it('counts every use exactly under 200 points: what one instance holds never hides another’s uses', async () => {
    const [first, second] = [limits(), limits()];
    let turn = 0;
    expect(await allowed(() => (turn++ % 2 ? first : second).consume('exact', 'k'), 300)).toBe(150);
    expect(await counted('exact', 'k')).toBe(151);
  });

  it('forgets unspent points when the window ends, and starts the next window afresh', async () => {
    const one = limits();
    await one.consume('short', 'w');
    expect(await counted('short', 'w')).toBe(blockOf(500));
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await one.consume('short', 'w');
    expect(await counted('short', 'w')).toBe(blockOf(500));
  });

  it('drops what it holds for a key on reset', async () => {
    const one = limits();
    await one.consume('big', 'reset-me');
    await one.reset('big', 'reset-me');
    expect(await counted('big', 'reset-me')).toBe(0);
    await one.consume('big', 'reset-me');
    expect(await counted('big', 'reset-me')).toBe(10);
  });
});
