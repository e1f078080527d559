import fc from 'fast-check';
import { APPROVER, days, INSPECTOR, onlyRefusals, ports, T0 } from '../testing/fixtures';
import { assertNoOverdueNotices, Notice, NOTICE_STATUSES, type NoticeStatus } from './notice';
import { OffenceCatalogue } from './offence-catalogue';

const OFFICER = INSPECTOR;
const catalogue = OffenceCatalogue.publish(
  '65a0000000000000000000a1',
  [
    {
      code: 'A',
      description: 'Contestable',
      bylaw: 's. 1',
      fine: 20_000,
      daysToPay: 14,
      surcharge: 5_000,
      daysToContest: 10,
    },
    { code: 'B', description: 'Not contestable', bylaw: 's. 2', fine: 7_000, daysToPay: 7, surcharge: 1_000 },
  ],
  undefined,
  APPROVER,
  T0,
);

/** The moves the state machine allows; anything else must be refused and change nothing. */
const ALLOWED: Record<NoticeStatus, NoticeStatus[]> = {
  issued: ['issued', 'overdue', 'contested', 'paid', 'cancelled'],
  overdue: ['overdue', 'contested', 'paid', 'cancelled'],
  contested: ['contested', 'decided', 'cancelled'],
  decided: ['decided', 'overdue', 'paid', 'cancelled'],
  paid: ['paid'],
  cancelled: ['cancelled'],
};

const step = fc.oneof(
  fc.record({ kind: fc.constant('pay' as const), amount: fc.integer({ min: 1, max: 40_000 }) }),
  fc.record({ kind: fc.constant('overdue' as const) }),
  fc.record({ kind: fc.constant('contest' as const) }),
  fc.record({
    kind: fc.constant('decide' as const),
    outcome: fc.constantFrom('upheld' as const, 'reduced' as const, 'cancelled' as const),
    amount: fc.integer({ min: 0, max: 30_000 }),
    byOfficer: fc.boolean(),
  }),
  fc.record({ kind: fc.constant('cancel' as const), byOfficer: fc.boolean() }),
);

describe('Notice state machine (property)', () => {
  it('moves only along its edges, never owes less than nothing, keeps every pesewa paid, and leaves the officer out of decisions', () => {
    fc.assert(
      fc.property(
        fc.subarray(['A', 'B'], { minLength: 1 }),
        fc.array(fc.tuple(step, fc.integer({ min: 0, max: 5 })), { maxLength: 30 }),
        (codes, steps) => {
          const notice = Notice.issue(
            { catalogue, codes, vehicleId: '65a0000000000000000000b1', officerId: OFFICER, madeAt: T0 },
            ports().ids,
            T0,
          );
          let received = 0;
          let at = 0;
          for (const [s, gap] of steps) {
            at += gap;
            const when = days(at);
            const before = notice.toState();
            notice.pullEvents();
            try {
              if (s.kind === 'pay') {
                const result = notice.recordPayment(s.amount, when);
                received += s.amount;
                expect(result.applied + result.excess).toBe(s.amount);
              } else if (s.kind === 'overdue') notice.markOverdue(when);
              else if (s.kind === 'contest') notice.contest('I was not there', when);
              else if (s.kind === 'decide')
                notice.decide(
                  { outcome: s.outcome, by: s.byOfficer ? OFFICER : APPROVER, reason: 'Reviewed', amount: s.amount },
                  when,
                );
              else notice.cancel(s.byOfficer ? OFFICER : APPROVER, 'Reviewed', when);
            } catch (error) {
              onlyRefusals(error);
              // A refusal changes nothing and records nothing.
              expect(notice.toState()).toEqual(before);
              expect(notice.pullEvents()).toEqual([]);
              continue;
            }
            const after = notice.toState();
            expect(notice.pullEvents()).toHaveLength(1);
            expect(ALLOWED[before.status]).toContain(after.status);
            expect(NOTICE_STATUSES).toContain(after.status);
            // Every pesewa received is either taken by the notice or owed back.
            expect(after.paid + after.refundDue).toBe(received);
            expect(notice.amountDue(when)).toBeGreaterThanOrEqual(0);
            if (after.status === 'paid') expect(notice.amountDue(when)).toBe(0);
            if (after.decision) expect(after.decision.by).not.toBe(OFFICER);
            if (after.cancellation) expect(after.cancellation.by).not.toBe(OFFICER);
            if (after.status === 'cancelled') expect([after.paid, after.refundDue]).toEqual([0, received]);
            if (after.contest) expect(after.contest.at.getTime()).toBeLessThanOrEqual(after.contestBy!.getTime());
            // The assembly's block refuses a vehicle exactly while the notice is owed past its due time, when set.
            const blocked = (blocking: boolean) => {
              try {
                assertNoOverdueNotices(blocking, [notice], when);
                return false;
              } catch {
                return true;
              }
            };
            expect(blocked(true)).toBe(notice.isOverdue(when));
            expect(blocked(false)).toBe(false);
            // Once overdue, the surcharge is owed on top of the fine (or the reduced fine).
            if (after.status === 'overdue')
              expect(notice.amountDue(when) + after.paid).toBe(
                (after.decision?.amount ?? after.fine) + after.surcharge,
              );
          }
        },
      ),
    );
  });
});
