import type { Page, PageRequest } from '@transport/domain';

interface Keyed {
  id: string;
  createdAt: Date;
}

/** Newest first: the order of every list, served by the (createdAt DESC, id DESC) indexes. */
export const NEWEST_FIRST = [{ createdAt: 'desc' as const }, { id: 'desc' as const }];

/** The keyset condition "after this row" in newest-first order, or null for an unknown cursor (an empty page). */
export function afterCondition(anchor: Keyed | null | undefined) {
  if (!anchor) return null;
  return { OR: [{ createdAt: { lt: anchor.createdAt } }, { createdAt: anchor.createdAt, id: { lt: anchor.id } }] };
}

/** Fetches one row more than asked, to tell whether a next page exists. */
export function toPage<R extends { id: string }, E>(rows: R[], request: PageRequest, map: (row: R) => E): Page<E> {
  const hasMore = rows.length > request.limit;
  const slice = hasMore ? rows.slice(0, request.limit) : rows;
  return { items: slice.map(map), next: hasMore ? slice[slice.length - 1].id : undefined };
}
