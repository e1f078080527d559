import { requireText } from '../shared/contact';
import { DomainError } from '../shared/domain-error';
import {
  DEFECT_NOTE_MAX,
  failedInspectionItems,
  INSPECTION_ITEMS,
  unrecordedInspectionItems,
  type InspectionItem,
  type RecordedInspectionChecklist,
} from './inspection-checklist';

/**
 * How serious a failed item is (the grading of the UK's MOT): `dangerous` prohibits use at once, `major` fails the
 * inspection with days to fix it, `minor` passes with advice.
 */
export const DEFECT_GRADES = ['dangerous', 'major', 'minor'] as const;
export type DefectGrade = (typeof DEFECT_GRADES)[number];
/** The grade of each failed item (a failed item without one reads as `major`: what every older inspection was). */
export type InspectionGrades = Readonly<Partial<Record<InspectionItem, DefectGrade>>>;
/** An inspector's advice on items that passed ({ headlights: 'Lens cloudy: clean or replace soon' }). */
export type InspectionAdvisories = Readonly<Partial<Record<InspectionItem, string>>>;

/**
 * What an inspection decides:
 * - `passed`: every item passed;
 * - `passedWithAdvice`: only minor defects: approvable, the owner is advised;
 * - `failed`: a major defect and no dangerous one: not approvable, with days to fix and a free re-inspection;
 * - `prohibited`: a dangerous defect: not approvable, and an approved vehicle loses its approval at once;
 * - `incomplete`: an imported checklist of an older version with items not recorded and no defect that decides.
 */
export const INSPECTION_OUTCOMES = ['passed', 'passedWithAdvice', 'failed', 'prohibited', 'incomplete'] as const;
export type InspectionOutcome = (typeof INSPECTION_OUTCOMES)[number];

/** The days to fix majors before a full inspection is due again, unless the assembly sets its own. */
export const DEFAULT_DAYS_TO_FIX = 14;
/** The days after an inspection within which its appeal may be lodged, unless the assembly sets its own. */
export const DEFAULT_APPEAL_DAYS = 15;
/** An assembly's inspection settings, in days. */
export interface InspectionSettings {
  /** Days to fix major defects: the re-inspection window. */
  readonly daysToFix: number;
  /** Days after an inspection within which its appeal may be lodged. */
  readonly appealDays: number;
  /**
   * Photos required (the default): the plate, the VIN and each failed item graded dangerous or major
   * (`requiredInspectionPhotos`). The dashboard's form asks for them, and an approval waits for the plate and VIN.
   */
  readonly photosRequired: boolean;
}

/** An assembly's settings with the defaults for those it has not set. */
export function inspectionSettingsOf(set: {
  daysToFix?: number | null;
  appealDays?: number | null;
  photosRequired?: boolean | null;
}): InspectionSettings {
  return {
    daysToFix: set.daysToFix ?? DEFAULT_DAYS_TO_FIX,
    appealDays: set.appealDays ?? DEFAULT_APPEAL_DAYS,
    photosRequired: set.photosRequired ?? true,
  };
}

/** The bounds of either assembly setting (days). */
export const INSPECTION_SETTING_DAYS = { min: 1, max: 90 } as const;

const DAY_MS = 86_400_000;

/** The grade a failed item has: its own, else `major` (an inspection recorded before grades, or sent without). */
export function gradeOf(grades: InspectionGrades | undefined, item: InspectionItem): DefectGrade {
  return grades?.[item] ?? 'major';
}

/**
 * The grades of an inspection's failed items: none given (absent or null) grades every failed item `major` (what a
 * client that predates grades means); else an object of grades by failed item, a failed item left out is `major`. A
 * grade on an item that passed, on no item, or not one of DEFECT_GRADES is refused (INVALID_VALUE), never guessed.
 */
export function parseInspectionGrades(raw: unknown, checklist: RecordedInspectionChecklist): InspectionGrades {
  if (raw !== undefined && raw !== null && (typeof raw !== 'object' || Array.isArray(raw))) {
    throw new DomainError('INVALID_VALUE', 'grades must be an object of grades by failed item', 'grades');
  }
  const given = (raw ?? {}) as Record<string, unknown>;
  for (const [item, grade] of Object.entries(given)) {
    if (!(INSPECTION_ITEMS as readonly string[]).includes(item)) {
      throw new DomainError('INVALID_VALUE', `grades.${item} names no inspection item`, `grades.${item}`);
    }
    if (checklist[item as InspectionItem] !== false) {
      throw new DomainError(
        'INVALID_VALUE',
        `grades.${item}: a grade is for a failed item, and ${item} did not fail`,
        `grades.${item}`,
      );
    }
    if (!(DEFECT_GRADES as readonly unknown[]).includes(grade)) {
      throw new DomainError(
        'INVALID_VALUE',
        `grades.${item} must be one of ${DEFECT_GRADES.join(', ')}`,
        `grades.${item}`,
      );
    }
  }
  return Object.fromEntries(
    failedInspectionItems(checklist).map((item) => [item, (given[item] as DefectGrade | undefined) ?? 'major']),
  );
}

