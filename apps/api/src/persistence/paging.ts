import { sql, type Expression, type ExpressionBuilder, type SelectQueryBuilder, type SqlBool } from 'kysely';
import type { Page, PageRequest } from '@transport/domain';
import type { Sql, Tables } from './prisma-executor';

// The one pager: every list of the API pages with a cursor (the last row's id) through `keysetPage`, in its table's
// order: newest first by its (time DESC, id DESC) index, or by another indexed column when the request names one.

/** The tables listed in pages. Their time is `createdAt`, the audit log's `at`. */
export type ListedTable = Exclude<keyof Tables, 'trip_services'>;
type TimeColumn = 'createdAt' | 'at';
const timeOf = (table: ListedTable): TimeColumn => (table === 'audit_log' ? 'at' : 'createdAt');

/** The columns lists sort by; each has a (column, id) index, alone and after assemblyId (the staff's lists). */
export type SortColumn<T extends ListedTable> = Extract<keyof Tables[T], 'createdAt' | 'registrationNumber' | 'name'>;
/** Sort columns a row may lack (NULL): PostgreSQL puts NULL after every value ascending, before them descending. */
const NULLABLE: ReadonlySet<string> = new Set(['registrationNumber']);

/** A row's place in its list's order: the value of the column sorted by, then its id. */
export interface Position {
  readonly id: string | bigint;
  readonly value: unknown;
}

/** A condition on one table's rows. */
export type Condition<T extends ListedTable> = (w: ExpressionBuilder<Tables, T>) => Expression<SqlBool>;

/** No condition: every row of the table. */
export const everyRow = <T extends ListedTable>(w: ExpressionBuilder<Tables, T>) => w.and([]);

/**
 * The rows of one assembly, when one is given (the caller's jurisdiction), else every row: the scope of a staff list.
 * Every table listed this way has the column.
 */
export const inAssemblyScope =
  <T extends ListedTable>(assemblyId: string | undefined): Condition<T> =>
  (w) =>
    assemblyId === undefined ? w.and([]) : sql<SqlBool>`${sql.ref('assemblyId')} = ${assemblyId}`;

