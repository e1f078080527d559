import { AppError } from '../errors';

/**
 * A fixed-window counter per key, in memory. It guards the activation endpoint on top of the domain's five-try lock
 * (which is what actually stops guessing, across instances and restarts); this layer only slows a caller down.
 */
export class RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly now: () => number = () => Date.now(),
  ) {}

  /** Counts one attempt; throws 429 (with Retry-After) past the limit. */
  hit(key: string): void {
    const t = this.now();
    if (this.windows.size > 10_000) this.sweep(t);
    const w = this.windows.get(key);
    if (!w || t - w.start >= this.windowMs) {
      this.windows.set(key, { start: t, count: 1 });
      return;
    }
    w.count += 1;
    if (w.count > this.limit) {
      const retryAfter = Math.ceil((w.start + this.windowMs - t) / 1000);
      throw new AppError('RATE_LIMITED', `Too many attempts; try again in ${retryAfter} s`, { retryAfter });
    }
  }

  private sweep(t: number): void {
    for (const [key, w] of this.windows) if (t - w.start >= this.windowMs) this.windows.delete(key);
  }
}
