import type pg from 'pg';
import { RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import { AppError } from '../core/errors';
import type { RateLimitRule, RateLimits } from '../core/ports';

/** The most points one instance takes from the shared counter at once. */
const MAX_BLOCK = 100;
/** Beyond this many keys with points in hand, finished windows are forgotten (and, if that is not enough, all). */
const MAX_LEASES = 10_000;

/**
 * How many points an instance takes from the shared counter at a time under a limit of `points`: 1% of the limit, at
 * most 100. Under 200 points a minute that is 1, and every use is counted in the shared store one by one (exact).
 */
export const blockOf = (points: number): number => Math.max(1, Math.min(MAX_BLOCK, Math.floor(points / 100)));

/** Points of one key this instance took from the shared counter and has not used yet, for the current window. */
interface Lease {
  left: number;
  /** When the window ends (ms since the epoch): the points left are worth nothing after. */
  resetAt: number;
  /** The shared counter as last read: a block is taken only well below the limit. */
  counted: number;
  /** The reservation in flight, which concurrent uses wait for instead of each writing their own. */
  reserving?: Promise<void>;
}

/**
 * Rate limits kept in PostgreSQL by rate-limiter-flexible (its Postgres store, on the service's own pool, in the
 * unlogged `rate_limits` table the migrations create), so every instance counts against the same limit. Expired
 * counters are cleared by the library hourly.
 *
 * Large limits (the global request limits) are taken in blocks: an instance adds 1% of the limit (at most 100 points)
 * to the shared counter at once and spends them on its next requests, so the counter is written once per block, not
 * once per request (it was the largest single cost of a cheap read, measured with `npm run bench`). A block is
 * taken only while the counter is at least two blocks below the limit; nearer to it, every use is counted one by one.
 * So the limit is never exceeded; each instance may refuse early by at most the one block it holds unspent. Limits
 * under 200 points (sign-in, activation, payments) are always counted one by one. rate-limiter-flexible has no such
 * mode; this keeps its store and its atomic increments and only decides how many points to add at once.
 */
export class PostgresRateLimits implements RateLimits {
  private readonly limiters = new Map<string, RateLimiterPostgres>();
  private readonly leases = new Map<string, Lease>();

  constructor(
    private readonly pool: pg.Pool,
    private readonly rules: Readonly<Record<string, RateLimitRule>>,
    private readonly now: () => number = Date.now,
  ) {}

  async consume(name: string, key: string): Promise<void> {
    const rule = this.rule(name);
    const block = blockOf(rule.points);
    if (block < 2) return this.take(name, key, 1);
    const id = `${name}\u0000${key}`;
    for (;;) {
      let lease = this.leases.get(id);
      if (lease && lease.resetAt <= this.now() && !lease.reserving) {
        this.leases.delete(id);
        lease = undefined;
      }
      if (lease && lease.left > 0) {
        lease.left--;
        return;
      }
      if (lease?.reserving) {
        await lease.reserving.catch(() => undefined);
        continue;
      }
      lease ??= this.newLease(id);
      const points = lease.counted + 2 * block <= rule.points ? block : 1;
      const reserved = lease;
      reserved.reserving = this.take(name, key, points, reserved).then(
        () => {
          reserved.left += points;
        },
        (error: unknown) => {
          reserved.reserving = undefined;
          throw error;
        },
      );
      await reserved.reserving;
      reserved.reserving = undefined;
    }
  }

  async assertAvailable(name: string, key: string): Promise<void> {
    const used = await this.limiter(name).get(key);
    if (used && used.consumedPoints >= this.rule(name).points) throw this.refusal(name, used);
  }

  async reset(name: string, key: string): Promise<void> {
    this.leases.delete(`${name}\u0000${key}`);
    await this.limiter(name).delete(key);
  }

  /** Adds `points` to the shared counter; past the limit, RATE_LIMITED. What the counter says is kept in `lease`. */
  private async take(name: string, key: string, points: number, lease?: Lease): Promise<void> {
    const started = this.now();
    let res: RateLimiterRes;
    try {
      res = await this.limiter(name).consume(key, points);
    } catch (refusal) {
      if (!(refusal instanceof RateLimiterRes)) throw refusal;
      if (lease) Object.assign(lease, { counted: refusal.consumedPoints, resetAt: started + refusal.msBeforeNext });
      throw this.refusal(name, refusal);
    }
    if (lease) Object.assign(lease, { counted: res.consumedPoints, resetAt: started + res.msBeforeNext });
  }

  private newLease(id: string): Lease {
    if (this.leases.size >= MAX_LEASES) {
      const now = this.now();
      for (const [k, l] of this.leases) if (l.resetAt <= now && !l.reserving) this.leases.delete(k);
      if (this.leases.size >= MAX_LEASES) this.leases.clear();
    }
    const lease: Lease = { left: 0, resetAt: Number.POSITIVE_INFINITY, counted: 0 };
    this.leases.set(id, lease);
    return lease;
  }

  private refusal(name: string, res: RateLimiterRes): AppError {
    const retryAfter = Math.max(1, Math.ceil(res.msBeforeNext / 1000));
    return new AppError('RATE_LIMITED', `${this.rule(name).message}; try again in ${retryAfter} s`, { retryAfter });
  }

  private rule(name: string): RateLimitRule {
    const rule = this.rules[name];
    if (!rule) throw new Error(`no rate limit named ${name}`);
    return rule;
  }

  private limiter(name: string): RateLimiterPostgres {
    let limiter = this.limiters.get(name);
    if (!limiter) {
      const rule = this.rule(name);
      limiter = new RateLimiterPostgres({
        storeClient: this.pool,
        storeType: 'pool',
        tableName: 'rate_limits',
        tableCreated: true,
        keyPrefix: name,
        points: rule.points,
        duration: rule.seconds,
      });
      this.limiters.set(name, limiter);
    }
    return limiter;
  }
}
