import type { AssemblyRole } from '../assembly/assembly-user';
import { DomainError } from '../shared/domain-error';
import { INSPECTION_ITEMS, type InspectionItem, type RecordedInspectionChecklist } from './inspection-checklist';
import { gradeOf, type InspectionGrades } from './inspection-grades';

/** What an inspection photo shows: the plate, the VIN, or one checklist item (a failed one, as evidence). */
export const INSPECTION_PHOTO_KINDS = ['plate', 'vin', 'item'] as const;
export type InspectionPhotoKind = (typeof INSPECTION_PHOTO_KINDS)[number];

export type InspectionPhotoSubject = { kind: 'plate' | 'vin' } | { kind: 'item'; item: InspectionItem };

/** A photo's kind and item as sent: `item` names a checklist item for kind `item`, and is absent otherwise. */
export function parseInspectionPhotoSubject(kind: unknown, item: unknown): InspectionPhotoSubject {
  if (!INSPECTION_PHOTO_KINDS.includes(kind as InspectionPhotoKind))
    throw new DomainError('INVALID_VALUE', `kind must be one of ${INSPECTION_PHOTO_KINDS.join(', ')}`, 'kind');
  if (kind !== 'item') {
    if (item !== undefined)
      throw new DomainError('INVALID_VALUE', `item goes with kind=item only (this photo is of the ${kind})`, 'item');
    return { kind: kind as 'plate' | 'vin' };
  }
  if (!INSPECTION_ITEMS.includes(item as InspectionItem))
    throw new DomainError(
      'INVALID_VALUE',
      `item must be one of the checklist's items (${INSPECTION_ITEMS.join(', ')}) for kind=item`,
      'item',
    );
  return { kind: 'item', item: item as InspectionItem };
}

/**
 * Who sees where a photo was taken (its EXIF location and the place the device sent): the national admins, and an
 * assembly's approvers and admins, who review inspections and their signs of fraud. Inspectors (and everyone else)
 * get the photo without it: where inspectors stand through the day is theirs, not their colleagues'.
 */
export const PHOTO_LOCATION_READERS: readonly AssemblyRole[] = ['approver', 'admin'];

export function seesPhotoLocation(
  reader: { role: 'admin' } | { role: 'assembly'; assemblyRole: AssemblyRole },
): boolean {
  return reader.role === 'admin' || PHOTO_LOCATION_READERS.includes(reader.assemblyRole);
}

/**
 * The photos an inspection needs where an assembly requires them: the plate, the VIN, and one of each failed item
 * graded dangerous or major (a minor defect's photo is welcome, not required). A re-inspection needs only its items'.
 */
export function requiredInspectionPhotos(
  checklist: RecordedInspectionChecklist,
  grades: InspectionGrades,
  kind: 'inspection' | 'reinspection' = 'inspection',
): InspectionPhotoSubject[] {
  const items = INSPECTION_ITEMS.filter((item) => checklist[item] === false && gradeOf(grades, item) !== 'minor');
  return [
    ...(kind === 'inspection' ? [{ kind: 'plate' } as const, { kind: 'vin' } as const] : []),
    ...items.map((item) => ({ kind: 'item', item }) as const),
  ];
}

/** The required photos not among those sent (each sent photo counts for its kind and item). */
export function missingInspectionPhotos(
  required: readonly InspectionPhotoSubject[],
  sent: readonly { kind: string; item?: string }[],
): InspectionPhotoSubject[] {
  return required.filter(
    (need) => !sent.some((p) => p.kind === need.kind && (need.kind !== 'item' || p.item === need.item)),
  );
}
