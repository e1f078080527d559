import { assertObjectId, DomainError, type Clock, type IdGenerator } from '@transport/domain';
import { ROLES, type Role } from '../auth/principal';
import type { PrismaClient } from '../generated/prisma/client';
import { hashApiKey, newApiKey } from '../platform/secrets';

export interface IssuedKey {
  _id: string;
  key: string;
  role: Role;
  principal: string;
}

export interface KeySummary {
  _id: string;
  role: string;
  principal: string;
  label: string;
  revoked: boolean;
  createdAt: string;
}

/** Issues a new API key for a principal. The key is returned this once; only its hash is stored. */
export async function issueApiKey(prisma: PrismaClient, ids: IdGenerator, clock: Clock, role: string, principal: string, label = ''): Promise<IssuedKey> {
  if (!(ROLES as readonly string[]).includes(role)) throw new DomainError('INVALID_ROLE', `role must be one of ${ROLES.join(', ')}`, 'validation', 'role');
  assertObjectId(principal, 'principal');
  // Assembly and merchant keys act for a stored user or merchant (their data is scoped by it): it must exist.
  const exists =
    role === 'assembly' ? await prisma.assemblyUser.findUnique({ where: { id: principal }, select: { id: true } })
    : role === 'merchant' ? await prisma.merchant.findUnique({ where: { id: principal }, select: { id: true } })
    : true;
  if (!exists) throw new DomainError('PRINCIPAL_NOT_FOUND', `No ${role === 'assembly' ? 'assembly user' : 'merchant'} with id ${principal}`, 'rule', 'principal');
  const key = newApiKey(role);
  const now = clock.now();
  const id = ids.next();
  await prisma.apiKey.create({ data: { id, keyHash: hashApiKey(key), role, principalId: principal, label, createdAt: now, updatedAt: now } });
  return { _id: id, key, role: role as Role, principal };
}

/** Revokes a key at once (the next request with it gets 401). Revoking twice is harmless. */
export async function revokeApiKey(prisma: PrismaClient, clock: Clock, keyId: string): Promise<void> {
  assertObjectId(keyId, 'id');
  const row = await prisma.apiKey.findUnique({ where: { id: keyId } });
  if (!row) throw new DomainError('NOT_FOUND', `No API key with id ${keyId}`, 'not_found');
  if (row.revokedAt) return;
  await prisma.apiKey.update({ where: { id: keyId }, data: { revokedAt: clock.now(), updatedAt: clock.now(), version: { increment: 1 } } });
}

/** Every key, never the key itself. */
export async function listApiKeys(prisma: PrismaClient): Promise<KeySummary[]> {
  const rows = await prisma.apiKey.findMany({ orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] });
  return rows.map((r) => ({ _id: r.id, role: r.role, principal: r.principalId, label: r.label, revoked: r.revokedAt !== null, createdAt: r.createdAt.toISOString() }));
}