/** A LIKE pattern for `text` anywhere: LIKE's own wildcards in the text are escaped, so they match literally. */
export function containing(text: string): string {
  return `%${escapeLike(text)}%`;
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * "After the row whose `column` is `value` and id is `id`", ordered by (column, id) both ascending or both descending,
 * as a (column, id) index serves it either way. The leading bound (`column <= value` descending) is implied by the
 * rest but is what the index can start from: without it PostgreSQL walks every earlier row again on each page, and
 * paging through a large list (a CSV export) turns quadratic. `value` is never NULL here (see `orderedPage`).
 */
export function afterKey(column: string, value: unknown, id: unknown, descending: boolean): Expression<SqlBool> {
  const c = sql.ref(column);
  const [bound, beyond] = descending ? [sql.raw('<='), sql.raw('<')] : [sql.raw('>='), sql.raw('>')];
  return sql<SqlBool>`(${c} ${bound} ${value} AND (${c} ${beyond} ${value} OR (${c} = ${value} AND ${sql.ref('id')} ${beyond} ${id})))`;
}

/**
 * A page and, when asked for, the total its filters match, read side by side. Both run to a handled end: when the
 * page's query fails, the count's failure (if any) is not left as an unhandled rejection, which would end the process.
 */
async function withTotal<E>(page: () => Promise<Page<E>>, total?: () => Promise<number>): Promise<Page<E>> {
  const [read, counted] = await Promise.all([page(), total?.()]);
  return counted === undefined ? read : { ...read, total: counted };
}

/** Reads one row more than asked, to tell whether a next page exists. */
function toPage<R extends { id: string | bigint }, E>(
  rows: R[],
  request: PageRequest<string>,
  map: (row: R) => E,
): Page<E> {
  const hasMore = rows.length > request.limit;
  const slice = hasMore ? rows.slice(0, request.limit) : rows;
  return { items: slice.map(map), next: hasMore ? String(slice[slice.length - 1].id) : undefined };
}

/**
 * One keyset page: the cursor row is looked up (an unknown cursor is an empty page), then one row more than asked is
 * read to tell whether another page follows.
 */
export async function keysetPage<R extends { id: string | bigint }, E>(
  request: PageRequest<string>,
  positionOf: (id: string) => Promise<Position | undefined>,
  rows: (after: Position | undefined, take: number) => Promise<R[]>,
  map: (row: R) => E,
  /** Every row the list's filters match (no cursor): asked for with `count`. */
  count?: () => Promise<number>,
): Promise<Page<E>> {
  return withTotal(
    async () => {
      let anchor: Position | undefined;
      if (request.after !== undefined) {
        anchor = await positionOf(request.after);
        if (!anchor) return { items: [] };
      }
      return toPage(await rows(anchor, request.limit + 1), request, map);
    },
    request.count ? count : undefined,
  );
}

/** The number of rows a filtered query would return (its select list replaced by count(*)). */
export async function countRows<
  Q extends { clearSelect(): { select(e: unknown): { executeTakeFirstOrThrow(): Promise<unknown> } } },
>(query: Q): Promise<number> {
  const row = (await query
    .clearSelect()
    .select(sql<string>`count(*)`.as('n'))
    .executeTakeFirstOrThrow()) as { n: string | bigint };
  return Number(row.n);
}

/**
 * Where the row with this id stands in its table by `column`, looked for among the rows `scope` holds (the caller's:
 * their assembly's, their own payments); undefined when there is no such row there. A cursor naming a row outside the
 * caller's scope is thereby an unknown cursor, answered the same way: it tells nothing of whether, or when, that row
 * was made.
 */
export async function positionOf<T extends ListedTable>(
  db: Sql,
  table: T,
  id: string,
  scope: Condition<T>,
  column: string = timeOf(table),
): Promise<Position | undefined> {
  const row = (await db
    .selectFrom(table as ListedTable)
    .select([sql<string | bigint>`${sql.ref('id')}`.as('id'), sql<unknown>`${sql.ref(column)}`.as('value')])
    .where(sql<SqlBool>`${sql.ref('id')} = ${id}`)
    .where(scope as Condition<ListedTable>)
    .executeTakeFirst()) as Position | undefined;
  return row && { id: row.id, value: row.value };
}

/** The newest `take` rows of a filtered query after a position (from the start without one), by `createdAt`. */
export function newestRows<DB, T extends keyof DB, O>(
  query: SelectQueryBuilder<DB, T, O>,
  after: Position | undefined,
  take: number,
): Promise<O[]> {
  return (after ? query.where(afterKey('createdAt', after.value, after.id, true)) : query)
    .orderBy(sql.ref('createdAt'), 'desc')
    .orderBy(sql.ref('id'), 'desc')
    .limit(take)
    .execute() as Promise<O[]>;
}

/** The rows with a value in `column` ('valued') or without one ('null'): the runs of a nullable sort column. */
function inRun(column: string, run: 'valued' | 'null'): Expression<SqlBool> {
  return sql<SqlBool>`${sql.ref(column)} ${sql.raw(run === 'null' ? 'IS NULL' : 'IS NOT NULL')}`;
}

/**
 * A keyset page of one table in the request's order (newest first without one): the rows `select` picks (whole rows
 * or some columns), where `where` holds, each mapped by `map`; `count` on request. The cursor is looked for within
 * `scope` only: the rows the caller may see at all, whatever the filters (`inAssemblyScope`, a merchant's own, or
 * `everyRow` for a list everyone it is open to sees whole). Not within `where`: a row that left a filter since its
 * page was read (a vehicle approved while paging through unapproved ones) still anchors the next page. Ties are broken
 * by id, the same way. Rows without a value of a nullable column form their own run (last ascending, first descending), read by id
 * after (or before) the valued ones, so that every condition stays one the (column, id) index can start from.
 */
export function orderedPage<T extends ListedTable, O extends { id: string | bigint }, E>(
  db: Sql,
  table: T,
  request: PageRequest<SortColumn<T>>,
  select: (db: Sql) => SelectQueryBuilder<Tables, T, O>,
  where: Condition<T>,
  map: (row: O) => E,
  scope: Condition<T>,
): Promise<Page<E>> {
  const column: string = request.order?.by ?? timeOf(table);
  const descending = request.order?.descending ?? true;
  const direction = descending ? 'desc' : 'asc';
  const runs: Array<'valued' | 'null'> = !NULLABLE.has(column)
    ? ['valued']
    : descending
      ? ['null', 'valued']
      : ['valued', 'null'];
  return keysetPage(
    request,
    (id) => positionOf(db, table, id, scope, column),
    async (after, take) => {
      const found: O[] = [];
      const first = after === undefined ? 0 : runs.indexOf(after.value === null ? 'null' : 'valued');
      for (let r = first; r < runs.length && found.length < take; r++) {
        let q = select(db).where(where);
        if (runs.length > 1) q = q.where(inRun(column, runs[r]));
        if (after !== undefined && r === first)
          q = q.where(
            after.value === null
              ? sql<SqlBool>`${sql.ref('id')} ${sql.raw(descending ? '<' : '>')} ${after.id}`
              : afterKey(column, after.value, after.id, descending),
          );
        found.push(
          ...((await q
            .orderBy(sql.ref(column), direction)
            .orderBy(sql.ref('id'), direction)
            .limit(take - found.length)
            .execute()) as O[]),
        );
      }
      return found;
    },
    map,
    () => countRows(select(db).where(where)),
  );
}
