import { sql } from 'kysely';
import { openDatabase, type Database } from '../src/persistence/database';
import { inTransaction } from '../src/persistence/in-transaction';
import { sqlOn } from '../src/persistence/prisma-executor';
import { describeOnEachTier, openTierStore, type TierStore } from './support/test-app';
import { truncateAll } from './support/truncate';

// Kysely's statements outside a unit of work go to the pool under Prisma (prisma-executor.ts), inside one through the
// transaction's client ($queryRawUnsafe). Both must answer the same values, column type by column type, or a view
// would change with the path its rows took.
describeOnEachTier('Kysely on the pool and through Prisma answer the same values', (tier) => {
  let store: TierStore;
  let database: Database;

  beforeAll(async () => {
    store = await openTierStore(tier);
    database = await openDatabase(store.config());
    await truncateAll(database.prisma);
  });
  afterAll(async () => {
    await database?.close();
    await store?.dispose();
  });

  /** One row of every column type the schema uses, nulls included, and what expressions in the queries give. */
  const everyType = sql<Record<string, unknown>>`
    SELECT 'v00000000000000000000001'::char(24) AS id, 'Kofi Mensah'::text AS name, ARRAY['a', 'b']::text[] AS zones,
           ARRAY[]::text[] AS none, 42::int4 AS int4, 233244123456::int8 AS int8, count(*) AS counted,
           true AS flag, '2026-06-01T09:00:00.123Z'::timestamptz(3) AS at, NULL::timestamptz AS never,
           '{"passed": true, "items": [1, 2]}'::jsonb AS checklist, NULL::jsonb AS nothing, 0.5::float8 AS share,
           similarity('yir', 'yiri') AS likeness, 'approved'::text AS status, NULL::int8 AS missing,
           10.125::numeric(15, 6) AS amount, NULL::numeric(15, 6) AS fees, 26::numeric(15, 6) AS whole,
           0::numeric(15, 6) AS zero, 100::numeric(15, 6) AS hundred, 100::numeric AS plain
    FROM (VALUES (1), (2)) AS t(n)`;

  it('for every column type, on the pool and in a transaction alike', async () => {
    const onPool = (await everyType.execute(sqlOn(database.prisma))).rows;
    const inUnitOfWork = await inTransaction(database.prisma, async (tx) => (await everyType.execute(sqlOn(tx))).rows);
    expect(onPool).toEqual(inUnitOfWork);
    expect(onPool[0]).toMatchObject({ int8: 233244123456n, counted: 2n, at: new Date('2026-06-01T09:00:00.123Z') });
    expect(onPool[0].checklist).toEqual({ passed: true, items: [1, 2] });
    // Money is exact decimal text on both paths (never a float, no Decimal object), trailing zeros dropped.
    expect(onPool[0]).toMatchObject({
      amount: '10.125',
      fees: null,
      whole: '26',
      zero: '0',
      hundred: '100',
      plain: '100',
    });
    expect(inUnitOfWork[0]).toMatchObject({ amount: '10.125', fees: null, zero: '0', hundred: '100', plain: '100' });
  });

  it('counts the rows a write without RETURNING touched, on either path', async () => {
    const rows = [1, 2, 3].map((n) => ({
      id: `r0000000000000000000000${n}`,
      name: `Region ${n}`,
      country: 'c00000000000000000000001',
      version: 0,
      createdAt: new Date(),
      updatedAt: new Date(),
    }));
    await sqlOn(database.prisma).insertInto('regions').values(rows).execute();
    const [onPool] = await sqlOn(database.prisma)
      .updateTable('regions')
      .set({ version: 1 })
      .where('id', 'in', [rows[0].id, rows[1].id])
      .execute();
    const [inUnitOfWork] = await inTransaction(database.prisma, (tx) =>
      sqlOn(tx).deleteFrom('regions').where('version', '=', 1).execute(),
    );
    expect([onPool.numUpdatedRows, inUnitOfWork.numDeletedRows]).toEqual([2n, 2n]);
  });
});