/**
 * Advice on items that passed: none (absent or null) or an object with a note (plain text, 1 to 500 characters) per
 * passed item. Advice on a failed item (that is a defect note) or on no item is refused.
 */
export function parseInspectionAdvisories(raw: unknown, checklist: RecordedInspectionChecklist): InspectionAdvisories {
  if (raw === undefined || raw === null) return {};
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    throw new DomainError('INVALID_VALUE', 'advisories must be an object of notes by passed item', 'advisories');
  }
  const out: Partial<Record<InspectionItem, string>> = {};
  for (const [item, note] of Object.entries(raw as Record<string, unknown>)) {
    if (!(INSPECTION_ITEMS as readonly string[]).includes(item) || checklist[item as InspectionItem] !== true) {
      throw new DomainError(
        'INVALID_VALUE',
        `advisories.${item}: an advisory note is for an item that passed (a failed item's note goes in defects)`,
        `advisories.${item}`,
      );
    }
    out[item as InspectionItem] = requireText(note, `advisories.${item}`, DEFECT_NOTE_MAX);
  }
  return out;
}

/** The failed items that stop approval: every failed item but a minor one. */
export function blockingInspectionItems(
  checklist: RecordedInspectionChecklist,
  grades: InspectionGrades | undefined,
): InspectionItem[] {
  return failedInspectionItems(checklist).filter((item) => gradeOf(grades, item) !== 'minor');
}

/** The failed items graded dangerous. */
export function dangerousInspectionItems(
  checklist: RecordedInspectionChecklist,
  grades: InspectionGrades | undefined,
): InspectionItem[] {
  return failedInspectionItems(checklist).filter((item) => gradeOf(grades, item) === 'dangerous');
}

/** The outcome the grades decide (INSPECTION_OUTCOMES): the worst grade wins. */
export function gradedOutcome(
  checklist: RecordedInspectionChecklist,
  grades: InspectionGrades | undefined,
): InspectionOutcome {
  const failed = failedInspectionItems(checklist);
  if (dangerousInspectionItems(checklist, grades).length > 0) return 'prohibited';
  if (blockingInspectionItems(checklist, grades).length > 0) return 'failed';
  if (unrecordedInspectionItems(checklist).length > 0) return 'incomplete';
  return failed.length > 0 ? 'passedWithAdvice' : 'passed';
}

/** An assembly's setting in whole days (INSPECTION_SETTING_DAYS): anything else is refused. */
export function parseSettingDays(raw: unknown, field: string): number {
  const { min, max } = INSPECTION_SETTING_DAYS;
  if (typeof raw !== 'number' || !Number.isInteger(raw) || raw < min || raw > max) {
    throw new DomainError('INVALID_NUMBER', `${field} must be a whole number of days from ${min} to ${max}`, field);
  }
  return raw;
}

/** The instant `days` whole days after `from`: the end of a window opened at `from`. */
export function windowEnd(from: Date, days: number): Date {
  return new Date(from.getTime() + days * DAY_MS);
}

/**
 * A re-inspection's results merged into the inspection it follows: `raw` must give exactly the items that failed
 * before (each true or false), and only those: the items that passed stand as they were. Returns the whole checklist.
 */
export function reinspectionChecklist(
  previous: RecordedInspectionChecklist,
  raw: unknown,
): RecordedInspectionChecklist {
  const failed = failedInspectionItems(previous);
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new DomainError(
      'INVALID_CHECKLIST',
      `inspectionChecklist must be an object with the items that failed: ${failed.join(', ')}`,
      'inspectionChecklist',
    );
  }
  const given = raw as Record<string, unknown>;
  const extra = Object.keys(given).filter((key) => !(failed as string[]).includes(key));
  const missing = failed.filter((item) => typeof given[item] !== 'boolean');
  if (extra.length > 0 || missing.length > 0) {
    const parts = [
      extra.length ? `not failed before (a re-inspection looks only at the failed items): ${extra.join(', ')}` : '',
      missing.length ? `needs true/false for: ${missing.join(', ')}` : '',
    ];
    throw new DomainError(
      'INVALID_CHECKLIST',
      `inspectionChecklist ${parts.filter(Boolean).join('; ')}`,
      'inspectionChecklist',
    );
  }
  const out: Partial<Record<InspectionItem, boolean>> = { ...previous };
  for (const item of failed) out[item] = given[item] as boolean;
  return out;
}
