import { RateLimiter } from './rate-limiter';

describe('RateLimiter', () => {
  it('allows the limit within a window, refuses past it with a retry time, and starts again in the next window', () => {
    let now = 1_000_000;
    const limiter = new RateLimiter(3, 60_000, () => now);
    limiter.hit('a');
    limiter.hit('a');
    limiter.hit('a');
    limiter.hit('b');
    let refused: { getStatus(): number; getResponse(): { retryAfter: number } } | undefined;
    try {
      limiter.hit('a');
    } catch (e) {
      refused = e as never;
    }
    expect(refused?.getStatus()).toBe(429);
    expect(refused?.getResponse().retryAfter).toBe(60);
    now += 60_000;
    expect(() => limiter.hit('a')).not.toThrow();
  });
});
