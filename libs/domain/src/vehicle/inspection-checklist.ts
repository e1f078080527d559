import { parseChecklist } from '../shared/checklist';

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
  return parseChecklist(raw, INSPECTION_ITEMS, 'inspectionChecklist');
}

export function failedInspectionItems(checklist: InspectionChecklist): InspectionItem[] {
  return INSPECTION_ITEMS.filter((item) => !checklist[item]);
}
