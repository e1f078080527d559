import {
  DeleteQueryNode,
  InsertQueryNode,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  UpdateQueryNode,
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
} from 'kysely';
import pg from 'pg';
import { Prisma } from '../generated/prisma/client';
import type {
  ApiKey,
  Assembly,
  AssemblyUser,
  AuditEntry,
  Driver as DriverRow,
  PrismaClient,
  Region,
  Station,
  Transaction,
  TransportUnion,
  Trip,
  TripService,
  Vehicle,
  VehicleOwner,
  VehicleReport,
} from '../generated/prisma/client';
import type { TransactionClient } from '../generated/prisma/internal/prismaNamespace';

/** The app's client or the client of an open transaction: repositories work on either. */
export type PrismaExecutor = PrismaClient | TransactionClient;

/**
 * A row as Kysely reads it: money (numeric) columns as exact decimal text ("10.125", "26": exactDecimalText), not
 * Prisma's Decimal.
 */
export type WithMoneyText<T> = {
  [K in keyof T]: T[K] extends Prisma.Decimal ? string : T[K] extends Prisma.Decimal | null ? string | null : T[K];
};

/**
 * The tables the lists, searches and batch lookups query through Kysely, typed by the models Prisma generates from
 * `prisma/schema.prisma` (one source of truth for names and types).
 */
export interface Tables {
  api_keys: ApiKey;
  assemblies: Assembly;
  assembly_users: AssemblyUser;
  audit_log: AuditEntry;
  drivers: DriverRow;
  regions: Region;
  stations: Station;
  transactions: WithMoneyText<Transaction>;
  transport_unions: TransportUnion;
  trip_services: WithMoneyText<TripService>;
  trips: WithMoneyText<Trip>;
  vehicle_owners: VehicleOwner;
  vehicles: Vehicle;
  vehicle_reports: VehicleReport;
}

/** Kysely on one Prisma client (see `sqlOn`). */
export type Sql = Kysely<Tables>;

/** Told each statement Kysely sends, with its parameters (tests count and explain them). */
export type SqlLog = (sqlText: string, parameters: readonly unknown[]) => void;

/** The pool under each client (database.ts): a client's statements outside a transaction are sent on it. */
const poolOf = new WeakMap<PrismaExecutor, pg.Pool>();

/**
 * Kysely's statements outside a unit of work go to the pool under the client (the one Prisma's driver adapter uses),
 * not through `$queryRawUnsafe`: Prisma's raw-query path (its query plan in WebAssembly, its interpreter, its result
 * deserialiser) cost 40% of the CPU of a list or a status check, 200-600 µs a request
 * (measured: docs/architecture.md, "Persistence").
 * The statement, the pool, the connection settings and the error shape (pg's, which the problem filter already reads
 * for the rate limiter and the job queue) are the same; only the middleman goes. Inside a unit of work they still run
 * on the transaction's client, so they see its writes.
 */
export function runOutsideTransactionsOn(client: PrismaClient, pool: pg.Pool): void {
  poolOf.set(client, pool);
}

/**
 * A numeric value as exact decimal text without trailing zeros: PostgreSQL's "25.500000" as "25.5", "26.000000" as
 * "26", as Prisma's Decimal writes it (`toFixed()`), so both paths answer the same text.
 */
export function exactDecimalText(value: string): string {
  if (!value.includes('.')) return value;
  // Trailing zeros, then the point if nothing is left after it, cut by hand (every amount a list reads comes here).
  let end = value.length;
  while (value.charCodeAt(end - 1) === 48) end--;
  if (value.charCodeAt(end - 1) === 46) end--;
  return end === value.length ? value : value.slice(0, end);
}

/**
 * Column values as Prisma's raw queries answered them: pg's own parsers (timestamptz as Date, json parsed, text[] as
 * arrays, int4 and float as numbers) but for int8, which Prisma gives as a BigInt (a phone number, `count(*)`) and pg as
 * a string. Numeric (money) is exact decimal text on both paths (exactDecimalText; Prisma's Decimal is turned into the
 * same text below): the readers parse it into whole millionths (moneyFromText), and a Decimal per value cost the trips
 * of one day a tenth of their CPU (50 trips, 8 amounts each). The schema has no other type whose value differs
 * (prisma-executor.e2e compares both paths column by column).
 */
