import type {
  CallbackInbox,
  CallbackOutcome,
  CallbackTokens,
  DeadLetter,
  DeliveryAttempt,
  DeliveryOutcome,
  FollowUpOptions,
  FollowUps,
  NewCallback,
  NewNotification,
  NotificationOutbox,
  NotificationRecord,
  NotificationStatus,
  NotificationToDeliver,
  PaymentStores,
  StoredCallback,
} from '@transport/domain';
import type { Prisma } from '../generated/prisma/client';
import { inTransaction } from './in-transaction';
import type { PgBossJobQueue } from './pg-boss-job-queue';
import type { PrismaExecutor } from './prisma-executor';

const toStored = (row: {
  id: bigint;
  transactionId: string | null;
  body: string;
  receivedAt: Date;
}): StoredCallback => ({
  id: String(row.id),
  transactionId: row.transactionId,
  body: row.body,
  receivedAt: row.receivedAt,
});

/** The callback inbox in `payment_callbacks`. */
export class PrismaCallbackInbox implements CallbackInbox {
  constructor(private readonly db: PrismaExecutor) {}

  async store(callback: NewCallback): Promise<StoredCallback> {
    return toStored(await this.db.paymentCallback.create({ data: callback }));
  }

  async countFor(transactionId: string): Promise<number> {
    return this.db.paymentCallback.count({ where: { transactionId } });
  }

  async deadLetter(letter: DeadLetter): Promise<void> {
    await this.db.paymentDeadLetter.create({ data: letter });
  }

  async pruneDeadLetters(receivedBefore: Date): Promise<number> {
    // By the receivedAt index; the job runs hourly, so each run deletes about an hour's worth.
    return (await this.db.paymentDeadLetter.deleteMany({ where: { receivedAt: { lt: receivedBefore } } })).count;
  }

  async claim(id: string): Promise<boolean> {
    // The row lock holds until the surrounding transaction ends: a second worker waits, then sees it processed.
    const [row] = await this.db.$queryRaw<Array<{ processedAt: Date | null }>>`
      SELECT "processedAt" FROM payment_callbacks WHERE id = ${BigInt(id)} FOR UPDATE`;
    return row !== undefined && row.processedAt === null;
  }

  async markProcessed(id: string, outcome: CallbackOutcome, at: Date): Promise<void> {
    await this.db.paymentCallback.update({ where: { id: BigInt(id) }, data: { outcome, processedAt: at } });
  }

  async listDeferred(transactionId: string): Promise<StoredCallback[]> {
    const rows = await this.db.paymentCallback.findMany({
      where: { transactionId, outcome: 'deferred' },
      orderBy: { id: 'asc' },
      select: { id: true, transactionId: true, body: true, receivedAt: true },
    });
    return rows.map(toStored);
  }

  async listUnprocessed(receivedBy: Date, limit: number): Promise<StoredCallback[]> {
    const rows = await this.db.paymentCallback.findMany({
      where: { processedAt: null, receivedAt: { lte: receivedBy } },
      orderBy: { id: 'asc' },
      take: limit,
      select: { id: true, transactionId: true, body: true, receivedAt: true },
    });
    return rows.map(toStored);
  }
}

/** Callback URL tokens in `payment_callback_tokens` (SHA-256 of each token only). */
export class PrismaCallbackTokens implements CallbackTokens {
  constructor(private readonly db: PrismaExecutor) {}

  async add(tokenHash: string, transactionId: string, at: Date): Promise<void> {
    await this.db.paymentCallbackToken.create({ data: { tokenHash, transactionId, createdAt: at } });
  }

  async find(tokenHash: string): Promise<{ transactionId: string; expiresAt: Date | null } | undefined> {
    return (
      (await this.db.paymentCallbackToken.findUnique({
        where: { tokenHash },
        select: { transactionId: true, expiresAt: true },
      })) ?? undefined
    );
  }

  async expire(transactionId: string, at: Date): Promise<void> {
    await this.db.paymentCallbackToken.updateMany({
      where: { transactionId, expiresAt: null },
      data: { expiresAt: at },
    });
  }
}

const toAttempt = (a: {
  notificationId: string;
  attempt: number;
  at: Date;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  outcome: string;
}): DeliveryAttempt => ({ ...a, outcome: a.outcome as DeliveryOutcome });

/** Merchant notifications in `payment_notifications`, attempts in `payment_delivery_attempts`. */
export class PrismaNotificationOutbox implements NotificationOutbox {
  constructor(private readonly db: PrismaExecutor) {}

  async existsFor(transactionId: string): Promise<boolean> {
    return (await this.db.paymentNotification.findUnique({ where: { transactionId }, select: { id: true } })) !== null;
  }

  async add(n: NewNotification): Promise<void> {
    await this.db.paymentNotification.create({ data: { ...n, status: 'pending' } });
  }

