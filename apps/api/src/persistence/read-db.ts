import {
  Kysely,
  PostgresDialect,
  sql,
  type Expression,
  type ExpressionBuilder,
  type SelectQueryBuilder,
  type SqlBool,
} from 'kysely';
import type pg from 'pg';
import type { Page, PageRequest } from '@transport/domain';
import type {
  ApiKey,
  AssemblyUser,
  Driver,
  Station,
  Transaction,
  TransportUnion,
  Trip,
  TripService,
  Vehicle,
  VehicleOwner,
} from '../generated/prisma/client';
import { toPage, withTotal } from './paging';

/**
 * The tables the hot read paths query through Kysely, typed by the models Prisma generates from
 * `prisma/schema.prisma` (one source of truth for names and types). Prisma keeps the writes, the transactions and the
 * migrations; reads that run on every request skip its per-request query compilation (measured at 22-40% of the
 * API's CPU on the read endpoints, README "Performance"). One difference of drivers: `BigInt` columns arrive from
 * `pg` as strings (stations.contactNumber is converted where it is read).
 */
export interface ReadTables {
  api_keys: ApiKey;
  assembly_users: AssemblyUser;
  drivers: Driver;
  stations: Station;
  transactions: Transaction;
  transport_unions: TransportUnion;
  trip_services: TripService;
  trips: Trip;
  vehicle_owners: VehicleOwner;
  vehicles: Vehicle;
}

export type ReadDb = Kysely<ReadTables>;

/** Kysely over the app's own pool: the same connections (and, embedded, the one connection) as Prisma. */
export function createReadDb(pool: pg.Pool, log?: (sqlText: string, parameters: readonly unknown[]) => void): ReadDb {
  return new Kysely<ReadTables>({
    dialect: new PostgresDialect({ pool }),
    log: log
      ? (event) => {
          if (event.level === 'query') log(event.query.sql, event.query.parameters);
        }
      : undefined,
  });
}

/**
 * The Kysely of the stores outside units of work. Inside a unit of work the repositories have none: a read on another
 * pooled connection would not see the transaction's writes, and on the embedded database (one connection) or a
 * drained pool it would wait for the very connection the transaction holds. A list read inside a unit of work is a
 * programming error, reported as such.
 */
export function outsideTransaction(reads: ReadDb | undefined): ReadDb {
  if (!reads)
    throw new Error('This read runs outside units of work only: call it on the stores, not on a unit of work');
  return reads;
}

interface Keyed {
  id: string;
  createdAt: Date;
}

