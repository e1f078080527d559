import { everyItemPassed, parseChecklist } from '../shared/checklist';
import { requireText } from '../shared/contact';
import { DomainError } from '../shared/domain-error';

/** The ten items of the assembly's vehicle inspection. `true` means the item passed. */
export const INSPECTION_ITEMS = [
  'spareTire',
  'headlights',
  'tailLights',
  'turnSignals',
  'brakeLights',
  'fireExtinguisher',
  'emergencySignals',
  'seatBelts',
  'brakes',
  'licensePlate',
] as const;

export type InspectionItem = (typeof INSPECTION_ITEMS)[number];
/** An inspection's result on every item: what an inspection here records. */
export type InspectionChecklist = Readonly<Record<InspectionItem, boolean>>;
/**
 * A stored checklist: an item absent was not recorded (an inspection on an older, shorter version of the original
 * service's checklist, kept by the importer). Not recorded is never a pass: approval needs every item recorded.
 */
export type RecordedInspectionChecklist = Readonly<Partial<Record<InspectionItem, boolean>>>;

/** Exactly the ten items, each a boolean: a missing, extra or non-boolean item is refused, never guessed. */
export function parseInspectionChecklist(raw: unknown): InspectionChecklist {
  return parseChecklist(raw, INSPECTION_ITEMS, 'inspectionChecklist');
}

/**
 * A stored or imported checklist: today's items, each a boolean, some of which an older version of the checklist did
 * not have (not recorded). An extra or non-boolean item is still refused, as is a checklist recording none.
 */
export function parseRecordedInspectionChecklist(raw: unknown): RecordedInspectionChecklist {
  const given = raw !== null && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
  const recorded = INSPECTION_ITEMS.filter((item) => item in given);
  if (recorded.length === 0) return parseInspectionChecklist(raw);
  return parseChecklist(raw, recorded, 'inspectionChecklist');
}

/**
 * The outcome of an inspection as the lists filter it: `failed` when an item failed, `passed` when every item passed,
 * else `incomplete` (items not recorded, none failed: neither, and never a pass).
 */
export function inspectionOutcome(checklist: RecordedInspectionChecklist): 'passed' | 'failed' | 'incomplete' {
  if (failedInspectionItems(checklist).length > 0) return 'failed';
  return unrecordedInspectionItems(checklist).length > 0 ? 'incomplete' : 'passed';
}

/** The items a stored checklist holds no result for (none on a checklist recorded here). */
export function unrecordedInspectionItems(checklist: RecordedInspectionChecklist): InspectionItem[] {
  return INSPECTION_ITEMS.filter((item) => checklist[item] === undefined);
}

/** A checklist on which every item passed: what approval needs (a fresh object each time). */
export function allPassed(): InspectionChecklist {
  return everyItemPassed(INSPECTION_ITEMS);
}

/** The items that failed (`false`); an item not recorded is neither failed nor passed (unrecordedInspectionItems). */
export function failedInspectionItems(checklist: RecordedInspectionChecklist): InspectionItem[] {
  return INSPECTION_ITEMS.filter((item) => checklist[item] === false);
}

/** An inspector's note on each failed item that has one (`{ brakes: 'Front pads worn through' }`). */
export type InspectionDefects = Readonly<Partial<Record<InspectionItem, string>>>;
export const DEFECT_NOTE_MAX = 500;

/**
 * Notes on the failed items of a checklist: none (absent or null) or an object with a note (plain text, 1 to 500
 * characters) per failed item. A note on an item that passed, or on no inspection item, is refused: it would say a
 * defect the checklist does not record.
 */
export function parseInspectionDefects(raw: unknown, checklist: RecordedInspectionChecklist): InspectionDefects {
  if (raw === undefined || raw === null) return {};
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    throw new DomainError('INVALID_VALUE', 'defects must be an object of notes by failed item', 'defects');
  }
  const out: Partial<Record<InspectionItem, string>> = {};
  for (const [item, note] of Object.entries(raw as Record<string, unknown>)) {
    if (!(INSPECTION_ITEMS as readonly string[]).includes(item)) {
      throw new DomainError('INVALID_VALUE', `defects.${item} names no inspection item`, `defects.${item}`);
    }
    if (checklist[item as InspectionItem]) {
      throw new DomainError(
        'INVALID_VALUE',
        `defects.${item}: a defect note is for a failed item, and ${item} passed`,
        `defects.${item}`,
      );
    }
    out[item as InspectionItem] = requireText(note, `defects.${item}`, DEFECT_NOTE_MAX);
  }
  return out;
}
