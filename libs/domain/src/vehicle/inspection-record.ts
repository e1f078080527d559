import { requireText } from '../shared/contact';
import { DomainError } from '../shared/domain-error';
import { assertObjectId } from '../shared/id-generator';
import type { GeoPoint } from '../shared/geo-point';
import type { InspectionDefects, RecordedInspectionChecklist } from './inspection-checklist';
import {
  windowEnd,
  type InspectionAdvisories,
  type InspectionGrades,
  type InspectionOutcome,
} from './inspection-grades';

/** An owner's appeal of an inspection, lodged by assembly staff and decided by an approver who took no part. */
export interface InspectionAppeal {
  readonly lodgedBy: string;
  readonly lodgedAt: Date;
  /** The owner's grounds, as staff wrote them down. */
  readonly grounds: string;
  readonly decidedBy?: string;
  readonly decidedAt?: Date;
  /** `upheld`: the inspection stands; `reinspection`: another inspector re-inspects the failed items, free. */
  readonly decision?: AppealDecision;
}

export const APPEAL_DECISIONS = ['upheld', 'reinspection'] as const;
export type AppealDecision = (typeof APPEAL_DECISIONS)[number];
export const APPEAL_GROUNDS_MAX = 1000;

/**
 * One inspection in a vehicle's history (the vehicle row holds only the last one). A re-inspection is linked to the
 * inspection it follows; the request's idempotency key (when it had one) lets later evidence join the inspection.
 */
export interface InspectionRecord {
  readonly id: string;
  readonly vehicleId: string;
  readonly kind: 'inspection' | 'reinspection';
  /** A re-inspection: the inspection it follows. */
  readonly reinspectionOf?: string;
  readonly checklist: RecordedInspectionChecklist;
  readonly grades: InspectionGrades;
  readonly defects: InspectionDefects;
  readonly advisories: InspectionAdvisories;
  readonly outcome: InspectionOutcome;
  readonly inspectorId: string;
  readonly madeAt: Date;
  readonly receivedAt: Date;
  readonly location?: GeoPoint;
  /** A failed inspection: the end of its re-inspection window. */
  readonly reinspectionDueBy?: Date;
  readonly idempotencyKey?: string;
  readonly appeal?: InspectionAppeal;
}

export const AppealErrors = {
  notAppealable: () =>
    new DomainError('APPEAL_NOT_ALLOWED', 'Only a failed or prohibited inspection may be appealed: this one passed'),
  windowClosed: (days: number) =>
    new DomainError(
      'APPEAL_WINDOW_CLOSED',
      `An appeal must be lodged within ${days} days of the inspection; that time has passed`,
    ),
  alreadyLodged: () => new DomainError('APPEAL_ALREADY_LODGED', 'This inspection has an appeal already'),
  notLodged: () => new DomainError('APPEAL_NOT_LODGED', 'This inspection has no appeal to decide'),
  alreadyDecided: () => new DomainError('APPEAL_ALREADY_DECIDED', 'This appeal is decided already'),
  deciderTookPart: () =>
    new DomainError(
      'APPEAL_DECIDER_TOOK_PART',
      'The appeal is decided by an approver who took no part: neither the inspector nor who lodged it',
    ),
};

/**
 * Lodges the owner's appeal of an inspection: only a failed or prohibited one, once, within `appealDays` days of when
 * it was made.
 */
export function lodgeAppeal(
  record: InspectionRecord,
  input: { lodgedBy: string; grounds: unknown },
  at: Date,
  appealDays: number,
): InspectionRecord {
  if (record.appeal) throw AppealErrors.alreadyLodged();
  if (record.outcome !== 'failed' && record.outcome !== 'prohibited') throw AppealErrors.notAppealable();
  if (at > windowEnd(record.madeAt, appealDays)) throw AppealErrors.windowClosed(appealDays);
  const appeal: InspectionAppeal = {
    lodgedBy: assertObjectId(input.lodgedBy, 'lodgedBy'),
    lodgedAt: at,
    grounds: requireText(input.grounds, 'grounds', APPEAL_GROUNDS_MAX),
  };
  return { ...record, appeal };
}

/**
 * Decides a lodged appeal: `upheld` or `reinspection` (by another inspector). The decider took no part: not the
 * inspector, not who lodged it (whether they may decide at all, an approver's duty, the caller checks).
 */
export function decideAppeal(
  record: InspectionRecord,
  input: { decidedBy: string; decision: unknown },
  at: Date,
): InspectionRecord {
  const appeal = record.appeal;
  if (!appeal) throw AppealErrors.notLodged();
  if (appeal.decision) throw AppealErrors.alreadyDecided();
  if (!(APPEAL_DECISIONS as readonly unknown[]).includes(input.decision)) {
    throw new DomainError('INVALID_VALUE', `decision must be one of ${APPEAL_DECISIONS.join(', ')}`, 'decision');
  }
  const decidedBy = assertObjectId(input.decidedBy, 'decidedBy');
  if (decidedBy === record.inspectorId || decidedBy === appeal.lodgedBy) throw AppealErrors.deciderTookPart();
  return { ...record, appeal: { ...appeal, decidedBy, decidedAt: at, decision: input.decision as AppealDecision } };
}
