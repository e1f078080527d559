import { Notice, noticePaymentOpen, type NoticeLedger, type NoticePaymentRecord } from '@transport/domain';
import type { NoticePayment as PaymentRow } from '../generated/prisma/client';
import { assertOneUpdated } from './optimistic';
import { noticeRow, noticeToDomain } from './prisma-enforcement.store';
import type { PrismaExecutor } from './prisma-executor';
import { translateUniqueViolation } from './prisma-errors';

function paymentToDomain(row: PaymentRow): NoticePaymentRecord {
  return {
    transactionId: row.transactionId,
    noticeId: row.noticeId,
    amount: row.amount,
    createdAt: row.createdAt,
    ...(row.settledAt !== null && { settledAt: row.settledAt }),
    ...(row.applied !== null && { applied: row.applied }),
    ...(row.excess !== null && { excess: row.excess }),
  };
}

/**
 * Notices and their payments on a unit of work's transaction (issue 47): a notice payment's final state settles its
 * notice in the same database transaction. One unsettled payment per notice is the partial unique index
 * notice_payments_noticeId_open_key (a second: NOTICE_PAYMENT_OPEN, and the transaction is rolled back).
 */
export class PrismaNoticeLedger implements NoticeLedger {
  constructor(private readonly db: PrismaExecutor) {}

  async findNotice(id: string): Promise<Notice | undefined> {
    const row = await this.db.notice.findUnique({ where: { id } });
    return row ? noticeToDomain(row) : undefined;
  }

  async updateNotice(notice: Notice): Promise<Notice> {
    const s = notice.toState();
    const { count } = await this.db.notice.updateMany({
      where: { id: s.id, version: s.version },
      data: { ...noticeRow(s), version: s.version + 1 },
    });
    await assertOneUpdated(count, 'notice', s.id, () => this.db.notice.findUnique({ where: { id: s.id } }));
    return Notice.restore({ ...s, version: s.version + 1 });
  }

  async addPayment(p: NoticePaymentRecord): Promise<void> {
    await this.db.noticePayment
      .create({
        data: { transactionId: p.transactionId, noticeId: p.noticeId, amount: p.amount, createdAt: p.createdAt },
      })
      .catch((error: unknown) =>
        translateUniqueViolation(error, { open_key: noticePaymentOpen, noticeId: noticePaymentOpen }),
      );
  }

  async openPayment(noticeId: string): Promise<NoticePaymentRecord | undefined> {
    const row = await this.db.noticePayment.findFirst({ where: { noticeId, settledAt: null } });
    return row ? paymentToDomain(row) : undefined;
  }

  async paymentFor(transactionId: string): Promise<NoticePaymentRecord | undefined> {
    const row = await this.db.noticePayment.findUnique({ where: { transactionId } });
    return row ? paymentToDomain(row) : undefined;
  }

  async paymentsOf(noticeId: string, limit: number): Promise<NoticePaymentRecord[]> {
    const rows = await this.db.noticePayment.findMany({
      where: { noticeId },
      orderBy: [{ createdAt: 'desc' }, { transactionId: 'desc' }],
      take: limit,
    });
    return rows.map(paymentToDomain);
  }

  async settle(transactionId: string, s: { settledAt: Date; applied: number; excess: number }): Promise<void> {
    await this.db.noticePayment.update({
      where: { transactionId },
      data: { settledAt: s.settledAt, applied: s.applied, excess: s.excess },
    });
  }
}
