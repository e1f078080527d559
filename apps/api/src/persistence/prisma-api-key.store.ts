import { timingSafeEqual } from 'node:crypto';
import type { PrismaClient } from '../generated/prisma/client';
import { hashApiKey } from '../core/platform/secrets';
import { ROLES, type Principal, type Role } from '../core/auth/principal';

/**
 * Finds the principal of a presented key. Only SHA-256 hashes are stored; the lookup is by hash (an index), and the
 * found hash is compared again in constant time so timing says nothing about how much of a key matched.
 */
export class ApiKeyStore {
  constructor(private readonly prisma: PrismaClient) {}

  async authenticate(presented: string): Promise<Principal | undefined> {
    if (presented.length < 20 || presented.length > 200) return undefined;
    const hash = hashApiKey(presented);
    const row = await this.prisma.apiKey.findUnique({ where: { keyHash: hash } });
    if (!row || row.revokedAt !== null) return undefined;
    if (!timingSafeEqual(Buffer.from(row.keyHash, 'hex'), Buffer.from(hash, 'hex'))) return undefined;
    if (!(ROLES as readonly string[]).includes(row.role)) return undefined;
    return { keyId: row.id, role: row.role as Role, principalId: row.principalId };
  }
}
