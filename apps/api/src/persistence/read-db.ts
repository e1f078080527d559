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
 * "After this row" in newest-first order, as the (createdAt DESC, id DESC) indexes serve it. The leading
 * `createdAt <= anchor` is implied by the rest but is what the index can start from: without it PostgreSQL walks every
 * newer row again on each page, and paging through a large list (a CSV export) turns quadratic.
 */
export function afterRow(anchor: Keyed): Expression<SqlBool> {
  const createdAt = sql.ref('createdAt');
  return sql<SqlBool>`(${createdAt} <= ${anchor.createdAt} AND (${createdAt} < ${anchor.createdAt} OR (${createdAt} = ${anchor.createdAt} AND ${sql.ref('id')} < ${anchor.id})))`;
}

/**
 * One keyset page: the cursor row is looked up (an unknown cursor is an empty page), then one row more than asked is
 * read to tell whether another page follows.
 */
export async function keysetPage<R extends { id: string }, E>(
  request: PageRequest,
  anchorOf: (id: string) => Promise<Keyed | undefined>,
  rows: (after: Keyed | undefined, take: number) => Promise<R[]>,
  map: (row: R) => E,
  /** Every row the list's filters match (no cursor): asked for with `count`. */
  count?: () => Promise<number>,
): Promise<Page<E>> {
  return withTotal(
    async () => {
      let anchor: Keyed | undefined;
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

/** The tables listed newest first, by their (createdAt DESC, id DESC) indexes. */
export type NewestFirstTable = 'vehicles' | 'drivers';
export type Condition<T extends NewestFirstTable> = (w: ExpressionBuilder<ReadTables, T>) => Expression<SqlBool>;

/**
 * A keyset page of one table, newest first: the rows `select` picks (whole rows or some columns), where `where` holds,
 * each mapped by `map`; `count` on request.
 */
export function newestFirstPage<T extends NewestFirstTable, O extends { id: string }, E>(
  reads: ReadDb,
  table: T,
  request: PageRequest,
  select: (db: ReadDb) => SelectQueryBuilder<ReadTables, T, O>,
  where: Condition<T>,
  map: (row: O) => E,
): Promise<Page<E>> {
  // Kysely cannot type a column reference on a table chosen by a type parameter: both tables have these columns.
  const rows = () => select(reads).where(where) as unknown as SelectQueryBuilder<ReadTables, 'vehicles', O>;
  return keysetPage(
    request,
    (id) =>
      (reads as unknown as ReadDb)
        .selectFrom(table as 'vehicles')
        .select(['id', 'createdAt'])
        .where('id', '=', id)
        .executeTakeFirst(),
    (after, take) => {
      const q = rows();
      return (after ? q.where(afterRow(after)) : q)
        .orderBy('createdAt', 'desc')
        .orderBy('id', 'desc')
        .limit(take)
        .execute() as Promise<O[]>;
    },
    map,
    () => countRows(rows()),
  );
}
