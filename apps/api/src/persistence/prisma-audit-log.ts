import type { AuditEntryInput, AuditLog } from '@transport/domain';
import type { Prisma } from '../generated/prisma/client';
import type { PrismaExecutor } from './prisma-executor';

const json = (value: unknown) =>
  value === undefined ? undefined : (JSON.parse(JSON.stringify(value)) as Prisma.InputJsonValue);

/** Appends to audit_log; the database itself refuses updates and deletes there. */
export class PrismaAuditLog implements AuditLog {
  constructor(private readonly db: PrismaExecutor) {}

  async append(entries: readonly AuditEntryInput[]): Promise<void> {
    if (entries.length === 0) return;
    await this.db.auditEntry.createMany({
      data: entries.map((e) => ({
        entity: e.entity,
        entityId: e.entityId,
        action: e.action,
        actorRole: e.actor.role,
        actorId: e.actor.id,
        before: json(e.before),
        after: json(e.after),
        at: e.at,
      })),
    });
  }
}
