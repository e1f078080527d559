import { SYSTEM_ACTOR } from '@transport/domain';
import type { StaleRegistrations } from '../core/ports';
import type { PrismaClient } from '../generated/prisma/client';
import { PrismaAuditLog } from './prisma-audit-log';

/**
 * Deletes stale unactivated drivers in one transaction per batch: the rows (SKIP LOCKED, so two instances never wait
 * on each other), their reminders, and one `DriverRegistrationDeleted` audit entry each, without the name, phone or
 * e-mail (the entry says when it was registered and where). The unique e-mail is free again once the row is gone.
 */
export class PrismaStaleRegistrations implements StaleRegistrations {
  constructor(private readonly prisma: PrismaClient) {}

  async deleteUnactivated(registeredBefore: Date, at: Date, limit: number): Promise<string[]> {
    return this.prisma.$transaction(async (tx) => {
      const deleted = await tx.$queryRaw<Array<{ id: string; assemblyId: string | null; createdAt: Date }>>`
        DELETE FROM "drivers" WHERE "id" IN (
          SELECT d."id" FROM "drivers" d
          WHERE d."verified" = false AND d."createdAt" < ${registeredBefore}
            AND NOT EXISTS (SELECT 1 FROM "vehicles" v WHERE v."driverId" = d."id")
          ORDER BY d."createdAt"
          LIMIT ${limit}
          FOR UPDATE SKIP LOCKED)
        RETURNING "id", "assemblyId", "createdAt"`;
      if (deleted.length === 0) return [];
      const ids = deleted.map((d) => d.id.trim());
      await tx.documentReminder.deleteMany({ where: { entity: 'driver', entityId: { in: ids } } });
      await new PrismaAuditLog(tx).append(
        deleted.map((d) => ({
          entity: 'driver',
          entityId: d.id.trim(),
          action: 'DriverRegistrationDeleted',
          actor: SYSTEM_ACTOR,
          before: { registeredAt: d.createdAt.toISOString(), assemblyId: d.assemblyId, verified: false },
          after: null,
          at,
        })),
      );
      return ids;
    });
  }
}
