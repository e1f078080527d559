import { LRUCache } from 'lru-cache';
import type { PrismaClient } from '../generated/prisma/client';
import { hashApiKey, sameBytes } from '../core/platform/secrets';
import { ROLES, type Principal, type Role } from '../core/auth/principal';
import type { KeyChangeListener } from './key-changes';
import { sqlOn } from './prisma-executor';

/** A key's last use is written at most this often (a write per request would cost more than the request). */
export const LAST_USE_EVERY_MS = 3_600_000;

/** How long a key is kept where change notices cannot be heard at all (a pooler in transaction mode, no direct URL). */
export const UNHEARD_CACHE_MS = 1000;

/**
 * Finds the principal of a presented key. Only SHA-256 hashes are stored; the lookup is by hash (an index), and the
 * found hash is compared again in constant time so timing says nothing about how much of a key matched. Revoked and
 * expired keys authenticate nobody. The key's last use is recorded to the hour. An assembly key carries its user's
 * assembly as it is now (a user moved to another assembly works there at once; a removed or disabled user's keys stop working).
 * One indexed query (the key joined to its assembly user), through Kysely on the same client (`sqlOn`).
 *
 * A key found is kept for `cacheMs` (API_KEY_CACHE_SECONDS; never past its expiry; at most 10,000 keys, the least
 * recently used dropped first), so a client calling many times a second costs one lookup per interval, not one per
 * call. Kept only while `changes` is listening: every change to who a key authenticates (revoked, expired, re-scoped,
 * its assembly user moved, disabled or removed) notifies every instance, which then forgets every key it kept, so a revocation
 * still takes effect as soon as PostgreSQL delivers the notice (milliseconds), whoever made it. Unknown and revoked
 * keys are never kept: each attempt is looked up (and counted against the per-address limit).
 *
 * Where notices cannot be heard at all (`changes.unheard`: a pooler in transaction mode and no DATABASE_DIRECT_URL),
 * a key is kept for at most UNHEARD_CACHE_MS, so a revocation anywhere takes effect within a second; while the
 * listener is only reconnecting, every request reads its key.
 */
export class ApiKeyStore {
  private readonly known?: LRUCache<string, Principal>;
  private readonly briefly?: LRUCache<string, Principal>;

  constructor(
    private readonly prisma: PrismaClient,
    private readonly now: () => Date = () => new Date(),
    cacheMs = 0,
    private readonly changes?: KeyChangeListener,
  ) {
    if (cacheMs > 0 && changes) {
      const cache = (ttl: number) =>
        new LRUCache<string, Principal>({
          max: 10_000,
          ttl,
          ttlAutopurge: false,
          ttlResolution: 0,
          perf: { now: () => this.now().getTime() },
        });
      const known = cache(cacheMs);
      changes.onChange(() => known.clear());
      this.known = known;
      this.briefly = cache(Math.min(cacheMs, UNHEARD_CACHE_MS));
    }
  }

  /** Forgets every key kept (a key was revoked here: no need to wait for the notice). */
  forgetAll(): void {
    this.known?.clear();
    this.briefly?.clear();
  }

  /** Whether keys found are kept now (a cache is configured, and notices are heard or cannot be at all). */
  get keeping(): boolean {
    return this.cache !== undefined;
  }

  /** The cache while change notices are heard; the brief one where they cannot be; none while reconnecting. */
  private get cache(): LRUCache<string, Principal> | undefined {
    if (this.changes?.listening) return this.known;
    return this.changes?.unheard ? this.briefly : undefined;
  }

  async authenticate(presented: string): Promise<Principal | undefined> {
    if (presented.length < 20 || presented.length > 200) return undefined;
    const hash = hashApiKey(presented);
    const cache = this.cache;
    const cached = cache?.get(hash);
    // A copy: what a request does with its principal stays with that request.
    if (cached) return { ...cached };
    const found = await this.lookUp(hash);
    if (found && cache) {
      const { principal, expiresAt } = found;
      const left = expiresAt === null ? undefined : expiresAt.getTime() - this.now().getTime();
      cache.set(hash, { ...principal }, left === undefined ? undefined : { ttl: Math.min(cache.ttl, left) });
    }
    return found?.principal;
  }

  private async lookUp(hash: string): Promise<{ principal: Principal; expiresAt: Date | null } | undefined> {
    const row = await sqlOn(this.prisma)
      .selectFrom('api_keys')
      .leftJoin('assembly_users', 'assembly_users.id', 'api_keys.principalId')
      .select([
        'api_keys.id',
        'api_keys.keyHash',
        'api_keys.role',
        'api_keys.principalId',
        'api_keys.revokedAt',
        'api_keys.expiresAt',
        'api_keys.lastUsedAt',
        'assembly_users.assemblyId',
        'assembly_users.disabledAt',
        'assembly_users.awaitingConfirmation',
      ])
      .where('api_keys.keyHash', '=', hash)
      .executeTakeFirst();
    if (!row || row.revokedAt !== null) return undefined;
    if (!sameBytes(Buffer.from(row.keyHash, 'hex'), Buffer.from(hash, 'hex'))) return undefined;
    if (!(ROLES as readonly string[]).includes(row.role)) return undefined;
    const now = this.now();
    if (row.expiresAt !== null && row.expiresAt <= now) return undefined;
    if (row.lastUsedAt === null || now.getTime() - row.lastUsedAt.getTime() >= LAST_USE_EVERY_MS) {
      // Conditional, so concurrent first uses in the hour write once; a failure here never fails the request.
      await this.prisma.apiKey
        .updateMany({
          where: {
            id: row.id,
            OR: [{ lastUsedAt: null }, { lastUsedAt: { lt: new Date(now.getTime() - LAST_USE_EVERY_MS) } }],
          },
          data: { lastUsedAt: now },
        })
        .catch(() => undefined);
    }
    const principal: Principal = { keyId: row.id, role: row.role as Role, principalId: row.principalId };
    if (principal.role === 'assembly') {
      // A removed or disabled (off-boarded) user's keys authenticate nobody, nor those of one awaiting confirmation.
      if (row.assemblyId === null || row.disabledAt !== null || row.awaitingConfirmation === true) return undefined;
      principal.assemblyId = row.assemblyId;
    }
    return { principal, expiresAt: row.expiresAt };
  }
}
