import { sql, type Expression, type ExpressionBuilder, type SelectQueryBuilder, type SqlBool } from 'kysely';
import type { Page, PageRequest, RegistryKind, RegistryRecord, SearchTerms } from '@transport/domain';
import type { RegistrySearch } from '../core/ports';
import { toDomain as toDriver } from './prisma-driver.repository';
import { toDomain as toOwner } from './prisma-vehicle-owner.repository';
import { toDomain as toVehicle } from './prisma-vehicle.repository';
import { containing, countRows, keysetPage, newestRows, type Position } from './paging';
import { sqlOn, type PrismaExecutor, type Sql, type Tables } from './prisma-executor';

/** Trigram indexes need three characters to look anything up; shorter keys are not compared at all. */
const TRIGRAM = 3;

/**
 * The plate as its search key (the domain's registrationSearchKey): letters and digits only, the letter O as the digit
 * zero. Written exactly as the expression index vehicles_plate_key_trgm_idx is (migration
 * 20261128110000_plate_key_o_as_zero), or PostgreSQL would not use it.
 */
const PLATE_KEY = sql<string>`translate(${sql.ref('registrationNumber')}, 'O -', '0')`;

type Table = 'vehicles' | 'drivers' | 'vehicle_owners';
type Where<T extends Table> = (w: ExpressionBuilder<Tables, T>) => Expression<SqlBool>;

/** What each kind's rows are compared on; undefined when nothing in the query can match that kind. */
function vehicleMatch(terms: SearchTerms): Where<'vehicles'> | undefined {
  if (terms.key.length < TRIGRAM) return undefined;
  const key = containing(terms.key);
  return (w) => w.or([w(PLATE_KEY, 'like', key), w('vin', 'like', key)]);
}

/** Names case-insensitively; emails are stored lower case and licence numbers upper case (the domain's forms). */
function driverMatch(terms: SearchTerms): Where<'drivers'> {
  return (w) =>
    w.or([
      w('name', 'ilike', containing(terms.text)),
      w('email', 'like', containing(terms.text.toLowerCase())),
      w('license', 'like', containing(terms.upper)),
      ...terms.phones.map((p) => w('phone', 'like', containing(p))),
    ]);
}

function ownerMatch(terms: SearchTerms): Where<'vehicle_owners'> {
  return (w) =>
    w.or([
      w('name', 'ilike', containing(terms.text)),
      w('email', 'like', containing(terms.text.toLowerCase())),
      ...terms.phones.map((p) => w('phone', 'like', containing(p))),
    ]);
}

interface Keyed {
  id: string;
  createdAt: Date;
}

type Hit = Keyed & { found: RegistryRecord };

/** One kind's part of a search: its newest matches after a row, and how many match in all. */
interface Branch {
  rows(after: Position | undefined, take: number): Promise<Hit[]>;
  count(): Promise<number>;
}

/**
 * Every kind is searched through its own indexes (trigram GIN indexes on each compared column, the plate's by its
 * key), newest first, at most one page each; the pages are merged in the same order. Three small indexed queries
 * rather than one UNION: each is planned on its own table's statistics, and each stays bounded by the page.
 */
export class PostgresRegistrySearch implements RegistrySearch {
  private readonly reads: Sql;

  /** `db`: where searches read (the read replica's client, when there is one). */
  constructor(db: PrismaExecutor) {
    this.reads = sqlOn(db);
  }

  async search(
    terms: SearchTerms,
    kinds: readonly RegistryKind[],
    page: PageRequest,
    assemblyId?: string,
  ): Promise<Page<RegistryRecord>> {
    const branches = kinds.flatMap((kind) => {
      const branch = this.branch(kind, terms, assemblyId);
      return branch ? [branch] : [];
    });
    return keysetPage(
      page,
      (id) => this.anchor(id, assemblyId),
      async (after, take) => {
        const hits: Hit[] = [];
        // One after another: on the embedded database every query waits for the one connection anyway.
        for (const b of branches) hits.push(...(await b.rows(after, take)));
        return hits.sort(newestFirst).slice(0, take);
      },
      (hit) => hit.found,
      async () => {
        let total = 0;
        for (const b of branches) total += await b.count();
        return total;
      },
    );
  }

  /**
   * The cursor names a record of any kind: its place in the order is its (createdAt, id). Looked for within the
   * caller's assembly only: another assembly's record is an unknown cursor (it tells nothing of when it was made).
   */
  private async anchor(id: string, assemblyId: string | undefined): Promise<Position | undefined> {
    const r = this.reads;
    const row = await scoped(r.selectFrom('vehicles').select(['id', 'createdAt']).where('id', '=', id), assemblyId)
      .unionAll(scoped(r.selectFrom('drivers').select(['id', 'createdAt']).where('id', '=', id), assemblyId))
      .unionAll(scoped(r.selectFrom('vehicle_owners').select(['id', 'createdAt']).where('id', '=', id), assemblyId))
      .executeTakeFirst();
    return row && { id: row.id, value: row.createdAt };
  }

  private branch(kind: RegistryKind, terms: SearchTerms, assemblyId?: string): Branch | undefined {
    const r = this.reads;
    switch (kind) {
      case 'vehicle': {
        const match = vehicleMatch(terms);
        if (!match) return undefined;
        const q = () => scoped(r.selectFrom('vehicles').selectAll().where(match), assemblyId);
        return {
          rows: async (after, take) =>
            (await newestRows(q(), after, take)).map((row) => hit(row, { kind, record: toVehicle(row).toState() })),
          count: () => countRows(q()),
        };
      }
      case 'driver': {
        const q = () => scoped(r.selectFrom('drivers').selectAll().where(driverMatch(terms)), assemblyId);
        return {
          rows: async (after, take) =>
            (await newestRows(q(), after, take)).map((row) => hit(row, { kind, record: toDriver(row).toState() })),
          count: () => countRows(q()),
        };
      }
      case 'owner': {
        const q = () => scoped(r.selectFrom('vehicle_owners').selectAll().where(ownerMatch(terms)), assemblyId);
        return {
          rows: async (after, take) =>
            (await newestRows(q(), after, take)).map((row) => hit(row, { kind, record: toOwner(row).toState() })),
          count: () => countRows(q()),
        };
      }
    }
  }
}

type Rows<T extends Table, O> = SelectQueryBuilder<Tables, T, O>;

/** Within one assembly, when one is given (every searched table has the column). */
function scoped<T extends Table, O>(q: Rows<T, O>, assemblyId: string | undefined): Rows<T, O> {
  return assemblyId === undefined ? q : q.where(sql<SqlBool>`${sql.ref('assemblyId')} = ${assemblyId}`);
}

function hit(row: Keyed, found: RegistryRecord): Hit {
  return { id: row.id, createdAt: row.createdAt, found };
}

function newestFirst(a: Keyed, b: Keyed): number {
  const byTime = b.createdAt.getTime() - a.createdAt.getTime();
  if (byTime !== 0) return byTime;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}