/** A LIKE pattern for `text` anywhere: LIKE's own wildcards in the text are escaped, so they match literally. */
export function containing(text: string): string {
  return `%${escapeLike(text)}%`;
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * "After this row" in newest-first order, as the (createdAt DESC, id DESC) indexes serve it (see `afterKey`).
 */
export function afterRow(anchor: Keyed): Expression<SqlBool> {
  return afterKey('createdAt', anchor.createdAt, anchor.id, true);
}

/**
 * "After the row whose `column` is `value` and id is `id`", ordered by (column, id) both ascending or both descending,
 * as a (column, id) index serves it either way. The leading bound (`column <= value` descending) is implied by the
 * rest but is what the index can start from: without it PostgreSQL walks every earlier row again on each page, and
 * paging through a large list (a CSV export) turns quadratic. `value` is never NULL here (see `orderedPage`).
 */
export function afterKey(column: string, value: unknown, id: string, descending: boolean): Expression<SqlBool> {
  const c = sql.ref(column);
  const [bound, beyond] = descending ? [sql.raw('<='), sql.raw('<')] : [sql.raw('>='), sql.raw('>')];
  return sql<SqlBool>`(${c} ${bound} ${value} AND (${c} ${beyond} ${value} OR (${c} = ${value} AND ${sql.ref('id')} ${beyond} ${id})))`;
}

/**
 * One keyset page: the cursor row is looked up (an unknown cursor is an empty page), then one row more than asked is
 * read to tell whether another page follows.
 */
export async function keysetPage<R extends { id: string }, E, A = Keyed>(
  request: PageRequest<string>,
  anchorOf: (id: string) => Promise<A | undefined>,
  rows: (after: A | undefined, take: number) => Promise<R[]>,
  map: (row: R) => E,
  /** Every row the list's filters match (no cursor): asked for with `count`. */
  count?: () => Promise<number>,
): Promise<Page<E>> {
  return withTotal(
    async () => {
      let anchor: A | undefined;
      if (request.after !== undefined) {
        anchor = await anchorOf(request.after);
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
    .executeTakeFirstOrThrow()) as { n: string };
  return Number(row.n);
}

/** The tables whose lists take an order (PageRequest.order): newest first without one. */
export type OrderedTable = 'vehicles' | 'drivers';
export type Condition<T extends OrderedTable> = (w: ExpressionBuilder<ReadTables, T>) => Expression<SqlBool>;
/** The columns lists sort by; each has a (column, id) index, alone and after assemblyId (the staff's lists). */
export type SortColumn<T extends OrderedTable> = Extract<
  keyof ReadTables[T],
  'createdAt' | 'registrationNumber' | 'name'
>;
/** Sort columns a row may lack (NULL): PostgreSQL puts NULL after every value ascending, before them descending. */
const NULLABLE: ReadonlySet<string> = new Set(['registrationNumber']);

interface Anchor {
  id: string;
  value: unknown;
}

/**
 * A keyset page of one table in the request's order (newest first without one): the rows `select` picks (whole rows
 * or some columns), where `where` holds, each mapped by `map`; `count` on request. Ties are broken by id, the same
 * way. Rows without a value of a nullable column form their own run (last ascending, first descending), read by id
 * after (or before) the valued ones, so that every condition stays one the (column, id) index can start from.
 */
export function orderedPage<T extends OrderedTable, O extends { id: string }, E>(
  reads: ReadDb,
  table: T,
  request: PageRequest<SortColumn<T>>,
  select: (db: ReadDb) => SelectQueryBuilder<ReadTables, T, O>,
  where: Condition<T>,
  map: (row: O) => E,
): Promise<Page<E>> {
  const column: string = request.order?.by ?? 'createdAt';
  const descending = request.order?.descending ?? true;
  const direction = descending ? 'desc' : 'asc';
  // Kysely cannot type a column reference on a table chosen by a type parameter: both tables have these columns.
  const rows = () => select(reads).where(where) as unknown as SelectQueryBuilder<ReadTables, 'vehicles', O>;
  const runs: Array<'valued' | 'null'> = !NULLABLE.has(column)
    ? ['valued']
    : descending
      ? ['null', 'valued']
      : ['valued', 'null'];
  const inRun = (run: 'valued' | 'null') =>
    sql<SqlBool>`${sql.ref(column)} ${sql.raw(run === 'null' ? 'IS NULL' : 'IS NOT NULL')}`;
  return keysetPage(
    request,
    async (id): Promise<Anchor | undefined> => {
      const row = await (reads as unknown as ReadDb)
        .selectFrom(table as 'vehicles')
        .select(['id', sql.ref(column).as('value')])
        .where('id', '=', id)
        .executeTakeFirst();
      return row && { id: row.id, value: row.value };
    },
    async (after, take) => {
      const found: O[] = [];
      const first = after === undefined ? 0 : runs.indexOf(after.value === null ? 'null' : 'valued');
      for (let r = first; r < runs.length && found.length < take; r++) {
        let q = runs.length > 1 ? rows().where(inRun(runs[r])) : rows();
        if (after !== undefined && r === first)
          q = q.where(
            after.value === null
              ? sql<SqlBool>`${sql.ref('id')} ${sql.raw(descending ? '<' : '>')} ${after.id}`
              : afterKey(column, after.value, after.id, descending),
          );
        found.push(
          ...((await q
            .orderBy(sql.ref(column), direction)
            .orderBy('id', direction)
            .limit(take - found.length)
            .execute()) as O[]),
        );
      }
      return found;
    },
    map,
    () => countRows(rows()),
  );
}
