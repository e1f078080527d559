import { allChecksPassed, APPROVAL_ITEMS, failedApprovalItems } from '../driver/approval-checklist';
import { allPassed, failedInspectionItems, INSPECTION_ITEMS } from '../vehicle/inspection-checklist';

/** One checklist on which every item passed: the items in their order, none failed, a fresh copy each time. */
function expectEveryItemPassed<I extends string>(
  all: () => Readonly<Record<I, boolean>>,
  items: readonly I[],
  failed: (checklist: Readonly<Record<I, boolean>>) => I[],
) {
  const checklist = all();
  expect(Object.keys(checklist)).toEqual([...items]);
  expect(Object.values(checklist).every((passed) => passed === true)).toBe(true);
  expect(failed(checklist)).toEqual([]);
  expect(all()).not.toBe(checklist);
}

describe('the checklists on which every item passed', () => {
  it('has one inspection checklist on which every one of the ten items passed, a fresh copy each time', () => {
    expectEveryItemPassed(allPassed, INSPECTION_ITEMS, failedInspectionItems);
  });

  it("has one driver's checklist on which every one of the four checks passed, a fresh copy each time", () => {
    expectEveryItemPassed(allChecksPassed, APPROVAL_ITEMS, failedApprovalItems);
  });
});
