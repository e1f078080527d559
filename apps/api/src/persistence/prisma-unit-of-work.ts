import type { AuditLog, DataStores, FollowUps, UnitOfWork, WorkContext } from '@transport/domain';
import type { PrismaClient } from '../generated/prisma/client';
import type { PgBossJobQueue } from './pg-boss-job-queue';
import { PrismaAuditLog } from './prisma-audit-log';
import type { PrismaExecutor } from './prisma-executor';
import { PrismaNoticeLedger } from './prisma-notice-ledger';
import { PgBossFollowUps, prismaPaymentStores } from './prisma-payment-stores';
import { prismaRepositories } from './prisma-repositories';

/** Without a job queue (tests of the repositories alone), enqueueing a follow-up is a programming error. */
const noJobs: FollowUps = {
  enqueue: async (queue) => {
    throw new Error(`no job queue to enqueue ${queue} on`);
  },
};

/** Every store on the app's client, each call on its own (outside any unit of work); lists where `lists` says. */
export function prismaStores(prisma: PrismaClient, jobs?: PgBossJobQueue, lists: PrismaClient = prisma): DataStores {
  const payment = prismaPaymentStores(prisma, jobs as PgBossJobQueue);
  return { ...prismaRepositories(prisma, lists), ...payment, followUps: jobs ? payment.followUps : noJobs };
}

/**
 * One interactive Prisma transaction per use case: repositories (their lists and searches too), audit log, payment
 * inbox and outbox, follow-up jobs (enqueued through the same transaction), notices and their payments, all on the
 * transaction's connection.
 */
export class PrismaUnitOfWork implements UnitOfWork {
  constructor(
    private readonly prisma: PrismaClient,
    // Replaceable so a test can make the audit write fail half-way and check that nothing was kept.
    private readonly auditLogFor: (db: PrismaExecutor) => AuditLog = (db) => new PrismaAuditLog(db),
    private readonly jobs?: PgBossJobQueue,
  ) {}

  run<T>(work: (context: WorkContext) => Promise<T>): Promise<T> {
    return this.prisma.$transaction(
      (tx) =>
        work({
          ...prismaRepositories(tx),
          ...prismaPaymentStores(tx, this.jobs as PgBossJobQueue, tx),
          followUps: this.jobs ? new PgBossFollowUps(this.jobs, tx) : noJobs,
          audit: this.auditLogFor(tx),
          notices: new PrismaNoticeLedger(tx),
        }),
      { maxWait: 10_000, timeout: 15_000 },
    );
  }
}