const PRISMA_RAW_TYPES = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === pg.types.builtins.INT8
      ? (value: string) => BigInt(value)
      : oid === pg.types.builtins.NUMERIC
        ? exactDecimalText
        : pg.types.getTypeParser(oid, format ?? 'text')) as pg.CustomTypesConfig['getTypeParser'],
};

/** Prisma's Decimals in raw rows (a unit of work's path) as the pool's path answers them: exact decimal text. */
function withDecimalsAsText<R>(rows: R[]): R[] {
  for (const row of rows as Record<string, unknown>[])
    for (const key in row) if (Prisma.Decimal.isDecimal(row[key])) row[key] = (row[key] as Prisma.Decimal).toFixed();
  return rows;
}

/** Kysely's statements on the pool (outside a transaction) or through the open transaction's client (Prisma's). */
class PrismaConnection implements DatabaseConnection {
  constructor(private readonly db: PrismaExecutor) {}

  async executeQuery<R>({ query, sql, parameters }: CompiledQuery): Promise<QueryResult<R>> {
    const write = InsertQueryNode.is(query) || UpdateQueryNode.is(query) || DeleteQueryNode.is(query);
    const counted = write && !query.returning;
    const pool = poolOf.get(this.db);
    if (pool) {
      const result = await pool.query<R & pg.QueryResultRow>({
        text: sql,
        values: parameters as unknown[],
        types: PRISMA_RAW_TYPES,
      });
      return counted ? { rows: [], numAffectedRows: BigInt(result.rowCount ?? 0) } : { rows: result.rows };
    }
    // A write without RETURNING answers how many rows it touched; everything else answers rows.
    if (counted) return { rows: [], numAffectedRows: BigInt(await this.db.$executeRawUnsafe(sql, ...parameters)) };
    return { rows: withDecimalsAsText(await this.db.$queryRawUnsafe<R[]>(sql, ...parameters)) };
  }

  streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('Kysely on Prisma streams nothing: page instead');
  }
}

/** The one connection is Prisma's; transactions are Prisma's too (units of work), never Kysely's. */
class PrismaDriver implements Driver {
  private readonly connection: PrismaConnection;
  constructor(db: PrismaExecutor) {
    this.connection = new PrismaConnection(db);
  }
  init(): Promise<void> {
    return Promise.resolve();
  }
  async acquireConnection(): Promise<DatabaseConnection> {
    return this.connection;
  }
  beginTransaction(): Promise<void> {
    throw new Error('Transactions are Prisma’s: run the work in a unit of work (PrismaUnitOfWork), not in Kysely');
  }
  commitTransaction(): Promise<void> {
    return this.beginTransaction();
  }
  rollbackTransaction(): Promise<void> {
    return this.beginTransaction();
  }
  /** Nothing to give back or close: Prisma owns the connection and its pool. */
  releaseConnection(): Promise<void> {
    return Promise.resolve();
  }
  destroy(): Promise<void> {
    return Promise.resolve();
  }
}

const onClient = new WeakMap<PrismaExecutor, Sql>();

/**
 * Kysely on a Prisma client, for the SQL Prisma's models cannot say (keyset pages, trigram searches, counts of a
 * filtered list) or would compile again on every request. Kysely builds the statement; Prisma runs it on its own
 * connection: one pool, one error shape, one transaction model. On an open transaction's client (a unit of work) the
 * statements run in that transaction and see its writes. One Kysely per client, made on first use; `log`, on first
 * use only, hears every statement.
 */
export function sqlOn(db: PrismaExecutor, log?: SqlLog): Sql {
  let sql = onClient.get(db);
  if (!sql) {
    const driver = new PrismaDriver(db);
    sql = new Kysely<Tables>({
      dialect: {
        createAdapter: () => new PostgresAdapter(),
        createDriver: () => driver,
        createIntrospector: (kysely) => new PostgresIntrospector(kysely),
        createQueryCompiler: () => new PostgresQueryCompiler(),
      },
      log: log
        ? (event) => {
            if (event.level === 'query') log(event.query.sql, event.query.parameters);
          }
        : undefined,
    });
    onClient.set(db, sql);
  }
  return sql;
}
