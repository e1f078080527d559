import { AppError } from '../errors';
import { Bulkhead } from './bulkhead';

/** A call that ends when told to. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

describe('Bulkhead', () => {
  it('runs at most `limit` calls at once, queues `queue` more in order, and refuses the rest with a 429', async () => {
    const bulkhead = new Bulkhead(2, 1, 'busy');
    const gates = [gate(), gate(), gate()];
    const started: number[] = [];
    const calls = gates.map((g, i) =>
      bulkhead.run(async () => {
        started.push(i);
        await g.promise;
        return i;
      }),
    );
    await Promise.resolve();
    expect(started).toEqual([0, 1]);
    expect(bulkhead.load).toEqual({ inFlight: 2, waiting: 1 });
    expect(bulkhead.saturated).toBe(true);

    const refused = await bulkhead.run(async () => 'never').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ code: 'RATE_LIMITED', status: 429, detail: 'busy', extra: { retryAfter: 1 } });

    gates[0].open();
    expect(await calls[0]).toBe(0);
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual([0, 1, 2]);
    expect(bulkhead.load).toEqual({ inFlight: 2, waiting: 0 });
    expect(bulkhead.saturated).toBe(false);
    gates[1].open();
    gates[2].open();
    expect(await Promise.all(calls)).toEqual([0, 1, 2]);
    expect(bulkhead.load).toEqual({ inFlight: 0, waiting: 0 });
  });

  it('frees the slot of a call that fails', async () => {
    const bulkhead = new Bulkhead(1, 0, 'busy');
    await expect(bulkhead.run(async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(bulkhead.load).toEqual({ inFlight: 0, waiting: 0 });
    expect(await bulkhead.run(async () => 'ok')).toBe('ok');
  });

  it('admits at most `perSecond` calls a second, in bursts of one second, and says so before admitting anything', async () => {
    let now = 0;
    const bulkhead = new Bulkhead(10, 10, 'busy', { perSecond: 2, now: () => now });
    const quick = () => bulkhead.run(async () => 'done');
    expect(await quick()).toBe('done');
    expect(await quick()).toBe('done');
    expect(bulkhead.saturated).toBe(true);
    await expect(quick()).rejects.toMatchObject({ code: 'RATE_LIMITED', extra: { retryAfter: 1 } });
    now = 499;
    expect(bulkhead.saturated).toBe(true);
    now = 500;
    expect(bulkhead.saturated).toBe(false);
    expect(await quick()).toBe('done');
    // A quiet minute earns one second's worth, no more.
    now = 60_500;
    expect(await quick()).toBe('done');
    expect(await quick()).toBe('done');
    await expect(quick()).rejects.toMatchObject({ code: 'RATE_LIMITED' });
  });
});
