import { allChecksPassed, APPROVAL_ITEMS, failedApprovalItems } from './approval-checklist';

describe("the driver's approval checklist", () => {
  it('has one checklist on which every one of the four checks passed, a fresh copy each time', () => {
    const checklist = allChecksPassed();
    expect(Object.keys(checklist)).toEqual([...APPROVAL_ITEMS]);
    expect(Object.values(checklist).every((passed) => passed === true)).toBe(true);
    expect(failedApprovalItems(checklist)).toEqual([]);
    expect(allChecksPassed()).not.toBe(checklist);
  });
});
