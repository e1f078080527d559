import { allPassed, failedInspectionItems, INSPECTION_ITEMS } from './inspection-checklist';

describe('the inspection checklist', () => {
  it('has one checklist on which every one of the ten items passed, a fresh copy each time', () => {
    const checklist = allPassed();
    expect(Object.keys(checklist)).toEqual([...INSPECTION_ITEMS]);
    expect(Object.values(checklist).every((passed) => passed === true)).toBe(true);
    expect(failedInspectionItems(checklist)).toEqual([]);
    expect(allPassed()).not.toBe(checklist);
  });
});
