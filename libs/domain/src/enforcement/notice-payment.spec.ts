import { DomainError } from '../shared/domain-error';
import { APPROVER, days, INSPECTOR, ports, T0 } from '../testing/fixtures';
import { InMemoryUnitOfWork } from '../testing/in-memory-unit-of-work';
import type { TransactionState } from '../transaction/transaction';
import { Notice } from './notice';
import { settleNoticePayment, type NoticePaymentRecord } from './notice-payment';
import { OffenceCatalogue } from './offence-catalogue';

const ASSEMBLY = '65a0000000000000000000a1';
const VEHICLE = '65a0000000000000000000b1';
const TX = '65a0000000000000000000c1';
const terms = {
  code: 'TF-01',
  description: 'No sticker',
  bylaw: 's. 12',
  fine: 20_000,
  daysToPay: 14,
  surcharge: 5_000,
};
const issue = () =>
  Notice.issue(
    {
      catalogue: OffenceCatalogue.publish(ASSEMBLY, [terms], undefined, APPROVER, T0),
      codes: ['TF-01'],
      vehicleId: VEHICLE,
      officerId: INSPECTOR,
      madeAt: T0,
    },
    ports().ids,
    T0,
  );
const paymentOf = (notice: Notice, over: Partial<NoticePaymentRecord> = {}): NoticePaymentRecord => ({
  transactionId: TX,
  noticeId: notice.id,
  amount: 20_000,
  createdAt: days(1),
  ...over,
});
/** A transaction's final state: its amount in millionths of a cedi (GHS 200.00 is 200_000_000). */
const tx = (status: TransactionState['status'], pesewas = 20_000) => ({ id: TX, status, amount: pesewas * 10_000 });
const codeOf = (action: () => unknown) => {
  try {
    action();
  } catch (error) {
    if (error instanceof DomainError) return error.code;
    throw error;
  }
  return 'not refused';
};

describe('settleNoticePayment: a notice payment’s final state, into its notice', () => {
  it('records a success as the notice’s payment: paid in full, audited as NoticePaid', () => {
    const notice = issue();
    expect(settleNoticePayment(notice, paymentOf(notice), tx('success'), days(1))).toEqual({
      settledAt: days(1),
      applied: 20_000,
      excess: 0,
    });
    expect(notice.toState()).toMatchObject({ status: 'paid', paid: 20_000 });
    expect(notice.pullEvents().map((e) => e.type)).toEqual(['NoticeIssued', 'NoticePaid']);
  });

  it('takes a payment asked before the notice became overdue as a part: the surcharge stays owed', () => {
    const notice = issue();
    const late = days(15);
    expect(settleNoticePayment(notice, paymentOf(notice), tx('success'), late)).toMatchObject({ applied: 20_000 });
    expect(notice.status).toBe('issued');
    expect(notice.amountDue(late)).toBe(5_000);
  });

  it('keeps what a notice no longer owes as excess (a second payment after it was paid), never counted twice', () => {
    const notice = issue();
    settleNoticePayment(notice, paymentOf(notice), tx('success'), days(1));
    const second = { ...tx('success'), id: '65a0000000000000000000c2' };
    expect(settleNoticePayment(notice, paymentOf(notice, { transactionId: second.id }), second, days(2))).toEqual({
      settledAt: days(2),
      applied: 0,
      excess: 20_000,
    });
    expect(notice.toState()).toMatchObject({ status: 'paid', paid: 20_000, refundDue: 20_000 });
  });

  it('changes nothing for a failed payment', () => {
    const notice = issue();
    expect(settleNoticePayment(notice, paymentOf(notice), tx('failed'), days(1))).toEqual({
      settledAt: days(1),
      applied: 0,
      excess: 0,
    });
    expect(notice.toState()).toMatchObject({ status: 'issued', paid: 0 });
  });

  it('refuses an open payment, a settled one, another notice’s or transaction’s, and a part of a pesewa', () => {
    const notice = issue();
    expect(codeOf(() => settleNoticePayment(notice, paymentOf(notice), tx('pending'), days(1)))).toBe('INVALID_VALUE');
    expect(
      codeOf(() => settleNoticePayment(notice, paymentOf(notice, { settledAt: days(1) }), tx('success'), days(1))),
    ).toBe('NOTICE_PAYMENT_SETTLED');
    expect(
      codeOf(() => settleNoticePayment(notice, paymentOf(notice, { noticeId: VEHICLE }), tx('success'), days(1))),
    ).toBe('INVALID_VALUE');
    expect(
      codeOf(() => settleNoticePayment(notice, paymentOf(notice, { transactionId: VEHICLE }), tx('success'), days(1))),
    ).toBe('INVALID_VALUE');
    expect(
      codeOf(() => settleNoticePayment(notice, paymentOf(notice), { ...tx('success'), amount: 1_234 }, days(1))),
    ).toBe('INVALID_AMOUNT');
    expect(notice.toState().paid).toBe(0);
  });
});

