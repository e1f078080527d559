import { DomainError } from '../shared/domain-error';
import { geoPoint } from '../shared/geo-point';
import { APPROVER, days, INSPECTOR, ports, T0 } from '../testing/fixtures';
import { assertNoOverdueNotices, Notice, type NoticeInput } from './notice';
import { OffenceCatalogue, type OffenceCatalogueState, type OffenceTerms } from './offence-catalogue';

const ASSEMBLY = '65a0000000000000000000a1';
const VEHICLE = '65a0000000000000000000b1';
const DRIVER = '65a0000000000000000000d1';
const OFFICER = INSPECTOR;
const SUPERVISOR = APPROVER;

const offences: OffenceTerms[] = [
  {
    code: 'tf-01',
    description: 'Operating without a valid sticker',
    bylaw: 'AMA Bye-laws 2019, s. 12(1)',
    fine: 20_000,
    daysToPay: 14,
    surcharge: 5_000,
    daysToContest: 10,
  },
  {
    code: 'TF-02',
    description: 'Loading passengers outside a station',
    bylaw: 'AMA Bye-laws 2019, s. 15',
    fine: 10_000,
    daysToPay: 7,
    surcharge: 2_500,
  },
];
const catalogue = (): OffenceCatalogueState => OffenceCatalogue.publish(ASSEMBLY, offences, undefined, SUPERVISOR, T0);
const input = (over: Partial<NoticeInput> = {}): NoticeInput => ({
  catalogue: catalogue(),
  codes: ['TF-01'],
  vehicleId: VEHICLE,
  officerId: OFFICER,
  madeAt: T0,
  ...over,
});
const issue = (over: Partial<NoticeInput> = {}) => Notice.issue(input(over), ports().ids, days(0.01));
const codeOf = (action: () => unknown) => {
  try {
    action();
  } catch (error) {
    if (error instanceof DomainError) return error.code;
    throw error;
  }
  return 'not refused';
};

describe('OffenceCatalogue', () => {
  it('publishes the first version and the next, with codes upper case and terms checked', () => {
    const first = catalogue();
    expect(first).toMatchObject({ assemblyId: ASSEMBLY, version: 1, publishedBy: SUPERVISOR, publishedAt: T0 });
    expect(first.offences.map((o) => o.code)).toEqual(['TF-01', 'TF-02']);
    expect(first.offences[1].daysToContest).toBeUndefined();
    const second = OffenceCatalogue.publish(ASSEMBLY, [offences[1]], first, SUPERVISOR, days(30));
    expect(second.version).toBe(2);
  });

  it.each([
    ['no offences', [], 'INVALID_VALUE'],
    ['a code twice', [offences[0], { ...offences[1], code: 'TF-01' }], 'INVALID_VALUE'],
    ['a bad code', [{ ...offences[0], code: '-x' }], 'INVALID_VALUE'],
    ['a code that is not text', [{ ...offences[0], code: 7 as unknown as string }], 'INVALID_VALUE'],
    ['no description', [{ ...offences[0], description: ' ' }], 'INVALID_TEXT'],
    ['a fine of zero', [{ ...offences[0], fine: 0 }], 'INVALID_AMOUNT'],
    ['a fine in cedis with decimals', [{ ...offences[0], fine: 200.5 }], 'INVALID_AMOUNT'],
    ['no days to pay', [{ ...offences[0], daysToPay: 0 }], 'INVALID_NUMBER'],
    ['a year and a day to contest', [{ ...offences[0], daysToContest: 366 }], 'INVALID_NUMBER'],
  ])('refuses a catalogue with %s', (_, list, code) => {
    expect(codeOf(() => OffenceCatalogue.publish(ASSEMBLY, list as OffenceTerms[], undefined, SUPERVISOR, T0))).toBe(
      code,
    );
  });

  it('finds terms by code in any letter case, and refuses a code it lacks', () => {
    expect(OffenceCatalogue.termsOf(catalogue(), [' tf-02 '])[0].fine).toBe(10_000);
    const refused = codeOf(() => OffenceCatalogue.termsOf(catalogue(), ['TF-99']));
    expect(refused).toBe('OFFENCE_NOT_FOUND');
  });
});

