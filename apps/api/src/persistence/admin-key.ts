import { SYSTEM_ACTOR, type IdGenerator } from '@transport/domain';
import type { PrismaClient } from '../generated/prisma/client';
import { hashApiKey } from '../core/platform/secrets';
import { PrismaApiKeyRegistry } from './prisma-admin-stores';

export const MIN_ADMIN_KEY_LENGTH = 32;

/**
 * ADMIN_API_KEY: make sure an admin key with exactly this value exists (first set-up, tests). Only its hash is
 * stored. A value that was revoked stays revoked: revocation is never undone by a restart.
 */
export async function ensureAdminKey(
  prisma: PrismaClient,
  ids: IdGenerator,
  key: string,
  now: Date,
): Promise<'created' | 'present' | 'revoked'> {
  if (key.length < MIN_ADMIN_KEY_LENGTH) {
    throw new Error(
      `ADMIN_API_KEY must be at least ${MIN_ADMIN_KEY_LENGTH} characters (128 bits or more of randomness)`,
    );
  }
  const keyHash = hashApiKey(key);
  const existing = await prisma.apiKey.findUnique({ where: { keyHash } });
  if (existing) return existing.revokedAt ? 'revoked' : 'present';
  // Audited like any issued key; the actor is the system acting on the operator's ADMIN_API_KEY setting.
  await new PrismaApiKeyRegistry(prisma).add(
    {
      id: ids.next(),
      keyHash,
      role: 'admin',
      principalId: ids.next(),
      label: 'ADMIN_API_KEY',
      expiresAt: null,
      at: now,
    },
    { actor: SYSTEM_ACTOR },
  );
  return 'created';
}
