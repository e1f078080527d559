import type pg from 'pg';
import { RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import { AppError } from '../core/errors';
import type { RateLimitRule, RateLimits } from '../core/ports';

/**
 * Rate limits kept in PostgreSQL by rate-limiter-flexible (its Postgres store, on the service's own pool, in the
 * `rate_limits` table the migrations create), so every instance counts against the same limit. Expired counters are
 * cleared by the library hourly.
 */
export class PostgresRateLimits implements RateLimits {
  private readonly limiters = new Map<string, RateLimiterPostgres>();

  constructor(
    private readonly pool: pg.Pool,
    private readonly rules: Readonly<Record<string, RateLimitRule>>,
  ) {}

  async consume(name: string, key: string): Promise<void> {
    try {
      await this.limiter(name).consume(key);
    } catch (refusal) {
      if (!(refusal instanceof RateLimiterRes)) throw refusal;
      throw this.refusal(name, refusal);
    }
  }

  async assertAvailable(name: string, key: string): Promise<void> {
    const used = await this.limiter(name).get(key);
    if (used && used.consumedPoints >= this.rules[name].points) throw this.refusal(name, used);
  }

  async reset(name: string, key: string): Promise<void> {
    await this.limiter(name).delete(key);
  }

  private refusal(name: string, res: RateLimiterRes): AppError {
    const retryAfter = Math.max(1, Math.ceil(res.msBeforeNext / 1000));
    return new AppError('RATE_LIMITED', `${this.rules[name].message}; try again in ${retryAfter} s`, { retryAfter });
  }

  private limiter(name: string): RateLimiterPostgres {
    let limiter = this.limiters.get(name);
    if (!limiter) {
      const rule = this.rules[name];
      if (!rule) throw new Error(`no rate limit named ${name}`);
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
