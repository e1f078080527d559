import { AppError } from '../errors';

/**
 * At most `limit` calls in flight, `queue` more waiting their turn (first come, first served), and past that an
 * immediate 429 with Retry-After: a flood of one kind of work (anonymous registrations, each a write transaction)
 * cannot take every database connection and the event loop from everyone else, while a burst of real users waits a
 * moment instead of failing. Per instance: what it protects (the pool, the event loop) is per instance.
 *
 * Hand-written (a counter and a queue of resolvers): the libraries that bound concurrency (p-limit, async-sema) queue
 * without a bound, and shedding is the point here.
 */
export class Bulkhead {
  private inFlight = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly limit: number,
    private readonly queue: number,
    private readonly refusal: string,
  ) {}

  /** Why a call is refused when the bulkhead is saturated (the problem's detail). */
  get refusalDetail(): string {
    return this.refusal;
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.inFlight >= this.limit) {
      if (this.saturated) throw new AppError('RATE_LIMITED', this.refusal, { retryAfter: 1 });
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
    return this.inFlight >= this.limit && this.waiting.length >= this.queue;
  }

  /** Calls in flight and waiting (for tests and metrics). */
  get load(): { inFlight: number; waiting: number } {
    return { inFlight: this.inFlight, waiting: this.waiting.length };
  }
}