describe('InMemoryNoticeLedger (the unit of work’s notices, as the database keeps them)', () => {
  it('keeps one open payment per notice, settles it, and rolls back with the unit of work', async () => {
    const uow = new InMemoryUnitOfWork();
    const notice = issue();
    uow.notices.put(notice);
    const first = paymentOf(notice);
    await uow.run((ctx) => ctx.notices.addPayment(first));
    await expect(
      uow.run((ctx) => ctx.notices.addPayment({ ...first, transactionId: '65a0000000000000000000c2' })),
    ).rejects.toMatchObject({ code: 'NOTICE_PAYMENT_OPEN' });
    expect(await uow.run((ctx) => ctx.notices.openPayment(notice.id))).toEqual(first);
    await uow.run(async (ctx) => {
      const found = (await ctx.notices.findNotice(notice.id))!;
      found.recordPayment(20_000, days(1));
      await ctx.notices.updateNotice(found);
      await ctx.notices.settle(TX, { settledAt: days(1), applied: 20_000, excess: 0 });
    });
    expect(await uow.run((ctx) => ctx.notices.openPayment(notice.id))).toBeUndefined();
    expect(await uow.run((ctx) => ctx.notices.paymentFor(TX))).toMatchObject({ applied: 20_000 });
    expect((await uow.run((ctx) => ctx.notices.findNotice(notice.id)))?.toState()).toMatchObject({
      status: 'paid',
      version: 1,
    });
    // A stale copy is a concurrent update; a failed unit of work keeps nothing it wrote.
    await expect(uow.run((ctx) => ctx.notices.updateNotice(notice))).rejects.toMatchObject({
      code: 'CONCURRENT_UPDATE',
    });
    await expect(
      uow.run(async (ctx) => {
        await ctx.notices.addPayment({ ...first, transactionId: '65a0000000000000000000c3' });
        throw new Error('crash');
      }),
    ).rejects.toThrow('crash');
    expect((await uow.run((ctx) => ctx.notices.paymentsOf(notice.id, 10))).map((p) => p.transactionId)).toEqual([TX]);
    // Once settled, the next payment may open; settling it leaves the first as it was. Newest first.
    const next = '65a0000000000000000000c4';
    await uow.run(async (ctx) => {
      await ctx.notices.addPayment({ ...first, transactionId: next });
      await ctx.notices.settle(next, { settledAt: days(2), applied: 0, excess: 0 });
    });
    expect(await uow.run((ctx) => ctx.notices.paymentsOf(notice.id, 10))).toEqual([
      expect.objectContaining({ transactionId: next, settledAt: days(2) }),
      expect.objectContaining({ transactionId: TX, settledAt: days(1), applied: 20_000 }),
    ]);
    expect(await uow.run((ctx) => ctx.notices.findNotice(VEHICLE))).toBeUndefined();
  });
});