  async findForDelivery(id: string): Promise<NotificationToDeliver | undefined> {
    const row = await this.db.paymentNotification.findUnique({
      where: { id },
      include: {
        transaction: {
          select: {
            reference: true,
            merchant: {
              select: {
                id: true,
                signingSecret: true,
                previousSigningSecret: true,
                previousSecretUntil: true,
                notifyPausedAt: true,
              },
            },
          },
        },
      },
    });
    if (!row) return undefined;
    const merchant = row.transaction.merchant;
    const previous =
      merchant.previousSigningSecret && merchant.previousSecretUntil && merchant.previousSecretUntil > new Date()
        ? [merchant.previousSigningSecret]
        : [];
    return {
      id: row.id,
      url: row.url,
      body: row.body,
      status: row.status as NotificationStatus,
      attempts: row.attempts,
      reference: row.transaction.reference,
      merchantId: merchant.id,
      signingSecrets: [merchant.signingSecret, ...previous],
      merchantPausedAt: merchant.notifyPausedAt,
    };
  }

  async recordAttempt(attempt: DeliveryAttempt, deliveredAt: Date | null, merchantId: string): Promise<Date | null> {
    return inTransaction(this.db, async (tx) => {
      await tx.paymentDeliveryAttempt.create({ data: attempt });
      await tx.paymentNotification.update({
        where: { id: attempt.notificationId },
        data: {
          attempts: attempt.attempt,
          lastAttemptAt: attempt.at,
          ...(attempt.outcome !== 'retry' ? { status: attempt.outcome } : {}),
          ...(deliveredAt ? { deliveredAt } : {}),
        },
      });
      if (deliveredAt) {
        await tx.merchant.updateMany({
          where: { id: merchantId, notifyFailingSince: { not: null } },
          data: { notifyFailingSince: null },
        });
        return null;
      }
      await tx.merchant.updateMany({
        where: { id: merchantId, notifyFailingSince: null },
        data: { notifyFailingSince: attempt.at },
      });
      const merchant = await tx.merchant.findUnique({
        where: { id: merchantId },
        select: { notifyFailingSince: true },
      });
      return merchant?.notifyFailingSince ?? null;
    });
  }

  async pause(merchantId: string, notificationId: string, at: Date): Promise<boolean> {
    return inTransaction(this.db, async (tx) => {
      await tx.paymentNotification.updateMany({
        where: { id: notificationId, status: 'pending' },
        data: { status: 'paused' },
      });
      const { count } = await tx.merchant.updateMany({
        where: { id: merchantId, notifyPausedAt: null },
        data: { notifyPausedAt: at },
      });
      return count === 1;
    });
  }

  async redeliver(notificationId: string): Promise<{ merchantId: string } | undefined> {
    const { count } = await this.db.paymentNotification.updateMany({
      where: { id: notificationId, status: { in: ['failed', 'paused'] } },
      data: { status: 'pending' },
    });
    if (count === 0) return undefined;
    const row = await this.db.paymentNotification.findUniqueOrThrow({
      where: { id: notificationId },
      select: { transaction: { select: { merchantId: true } } },
    });
    return { merchantId: row.transaction.merchantId };
  }

  async resume(merchantId: string): Promise<string[]> {
    return inTransaction(this.db, async (tx) => {
      await tx.merchant.updateMany({
        where: { id: merchantId },
        data: { notifyPausedAt: null, notifyFailingSince: null },
      });
      const paused = await tx.paymentNotification.findMany({
        where: { status: 'paused', transaction: { merchantId } },
        select: { id: true },
      });
      await tx.paymentNotification.updateMany({
        where: { id: { in: paused.map((p) => p.id) } },
        data: { status: 'pending' },
      });
      return paused.map((p) => p.id);
    });
  }

  async findByTransaction(transactionId: string): Promise<NotificationRecord | undefined> {
    const row = await this.db.paymentNotification.findUnique({
      where: { transactionId },
      include: { attemptLog: { orderBy: { id: 'asc' } } },
    });
    if (!row) return undefined;
    return {
      id: row.id,
      url: row.url,
      status: row.status as NotificationStatus,
      attempts: row.attempts,
      createdAt: row.createdAt,
      lastAttemptAt: row.lastAttemptAt,
      deliveredAt: row.deliveredAt,
      attemptLog: row.attemptLog.map(toAttempt),
    };
  }
}

/** Follow-up jobs on pg-boss: inside a transaction they are enqueued through it (pg-boss's `db` option). */
export class PgBossFollowUps implements FollowUps {
  constructor(
    private readonly jobs: PgBossJobQueue,
    private readonly tx?: Prisma.TransactionClient,
  ) {}

  async enqueue(queue: string, data: object, options: FollowUpOptions = {}): Promise<void> {
    if (this.tx) await this.jobs.sendInTransaction(this.tx, queue, data, options);
    else await this.jobs.send(queue, data, options);
  }
}

/** The payment stores on one Prisma client, or on one open transaction. */
export function prismaPaymentStores(
  db: PrismaExecutor,
  jobs: PgBossJobQueue,
  tx?: Prisma.TransactionClient,
): PaymentStores {
  return {
    callbacks: new PrismaCallbackInbox(db),
    callbackTokens: new PrismaCallbackTokens(db),
    notifications: new PrismaNotificationOutbox(db),
    followUps: new PgBossFollowUps(jobs, tx),
  };
}
