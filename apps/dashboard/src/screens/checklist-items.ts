import { INSPECTION_ITEMS, type InspectionItem } from '@transport/domain';

/**
 * The items a vehicle's checklist holds no result for, in words (`names`: the language's item names): a vehicle
 * imported from the original service, inspected on an older, shorter checklist. Never a pass: the API refuses its
 * approval until it is inspected again. None for a vehicle not inspected.
 */
export function notRecordedItems(
  checklist: Partial<Record<InspectionItem, boolean>> | undefined,
  names: Readonly<Record<string, string>>,
): string[] {
  return checklist ? INSPECTION_ITEMS.filter((item) => checklist[item] === undefined).map((item) => names[item]) : [];
}
