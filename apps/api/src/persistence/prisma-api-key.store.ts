import { timingSafeEqual } from 'node:crypto';
import type { PrismaClient } from '../generated/prisma/client';
import { hashApiKey } from '../core/platform/secrets';
import { ROLES, type Principal, type Role } from '../core/auth/principal';
import type { ReadDb } from './read-db';

/** A key's last use is written at most this often (a write per request would cost more than the request). */
export const LAST_USE_EVERY_MS = 3_600_000;

/**
 * Finds the principal of a presented key. Only SHA-256 hashes are stored; the lookup is by hash (an index), and the
 * found hash is compared again in constant time so timing says nothing about how much of a key matched. Revoked and
 * expired keys authenticate nobody. The key's last use is recorded to the hour. An assembly key carries its user's
 * assembly as it is now (a user moved to another assembly works there at once; a removed user's keys stop working).
 * One indexed query per request (the key joined to its assembly user), through Kysely: this runs on every call.
 */
export class ApiKeyStore {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly reads: ReadDb,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async authenticate(presented: string): Promise<Principal | undefined> {
    if (presented.length < 20 || presented.length > 200) return undefined;
    const hash = hashApiKey(presented);
    const row = await this.reads
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
      ])
      .where('api_keys.keyHash', '=', hash)
      .executeTakeFirst();
    if (!row || row.revokedAt !== null) return undefined;
    if (!timingSafeEqual(Buffer.from(row.keyHash, 'hex'), Buffer.from(hash, 'hex'))) return undefined;
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
      if (row.assemblyId === null) return undefined;
      principal.assemblyId = row.assemblyId;
    }
    return principal;
  }
}