describe('Notice', () => {
  it('is issued with the terms of its catalogue version, due and contestable by the earliest of its offences', () => {
    const notice = Notice.issue(
      input({
        codes: ['TF-01', 'tf-02'],
        driverId: DRIVER,
        madeWhere: geoPoint(-0.2, 5.6),
        notes: 'Stopped at Kaneshie',
      }),
      ports().ids,
      days(0.5),
    );
    const s = notice.toState();
    expect(s).toMatchObject({
      status: 'issued',
      assemblyId: ASSEMBLY,
      catalogueVersion: 1,
      fine: 30_000,
      surcharge: 7_500,
      dueAt: days(7),
      contestBy: days(10),
      paid: 0,
      driverId: DRIVER,
      notes: 'Stopped at Kaneshie',
      madeAt: T0,
      createdAt: days(0.5),
    });
    expect(notice.status).toBe('issued');
    expect(notice.id).toBe(s.id);
    expect(notice.pullEvents().map((e) => e.type)).toEqual(['NoticeIssued']);
    expect(notice.pullEvents()).toEqual([]);
    // A later catalogue does not change it.
    expect(Notice.restore(s).toState().offences[0].fine).toBe(20_000);
  });

  it.each([
    ['no offence', { codes: [] }, 'INVALID_VALUE'],
    ['eleven offences', { codes: Array(11).fill('TF-01') }, 'INVALID_VALUE'],
    ['an offence twice', { codes: ['TF-01', 'tf-01'] }, 'INVALID_VALUE'],
    ['an offence not in the catalogue', { codes: ['TF-09'] }, 'OFFENCE_NOT_FOUND'],
    ['a vehicle id that is not one', { vehicleId: 'GR 1-24' }, 'INVALID_ID'],
    ['a driver id that is not one', { driverId: 'x' }, 'INVALID_ID'],
    ['no time made', { madeAt: new Date('nonsense') }, 'INVALID_DATE'],
    ['empty notes', { notes: '  ' }, 'INVALID_TEXT'],
  ])('is not issued with %s', (_, over, code) => {
    expect(codeOf(() => issue(over as Partial<NoticeInput>))).toBe(code);
  });

  it('owes the fine until due, then the fine and the surcharge, less what was paid', () => {
    const notice = issue({ codes: ['TF-01'] });
    expect(notice.amountDue(days(14))).toBe(20_000);
    expect(notice.isOverdue(days(14))).toBe(false);
    expect(notice.isOverdue(days(15))).toBe(true);
    expect(notice.amountDue(days(15))).toBe(25_000);
    expect(codeOf(() => notice.markOverdue(days(13)))).toBe('NOTICE_NOT_OVERDUE');
    notice.markOverdue(days(15));
    expect(notice.status).toBe('overdue');
    expect(codeOf(() => notice.markOverdue(days(16)))).toBe('NOTICE_NOT_OVERDUE');
    expect(notice.recordPayment(10_000, days(16))).toEqual({ applied: 10_000, excess: 0, status: 'overdue' });
    expect(notice.amountDue(days(16))).toBe(15_000);
    expect(notice.recordPayment(20_000, days(17))).toEqual({ applied: 15_000, excess: 5_000, status: 'paid' });
    expect(notice.toState()).toMatchObject({ paid: 25_000, refundDue: 5_000, paidAt: days(17) });
    expect(notice.amountDue(days(18))).toBe(0);
    expect(notice.pullEvents().map((e) => e.type)).toEqual([
      'NoticeIssued',
      'NoticeOverdue',
      'NoticePaymentReceived',
      'NoticePaid',
    ]);
  });

  it('refuses a prompt for a paid, cancelled or contested notice, and keeps a payment confirmed anyway as excess', () => {
    const paid = issue();
    paid.recordPayment(20_000, days(1));
    expect(codeOf(() => paid.assertPayable())).toBe('NOTICE_ALREADY_PAID');
    expect(codeOf(() => paid.markOverdue(days(30)))).toBe('NOTICE_ALREADY_PAID');
    // Two prompts answered at once: the second payment is confirmed for a paid notice.
    expect(paid.recordPayment(20_000, days(1))).toEqual({ applied: 0, excess: 20_000, status: 'paid' });
    expect(paid.toState()).toMatchObject({ paid: 20_000, refundDue: 20_000 });

    const contested = issue();
    contested.contest('The sticker was renewed yesterday', days(2), 'notice-contests/n1/abc');
    expect(contested.toState().contest).toEqual({
      text: 'The sticker was renewed yesterday',
      at: days(2),
      photo: 'notice-contests/n1/abc',
    });
    expect(codeOf(() => contested.assertPayable())).toBe('NOTICE_CONTESTED');
    expect(contested.recordPayment(5_000, days(3))).toEqual({ applied: 0, excess: 5_000, status: 'contested' });

    const cancelled = issue();
    cancelled.cancel(SUPERVISOR, 'Wrong vehicle recorded', days(1));
    expect(codeOf(() => cancelled.assertPayable())).toBe('NOTICE_CANCELLED');
    expect(cancelled.amountDue(days(1))).toBe(0);
    expect(codeOf(() => cancelled.recordPayment(0, days(1)))).toBe('INVALID_AMOUNT');
  });

  it('is contested once, within its days, and decided by someone other than the officer', () => {
    const notice = issue({ codes: ['TF-01', 'TF-02'] });
    expect(codeOf(() => notice.decide({ outcome: 'upheld', by: SUPERVISOR, reason: 'r' }, days(1)))).toBe(
      'NOTICE_NOT_CONTESTED',
    );
    expect(codeOf(() => notice.contest('late', days(11)))).toBe('NOTICE_CONTEST_CLOSED');
    notice.contest('  The   sticker was renewed ', days(3));
    expect(notice.toState().contest).toEqual({ text: 'The sticker was renewed', at: days(3) });
    expect(codeOf(() => notice.contest('again', days(4)))).toBe('NOTICE_ALREADY_CONTESTED');
    expect(codeOf(() => notice.decide({ outcome: 'upheld', by: OFFICER, reason: 'r' }, days(5)))).toBe(
      'NOTICE_DECIDER_IS_OFFICER',
    );
    expect(codeOf(() => notice.decide({ outcome: 'reduced', by: SUPERVISOR, reason: 'r' }, days(5)))).toBe(
      'INVALID_AMOUNT',
    );
    expect(
      codeOf(() => notice.decide({ outcome: 'reduced', by: SUPERVISOR, reason: 'r', amount: 30_000 }, days(5))),
    ).toBe('INVALID_AMOUNT');
    notice.decide(
      { outcome: 'reduced', by: SUPERVISOR, reason: 'Renewal shown, loading offence stands', amount: 10_000 },
      days(5),
    );
    expect(notice.toState()).toMatchObject({ status: 'decided', dueAt: days(12) });
    expect(notice.toState().decision).toMatchObject({ outcome: 'reduced', amount: 10_000, by: SUPERVISOR });
    expect(notice.amountDue(days(12))).toBe(10_000);
    expect(notice.amountDue(days(13))).toBe(17_500);
    expect(codeOf(() => notice.contest('once more', days(6)))).toBe('NOTICE_ALREADY_CONTESTED');
    notice.markOverdue(days(13));
    expect(notice.recordPayment(17_500, days(13)).status).toBe('paid');
  });

  it('is upheld with a new due date, or cancelled with what was paid to refund', () => {
    const upheld = issue();
    upheld.contest('Not me', days(1));
    upheld.decide({ outcome: 'upheld', by: SUPERVISOR, reason: 'Photo shows the vehicle' }, days(20));
    expect(upheld.toState()).toMatchObject({ status: 'decided', dueAt: days(34) });
    expect(upheld.amountDue(days(21))).toBe(20_000);

    const cancelled = issue();
    cancelled.recordPayment(5_000, days(1));
    cancelled.contest('Not me', days(2));
    cancelled.decide({ outcome: 'cancelled', by: SUPERVISOR, reason: 'Wrong plate read' }, days(3));
    expect(cancelled.toState()).toMatchObject({ status: 'cancelled', paid: 0, refundDue: 5_000 });
    expect(cancelled.pullEvents().map((e) => e.type)).toEqual([
      'NoticeIssued',
      'NoticePaymentReceived',
      'NoticeContested',
      'NoticeDecided',
    ]);
  });

  it('refuses a contest of an offence that cannot be contested, or of a notice no longer owed', () => {
    expect(codeOf(() => issue({ codes: ['TF-02'] }).contest('no', days(1)))).toBe('NOTICE_NOT_CONTESTABLE');
    const paid = issue();
    paid.recordPayment(20_000, days(1));
    expect(codeOf(() => paid.contest('no', days(2)))).toBe('NOTICE_ALREADY_PAID');
  });

  it('is cancelled by a supervisor, never by its officer, and not once paid or cancelled', () => {
    const notice = issue();
    expect(codeOf(() => notice.cancel(OFFICER, 'mine', days(1)))).toBe('NOTICE_CANCEL_BY_OFFICER');
    notice.recordPayment(2_000, days(1));
    notice.cancel(SUPERVISOR, 'Duplicate of another notice', days(2));
    expect(notice.toState()).toMatchObject({ status: 'cancelled', paid: 0, refundDue: 2_000 });
    expect(notice.toState().cancellation).toEqual({
      by: SUPERVISOR,
      reason: 'Duplicate of another notice',
      at: days(2),
    });
    expect(codeOf(() => notice.cancel(SUPERVISOR, 'again', days(3)))).toBe('NOTICE_CANCELLED');
    const paid = issue();
    paid.recordPayment(20_000, days(1));
    expect(codeOf(() => paid.cancel(SUPERVISOR, 'late', days(2)))).toBe('NOTICE_ALREADY_PAID');
  });

  it('blocks approving or renewing a vehicle with an overdue notice only when its assembly says so', () => {
    const owed = issue();
    const decided = issue();
    decided.contest('Not me', days(1));
    decided.decide({ outcome: 'upheld', by: SUPERVISOR, reason: 'Seen on camera' }, days(2));
    // Within its days: nothing blocks; past them (marked overdue or not yet), the setting decides.
    expect(() => assertNoOverdueNotices(true, [owed, decided], days(3))).not.toThrow();
    expect(codeOf(() => assertNoOverdueNotices(true, [decided, owed], days(15)))).toBe('VEHICLE_HAS_OVERDUE_NOTICES');
    owed.markOverdue(days(15));
    expect(codeOf(() => assertNoOverdueNotices(true, [owed], days(15)))).toBe('VEHICLE_HAS_OVERDUE_NOTICES');
    expect(() => assertNoOverdueNotices(false, [owed], days(15))).not.toThrow();
    expect(() => assertNoOverdueNotices(true, [], days(15))).not.toThrow();
  });
});
