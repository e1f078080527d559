import fc from 'fast-check';
import { APPROVER, days, INSPECTOR, onlyRefusals, ports, T0, vehicleInput } from '../testing/fixtures';
import { failedInspectionItems, INSPECTION_ITEMS, type InspectionItem } from './inspection-checklist';
import {
  blockingInspectionItems,
  DEFECT_GRADES,
  gradedOutcome,
  parseInspectionGrades,
  windowEnd,
  type DefectGrade,
} from './inspection-grades';
import { Vehicle } from './vehicle';

const OTHER_INSPECTOR = '65a0000000000000000000e1';
const item = fc.constantFrom(...INSPECTION_ITEMS);
/** A checklist with its failed items graded (some left out: they read as major). */
const graded = fc.dictionary(item, fc.option(fc.constantFrom(...DEFECT_GRADES), { nil: undefined })).map((failed) => {
  const checklist = Object.fromEntries(INSPECTION_ITEMS.map((i) => [i, !(i in failed)])) as Record<
    InspectionItem,
    boolean
  >;
  const grades = Object.fromEntries(
    Object.entries(failed).filter(([, g]) => g !== undefined) as [InspectionItem, DefectGrade][],
  );
  return { checklist, grades };
});

describe('graded outcomes (property)', () => {
  it('the worst grade decides: dangerous prohibits, major fails, minor alone passes with advice', () => {
    fc.assert(
      fc.property(graded, ({ checklist, grades }) => {
        const full = parseInspectionGrades(grades, checklist);
        const values = Object.values(full);
        expect(Object.keys(full).sort()).toEqual(failedInspectionItems(checklist).sort());
        const expected = values.includes('dangerous')
          ? 'prohibited'
          : values.includes('major')
            ? 'failed'
            : values.length > 0
              ? 'passedWithAdvice'
              : 'passed';
        expect(gradedOutcome(checklist, full)).toBe(expected);
        expect(gradedOutcome(checklist, grades)).toBe(expected); // a missing grade reads as major either way
      }),
    );
  });

  it('a vehicle is approvable exactly when the outcome passes, and approval never stands with a blocking defect', () => {
    const step = fc.oneof(
      fc.record({ op: fc.constant('inspect' as const), graded, daysToFix: fc.integer({ min: 1, max: 90 }) }),
      fc.record({ op: fc.constant('reinspect' as const), pass: fc.boolean(), other: fc.boolean() }),
      fc.record({ op: fc.constant('approve' as const) }),
      fc.record({ op: fc.constant('order' as const), daysToFix: fc.integer({ min: 1, max: 90 }) }),
      fc.record({ op: fc.constant('wait' as const), days: fc.integer({ min: 0, max: 40 }) }),
    );
    fc.assert(
      fc.property(fc.array(step, { maxLength: 25 }), (steps) => {
        const v = Vehicle.register(vehicleInput({ roadWorthyExpiryDate: days(5000) }), ports().ids, T0);
        let day = 1;
        let n = 0;
        for (const s of steps) {
          const at = days(day++);
          const before = v.toState();
          try {
            if (s.op === 'inspect') {
              v.inspect(s.graded.checklist, INSPECTOR, at, undefined, undefined, {
                grades: s.graded.grades,
                daysToFix: s.daysToFix,
                inspectionId: `65a00000000000000000${(n++).toString(16).padStart(4, '0')}`,
              });
              const outcome = gradedOutcome(s.graded.checklist, s.graded.grades);
              expect(v.toState().reinspectionDueBy).toEqual(
                outcome === 'failed' ? windowEnd(at, s.daysToFix) : undefined,
              );
            } else if (s.op === 'reinspect') {
              const results = Object.fromEntries(
                failedInspectionItems(before.inspectionChecklist ?? {}).map((i) => [i, s.pass]),
              );
              v.reinspect(results, s.other ? OTHER_INSPECTOR : INSPECTOR, at);
              // Only within an open window, never by the inspector an appeal excluded.
              expect(before.reinspectionDueBy!.getTime()).toBeGreaterThanOrEqual(at.getTime());
              expect(before.reinspectionNotBy).not.toBe(s.other ? OTHER_INSPECTOR : INSPECTOR);
              expect(v.toState().reinspectionDueBy).toBeUndefined();
            } else if (s.op === 'approve') {
              v.approve(APPROVER, at);
              expect(['passed', 'passedWithAdvice']).toContain(
                gradedOutcome(before.inspectionChecklist!, before.inspectionGrades),
              );
            } else if (s.op === 'order') {
              v.orderReinspection(before.inspectionId ?? 'none', INSPECTOR, at, s.daysToFix);
            } else day += s.days;
          } catch (error) {
            onlyRefusals(error);
            expect(v.toState()).toEqual(before); // a refusal changes nothing
          }
          const state = v.toState();
          if (state.approved) {
            expect(blockingInspectionItems(state.inspectionChecklist!, state.inspectionGrades)).toEqual([]);
          }
        }
      }),
    );
  });
});
