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
export type InspectionChecklist = Readonly<Record<InspectionItem, boolean>>;

/** Exactly the ten items, each a boolean: a missing, extra or non-boolean item is refused, never guessed. */
export function parseInspectionChecklist(raw: unknown): InspectionChecklist {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new DomainError('INVALID_CHECKLIST', `inspectionChecklist must be an object with the items ${INSPECTION_ITEMS.join(', ')}`, 'inspectionChecklist');
  }
  const given = raw as Record<string, unknown>;
  const extra = Object.keys(given).filter((key) => !(INSPECTION_ITEMS as readonly string[]).includes(key));
  if (extra.length > 0) {
    throw new DomainError('INVALID_CHECKLIST', `inspectionChecklist has unknown items: ${extra.join(', ')}`, 'inspectionChecklist');
  }
  const missing = INSPECTION_ITEMS.filter((item) => typeof given[item] !== 'boolean');
  if (missing.length > 0) {
    throw new DomainError('INVALID_CHECKLIST', `inspectionChecklist needs a true/false value for: ${missing.join(', ')}`, 'inspectionChecklist');
  }
  const checklist = {} as Record<InspectionItem, boolean>;
  for (const item of INSPECTION_ITEMS) checklist[item] = given[item] as boolean;
  return checklist;
}

export function failedInspectionItems(checklist: InspectionChecklist): InspectionItem[] {
  return INSPECTION_ITEMS.filter((item) => !checklist[item]);
}
