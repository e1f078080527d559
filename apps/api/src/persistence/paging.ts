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
  // The leading bound is implied by the OR, but it is what the index can start from (see read-db.ts, afterRow).
  return {
    createdAt: { lte: anchor.createdAt },
    OR: [{ createdAt: { lt: anchor.createdAt } }, { createdAt: anchor.createdAt, id: { lt: anchor.id } }],
  };
}

/**
 * A page and, when asked for, the total its filters match, read side by side. Both run to a handled end: when the
 * page's query fails, the count's failure (if any) is not left as an unhandled rejection, which would end the process.
 */
export async function withTotal<E>(page: () => Promise<Page<E>>, total?: () => Promise<number>): Promise<Page<E>> {
  const [read, counted] = await Promise.all([page(), total?.()]);
  return counted === undefined ? read : { ...read, total: counted };
}

/** Fetches one row more than asked, to tell whether a next page exists. */
export function toPage<R extends { id: string }, E>(
  rows: R[],
  request: PageRequest<string>,
  map: (row: R) => E,
): Page<E> {
  const hasMore = rows.length > request.limit;
  const slice = hasMore ? rows.slice(0, request.limit) : rows;
  return { items: slice.map(map), next: hasMore ? slice[slice.length - 1].id : undefined };
}

/** What a newest-first list needs of a Prisma model delegate (regions, assemblies, stations, unions, users). */
export interface NewestFirstModel<R> {
  findUnique(args: { where: { id: string }; select: { id: true; createdAt: true } }): Promise<Keyed | null>;
  findMany(args: { where: object; orderBy: typeof NEWEST_FIRST; take: number }): Promise<R[]>;
  count(args: { where: object }): Promise<number>;
}

/** One newest-first keyset page of a model, on its (createdAt DESC, id DESC) index, narrowed by `where`. */
export async function newestFirstPage<R extends { id: string }, E>(
  model: NewestFirstModel<R>,
  request: PageRequest,
  map: (row: R) => E,
  where: object = {},
): Promise<Page<E>> {
  return withTotal(
    async () => {
      let after = {};
      if (request.after !== undefined) {
        const condition = afterCondition(
          await model.findUnique({ where: { id: request.after }, select: { id: true, createdAt: true } }),
        );
        if (!condition) return { items: [] };
        after = condition;
      }
      const rows = await model.findMany({
        where: { AND: [where, after] },
        orderBy: NEWEST_FIRST,
        take: request.limit + 1,
      });
      return toPage(rows, request, map);
    },
    request.count ? () => model.count({ where }) : undefined,
  );
}
