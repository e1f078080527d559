import { everyItemPassed, parseChecklist } from '../shared/checklist';

/**
 * The assembly's driver checks; `true` means the check passed. `criminalRecord: true` means the criminal-record check
 * was done and is clear (not that the driver has a record).
 */
export const APPROVAL_ITEMS = ['validLicense', 'hasSmartPhone', 'canUseMap', 'criminalRecord'] as const;
export type ApprovalItem = (typeof APPROVAL_ITEMS)[number];
export type ApprovalChecklist = Readonly<Record<ApprovalItem, boolean>>;

/** A checklist on which every check passed: what approval needs (a fresh object each time). */
export function allChecksPassed(): ApprovalChecklist {
  return everyItemPassed(APPROVAL_ITEMS);
}

/** The checks that failed, in the checklist's order: an approval needs none. */
export function failedApprovalItems(checklist: ApprovalChecklist): ApprovalItem[] {
  return APPROVAL_ITEMS.filter((item) => !checklist[item]);
}

export function parseApprovalChecklist(raw: unknown): ApprovalChecklist {
  return parseChecklist(raw, APPROVAL_ITEMS, 'approvalChecklist');
}
