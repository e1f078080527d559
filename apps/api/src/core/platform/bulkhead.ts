import { AppError } from '../errors';

/** At most `perSecond` calls admitted a second, in bursts of up to one second's worth (a token bucket). */
export interface BulkheadRate {
  perSecond: number;
  /** Milliseconds (tests pass a fake clock). */
  now?: () => number;
}

/**
 * At most `limit` calls in flight, `queue` more waiting their turn (first come, first served), optionally at most
 * `rate.perSecond` admitted a second, and past that an immediate 429 with Retry-After: a flood of one kind of work
 * (anonymous registrations, each a write transaction) cannot take every database connection, nor more than its share
 * of the event loop, from everyone else, while a burst of real users waits a moment instead of failing. Per instance:
 * what it protects (the pool, the event loop) is per instance.
 *
 * Hand-written (a counter, a queue of resolvers and a token count): the libraries that bound concurrency (p-limit,
 * async-sema) queue without a bound, and shedding is the point here; `saturated` must be answerable without admitting
 * anything, so that a request can be refused at the door before its body is read (registration-shedding.ts).
 */
export class Bulkhead {
  private inFlight = 0;
  private readonly waiting: (() => void)[] = [];
  private tokens: number;
  private refilledAt: number;

  constructor(
    private readonly limit: number,
    private readonly queue: number,
    private readonly refusal: string,
    private readonly rate?: BulkheadRate,
  ) {
    this.tokens = rate ? rate.perSecond : Infinity;
    this.refilledAt = this.now();
  }

  private now(): number {
    return this.rate?.now ? this.rate.now() : Date.now();
  }

  /** Tokens earned since the last look, up to one second's worth. */
  private refill(): void {
    if (!this.rate) return;
    const now = this.now();
    this.tokens = Math.min(this.rate.perSecond, this.tokens + ((now - this.refilledAt) / 1000) * this.rate.perSecond);
    this.refilledAt = now;
  }

  /** Why a call is refused when the bulkhead is saturated (the problem's detail). */
  get refusalDetail(): string {
    return this.refusal;
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.saturated) throw new AppError('RATE_LIMITED', this.refusal, { retryAfter: 1 });
    this.tokens -= 1;
    if (this.inFlight >= this.limit) {
      // The slot is handed over by the call that ends, so inFlight never drops below the limit while others wait.
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.inFlight += 1;
    }
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.inFlight -= 1;
    }
  }

  /** True when a call now would be refused: every slot taken and the queue full. */
  get saturated(): boolean {
    if (this.inFlight >= this.limit && this.waiting.length >= this.queue) return true;
    this.refill();
    return this.tokens < 1;
  }

  /** Calls in flight and waiting (for tests and metrics). */
  get load(): { inFlight: number; waiting: number } {
    return { inFlight: this.inFlight, waiting: this.waiting.length };
  }
}
