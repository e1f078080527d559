import fc from 'fast-check';
import { failedInspectionItems, INSPECTION_ITEMS } from './inspection-checklist';
import { Vehicle } from './vehicle';
import { APPROVER, days, INSPECTOR, ports, T0, vehicleInput, onlyRefusals } from '../testing/fixtures';

const checklist = fc.record(
  Object.fromEntries(INSPECTION_ITEMS.map((i) => [i, fc.boolean()])) as Record<
    (typeof INSPECTION_ITEMS)[number],
    fc.Arbitrary<boolean>
  >,
);
const step = fc.oneof(
  fc.record({ op: fc.constant('inspect' as const), checklist }),
  fc.record({ op: fc.constant('approve' as const), day: fc.integer({ min: 0, max: 400 }) }),
  fc.record({ op: fc.constant('linkDriver' as const), approved: fc.boolean(), verified: fc.boolean() }),
  fc.record({ op: fc.constant('unlinkDriver' as const) }),
);

describe('Vehicle state machine (property)', () => {
  it('never has an approval without a fully passed inspection, nor a driver without an approval', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 30 }), (steps) => {
        const v = Vehicle.register(vehicleInput(), ports().ids, T0);
        let day = 1;
        for (const s of steps) {
          const at = days(day++);
          try {
            if (s.op === 'inspect') v.inspect(s.checklist, INSPECTOR, at);
            else if (s.op === 'approve') v.approve(APPROVER, days(s.day));
            else if (s.op === 'linkDriver')
              v.linkDriver({ id: '65a0000000000000000000dd', approved: s.approved, verified: s.verified }, at);
            else v.unlinkDriver(at);
          } catch (error) {
            onlyRefusals(error); // refusals are expected; the invariants below must hold either way
          }
          const state = v.toState();
          if (state.approved) {
            expect(state.inspected).toBe(true);
            expect(failedInspectionItems(state.inspectionChecklist!)).toEqual([]);
            expect(state.approvedBy).toBe(APPROVER);
          } else {
            expect(state.approvedBy).toBeUndefined();
          }
          if (state.driverId !== undefined) expect(state.approved).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('leaves the vehicle unchanged whenever a transition is refused', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 20 }), (steps) => {
        const v = Vehicle.register(vehicleInput(), ports().ids, T0);
        let day = 1;
        for (const s of steps) {
          const before = v.toState();
          try {
            if (s.op === 'inspect') v.inspect(s.checklist, INSPECTOR, days(day++));
            else if (s.op === 'approve') v.approve(APPROVER, days(s.day));
            else if (s.op === 'linkDriver')
              v.linkDriver({ id: '65a0000000000000000000dd', approved: s.approved, verified: s.verified }, days(day++));
            else v.unlinkDriver(days(day++));
          } catch (error) {
            onlyRefusals(error);
            expect(v.toState()).toEqual(before);
          }
        }
      }),
      { numRuns: 200 },
    );
  });
});
