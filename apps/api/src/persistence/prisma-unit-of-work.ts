import type { AuditLog } from '../application/audit-log';
import type { UnitOfWork, WorkContext } from '../application/unit-of-work';
import type { PrismaClient } from '../generated/prisma/client';
import { PrismaAuditLog } from './prisma-audit-log';
import type { PrismaExecutor } from './prisma-executor';
import { prismaRepositories } from './prisma-repositories';

/** One interactive Prisma transaction per use case: repositories and audit log all on the transaction's connection. */
export class PrismaUnitOfWork implements UnitOfWork {
  constructor(
    private readonly prisma: PrismaClient,
    // Replaceable so a test can make the audit write fail half-way and check that nothing was kept.
    private readonly auditLogFor: (db: PrismaExecutor) => AuditLog = (db) => new PrismaAuditLog(db),
  ) {}

  run<T>(work: (context: WorkContext) => Promise<T>): Promise<T> {
    return this.prisma.$transaction((tx) => work({ ...prismaRepositories(tx), audit: this.auditLogFor(tx) }), {
      maxWait: 10_000,
      timeout: 15_000,
    });
  }
}
