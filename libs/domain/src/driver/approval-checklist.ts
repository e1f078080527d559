import { DomainError } from '../shared/domain-error';

/**
 * The assembly's driver checks; `true` means the check passed. `criminalRecord: true` means the criminal-record check
 * was done and is clear (not that the driver has a record).
 */
export const APPROVAL_ITEMS = ['validLicense', 'hasSmartPhone', 'canUseMap', 'criminalRecord'] as const;
export type ApprovalItem = (typeof APPROVAL_ITEMS)[number];
export type ApprovalChecklist = Readonly<Record<ApprovalItem, boolean>>;

export function parseApprovalChecklist(raw: unknown): ApprovalChecklist {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new DomainError('INVALID_CHECKLIST', `approvalChecklist must be an object with ${APPROVAL_ITEMS.join(', ')}`, 'approvalChecklist');
  }
  const given = raw as Record<string, unknown>;
  const extra = Object.keys(given).filter((key) => !(APPROVAL_ITEMS as readonly string[]).includes(key));
  const missing = APPROVAL_ITEMS.filter((item) => typeof given[item] !== 'boolean');
  if (extra.length > 0 || missing.length > 0) {
    const parts = [extra.length ? `unknown items: ${extra.join(', ')}` : '', missing.length ? `needs true/false for: ${missing.join(', ')}` : ''];
    throw new DomainError('INVALID_CHECKLIST', `approvalChecklist ${parts.filter(Boolean).join('; ')}`, 'approvalChecklist');
  }
  const out = {} as Record<ApprovalItem, boolean>;
  for (const item of APPROVAL_ITEMS) out[item] = given[item] as boolean;
  return out;
}
