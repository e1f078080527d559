import pg from 'pg';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from '../src/generated/prisma/client';
import { migrateDeploy } from '../src/persistence/migrate';
import { prismaRepositories } from '../src/persistence/prisma-repositories';
import { PrismaAuditTrail } from '../src/persistence/prisma-admin-stores';
import { PostgresRegistrySearch } from '../src/persistence/postgres-registry-search';
import { allPassed, REGISTRY_KINDS, searchTerms } from '@transport/domain';
import type { Repositories } from '@transport/domain';
import { createScratchDatabase } from './support/postgres-tier';
import { describeOnPostgres } from './support/postgres-only';
import { WORKSPACE_ROOT } from './support/test-app';

const ROWS = 100_000;

interface Captured {
  text: string;
  values: unknown[];
}

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

function nodes(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(nodes)];
}

/**
 * Every list and search query the API makes, as Prisma really sends it, explained against 100,000 rows per table:
 * each must reach its table through an index, never a sequential scan, so its cost follows the page, not the table.
 */
/** Ghana has some 260 assemblies; records spread over them evenly. */
const ASSEMBLIES = 260;
const ASSEMBLY_ID_SQL = (n: string) => `'a' || lpad(to_hex(${n}), 23, '0')`;
const assemblyId = (n: number) => 'a' + n.toString(16).padStart(23, '0');

describeOnPostgres('query plans at 100,000 rows', () => {
  jest.setTimeout(240_000);
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
  let pool: pg.Pool;
  let prisma: PrismaClient;
  let repos: Repositories;
  let registry: PostgresRegistrySearch;
  let captured: Captured[] = [];

  beforeAll(async () => {
    scratch = await createScratchDatabase('plans');
    await migrateDeploy(WORKSPACE_ROOT, scratch.url);
    pool = new pg.Pool({ connectionString: scratch.url, max: 2 });
    const client = await pool.connect();
    try {
      // Synthetic rows in SQL: this is about plans, so volume matters and domain rules do not.
      await client.query(`
        INSERT INTO merchants (id, name, "signingSecret", "updatedAt") VALUES ('${'f'.repeat(24)}', 'M', 's', now());
        INSERT INTO regions (id, name, country, "updatedAt") VALUES ('${'e'.repeat(24)}', 'R', '${'e'.repeat(24)}', now());
        INSERT INTO assemblies (id, name, "regionId", "digitalAddress", type, "updatedAt")
          SELECT ${ASSEMBLY_ID_SQL('a')}, 'Assembly ' || a, '${'e'.repeat(24)}', 'GA-' || a, 'municipal', now()
          FROM generate_series(0, ${ASSEMBLIES - 1}) a;
        INSERT INTO vehicle_owners (id, name, phone, email, "idType", "idNumber", "assemblyId", "createdAt", "updatedAt")
          SELECT lpad(to_hex(i), 24, '0'), 'Owner ' || md5(i::text), '+23324' || lpad(i::text, 7, '0'), 'owner' || i || '@example.com', 'ghana_card', 'GHA-' || i,
                 ${ASSEMBLY_ID_SQL(`i % ${ASSEMBLIES}`)}, now() - i * interval '1 minute', now() FROM generate_series(1, ${ROWS}) i;
        INSERT INTO drivers (id, name, phone, email, license, "licenseClass", "licenseExpiry", "licenseIssueDate", "idType", "idNumber", gender, approved, "activationKeyHash", "activationKeyExpiresAt", "assemblyId", "createdAt", "updatedAt")
          SELECT lpad(to_hex(i), 24, '0'), 'Driver ' || i, '+23320' || lpad(i::text, 7, '0'), 'driver' || i || '@example.com', 'DL-' || i, 'B', now() + interval '1 year', now() - interval '1 year',
                 'ghana_card', 'GHA-D' || i, 'male', i % 50 = 0, 'x', now() + interval '1 day', ${ASSEMBLY_ID_SQL(`i % ${ASSEMBLIES}`)}, now() - i * interval '1 minute', now() FROM generate_series(1, ${ROWS}) i;
        INSERT INTO vehicles (id, "ownerId", "registrationNumber", vin, inspected, "inspectionChecklist", "inspectedBy", "dateInspected", approved, "approvedBy", "dateApproved", "driverId", "roadWorthyExpiryDate", "insuranceExpiryDate", "assemblyId", "createdAt", "updatedAt")
          SELECT lpad(to_hex(i), 24, '0'), lpad(to_hex(i), 24, '0'), 'GR ' || i || '-24', upper(substr(md5(i::text), 1, 17)), i % 20 = 0,
                 CASE WHEN i % 20 = 0 THEN '${JSON.stringify(allPassed())}'::jsonb END,
                 CASE WHEN i % 20 = 0 THEN lpad('a', 24, 'a') END, CASE WHEN i % 20 = 0 THEN now() END,
                 i % 40 = 0, CASE WHEN i % 40 = 0 THEN lpad('b', 24, 'b') END, CASE WHEN i % 40 = 0 THEN now() END, CASE WHEN i % 40 = 0 THEN lpad(to_hex(i), 24, '0') END,
                 now() + (i % 700) * interval '1 day', now() + (i % 900) * interval '1 day', ${ASSEMBLY_ID_SQL(`i % ${ASSEMBLIES}`)}, now() - i * interval '1 minute', now() FROM generate_series(1, ${ROWS}) i;
        INSERT INTO regions (id, name, country, "createdAt", "updatedAt")
          SELECT 'c' || lpad(to_hex(i), 23, '0'), 'Region ' || i, '${'e'.repeat(24)}', now() - i * interval '1 minute', now() FROM generate_series(1, ${ROWS}) i;
        INSERT INTO stations (id, name, "transportUnions", zones, "contactNumber", "digitalAddress", "createdAt", "updatedAt")
          SELECT lpad(to_hex(i), 24, '0'), 'Station ' || i, '{}', '{}', 302000000 + i, 'GA-' || i, now() - i * interval '1 minute', now() FROM generate_series(1, ${ROWS}) i;
        INSERT INTO transport_unions (id, name, status, "digitalAddress", "contactNumber", email, zones, "createdAt", "updatedAt")
          SELECT lpad(to_hex(i), 24, '0'), 'Union ' || i, 'active', 'GA-' || i, '0302' || i, 'u' || i || '@example.com', '{}', now() - i * interval '1 minute', now() FROM generate_series(1, ${ROWS}) i;
        INSERT INTO audit_log (entity, "entityId", action, "actorRole", "actorId", "before", "after", at)
          SELECT (ARRAY['vehicle','driver','owner','trip'])[1 + i % 4], lpad(to_hex(i), 24, '0'), 'Changed',
                 (ARRAY['admin','assembly','platform'])[1 + i % 3], lpad(to_hex(i % 500), 24, '0'), NULL, '{}'::jsonb,
                 now() - i * interval '1 minute'
          FROM generate_series(1, ${ROWS}) i;
        INSERT INTO trips (id, "ticketNumber", "estimatedPrice", "estimatedDistance", "user", "pickupLocation", "serviceDestination", "assemblyId", "createdAt", "updatedAt")
          SELECT lpad(to_hex(i), 24, '0'), 'TKT-' || i, 1000, 5, 'p', '{"type":"Point","coordinates":[0,0]}', '{"type":"Point","coordinates":[0,0]}', ${ASSEMBLY_ID_SQL(`i % ${ASSEMBLIES}`)}, now() - i * interval '1 minute', now()
          FROM generate_series(1, ${ROWS}) i;
        INSERT INTO trip_services (id, "tripId", "serviceID", type, driver, vehicle, pricing, passengers, amount)
          SELECT lpad(to_hex(i + ${ROWS}), 24, '0'), lpad(to_hex(i), 24, '0'), 'S', 'taxi', '{"id":"d"}', '{"id":"v"}', '{"id":"p","type":"t","pricePerKm":1,"pricePerMinute":1}', 1, 0
          FROM generate_series(1, ${ROWS}) i;
        INSERT INTO transactions (id, "merchantId", amount, status, "requestType", description, reference, "providerReference", "callBackUrl", "customerPhone", "requestInfo", "createdAt", "updatedAt")
          SELECT lpad(to_hex(i), 24, '0'), '${'f'.repeat(24)}', 100, CASE WHEN i % 100 = 0 THEN 'pending' ELSE 'success' END, 'mobile_money', 'd', 'REF-' || i, lpad(to_hex(i), 24, '0'),
                 'https://m.example.com', '+233244000000', '{"Message":"m","ResponseCode":"0001","Data":{}}', now() - i * interval '1 minute', now() FROM generate_series(1, ${ROWS}) i;
        -- Vehicles at 500 stations and in 300 unions (the staff lists' filters).
        UPDATE vehicles SET "stationId" = lpad(to_hex(1 + ('x' || right(id, 6))::bit(24)::int % 500), 24, '0'), "stationLinked" = true,
                            "transportUnionId" = lpad(to_hex(1 + ('x' || right(id, 6))::bit(24)::int % 300), 24, '0');
        -- The oldest ten have no plate yet (a list by plate reads them as a run of their own).
        UPDATE vehicles SET "registrationNumber" = NULL WHERE id > lpad(to_hex(${ROWS - 10}), 24, '0');
      `);
      // VACUUM, not only ANALYZE: rows inserted after a GIN index was made wait in its pending list, which the
      // planner costs as a scan of every pending page, so a trigram index looks dearer than walking the newest-first
      // index until the list is merged. Autovacuum merges it at a moment of its own choosing, which made the plans
      // (and this test) depend on whether it had come by; a served database has had its autovacuum long since.
      await client.query('VACUUM ANALYZE');
    } finally {
      client.release();
    }
    // Record every statement Prisma sends (its models' and the lists' Kysely SQL alike), to explain exactly those.
    const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
    (pool as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
      const [config, values] = args as [{ text?: string; values?: unknown[] } | string, unknown[] | undefined];
      const text = typeof config === 'string' ? config : (config.text ?? '');
      captured.push({ text, values: (typeof config === 'string' ? values : (config.values ?? values)) ?? [] });
      return query(...args);
    };
    prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
    repos = prismaRepositories(prisma);
    registry = new PostgresRegistrySearch(prisma);
  });

  afterAll(async () => {
    await prisma?.$disconnect();
    await pool?.end();
    await scratch?.drop();
  });

  async function plansOf(run: () => Promise<unknown>): Promise<Array<{ text: string; nodes: PlanNode[] }>> {
    captured = [];
    await run();
    const statements = captured.filter((c) => /^\s*select/i.test(c.text));
    expect(statements.length).toBeGreaterThan(0);
    const explain = new pg.Client({ connectionString: scratch.url });
    await explain.connect();
    try {
      const out = [];
      for (const s of statements) {
        const result = await explain.query(`EXPLAIN (FORMAT JSON) ${s.text}`, s.values as unknown[]);
        out.push({ text: s.text, nodes: nodes(result.rows[0]['QUERY PLAN'][0].Plan as PlanNode) });
      }
      return out;
    } finally {
      await explain.end();
    }
  }

  async function expectIndexedOnly(run: () => Promise<unknown>): Promise<string[]> {
    const plans = await plansOf(run);
    const used: string[] = [];
    for (const plan of plans) {
      const seq = plan.nodes.filter((n) => n['Node Type'] === 'Seq Scan');
      if (seq.length > 0)
        throw new Error(`sequential scan of ${seq.map((n) => n['Relation Name']).join(', ')} in:\n${plan.text}`);
      used.push(...plan.nodes.flatMap((n) => (n['Index Name'] ? [n['Index Name']] : [])));
    }
    return used;
  }

  const page = { limit: 50 };
  const id = (i: number) => i.toString(16).padStart(24, '0');

  it('detects a sequential scan when a query has no index to use (the check can fail)', async () => {
    await expect(
      // No LIMIT: with one, the planner may walk the primary key instead and stop early, which is no test of the check.
      expectIndexedOnly(() => prisma.vehicleOwner.findMany({ where: { idNumber: { contains: '4242' } } })),
    ).rejects.toThrow(/sequential scan of vehicle_owners/);
  });

  it('lists vehicles, with every filter and a cursor, through indexes', async () => {
    for (const filter of [
      {},
      { inspected: true },
      { inspected: false },
      { approved: true },
      { ownerId: id(777) },
      { driverId: id(800) },
      { registrationNumber: 'GR 5000-24' },
      { assemblyId: assemblyId(7) },
      { assemblyId: assemblyId(7), inspected: false },
      { assemblyId: assemblyId(7), registrationNumber: 'GR 5000-24' },
      // The staff lists by station and by union, alone and within an assembly.
      { stationId: id(42) },
      { transportUnionId: id(42) },
      { assemblyId: assemblyId(7), stationId: id(42) },
      { assemblyId: assemblyId(7), transportUnionId: id(42), approved: true },
      // The work queues: awaiting inspection, awaiting approval.
      { assemblyId: assemblyId(7), inspected: true, approved: false },
      { inspected: true, approved: false },
    ]) {
      expect(await expectIndexedOnly(() => repos.vehicles.list(filter, page))).not.toEqual([]);
    }
    await expectIndexedOnly(() => repos.vehicles.list({}, { limit: 50, after: id(5000) }));
    await expectIndexedOnly(() => repos.vehicles.list({ inspected: true }, { limit: 50, after: id(5000) }));
    await expectIndexedOnly(() => repos.vehicles.list({ assemblyId: assemblyId(7) }, { limit: 50, after: id(5000) }));
  });

  it('lists vehicles by plate and oldest first, with filters and cursors, from indexes', async () => {
    const byPlate = (descending: boolean) => ({ by: 'registrationNumber' as const, descending });
    const orders = [byPlate(false), byPlate(true), { by: 'createdAt' as const, descending: false }];
    const soon = new Date(Date.now() + 30 * 86_400_000);
    for (const order of orders) {
      for (const filter of [
        {},
        { assemblyId: assemblyId(7) },
        { assemblyId: assemblyId(7), inspected: false },
        { assemblyId: assemblyId(7), stationId: id(42) },
        { stationId: id(42) },
        { certificatesEndingBy: soon },
        { assemblyId: assemblyId(7), certificatesEndingBy: soon },
      ]) {
        const first = await repos.vehicles.list(filter, { ...page, order });
        expect(await expectIndexedOnly(() => repos.vehicles.list(filter, { ...page, order }))).not.toEqual([]);
        await expectIndexedOnly(() => repos.vehicles.list(filter, { ...page, order, after: first.next }));
        // A count of a whole table reads the whole table, whatever the order: counts of filtered lists only.
        if (Object.keys(filter).length > 0)
          await expectIndexedOnly(() => repos.vehicles.list(filter, { ...page, order, count: true }));
      }
    }
    // The plate's own indexes, nationwide (the unique one) and within an assembly, either way; and the run of vehicles
    // without one.
    for (const order of [byPlate(false), byPlate(true)]) {
      expect(await expectIndexedOnly(() => repos.vehicles.list({}, { ...page, order }))).toContain(
        'vehicles_registrationNumber_key',
      );
      expect(
        await expectIndexedOnly(() => repos.vehicles.list({ assemblyId: assemblyId(7) }, { ...page, order })),
      ).toContain('vehicles_assemblyId_registrationNumber_id_idx');
      await expectIndexedOnly(() => repos.vehicles.list({}, { ...page, order, after: id(ROWS - 5) }));
      await expectIndexedOnly(() => repos.vehicles.listSummaries({}, { ...page, order, after: id(5000) }));
    }
  });

  it('lists drivers by name and oldest first, by standing and licence end, with cursors, from indexes', async () => {
    const soon = new Date(Date.now() + 30 * 86_400_000);
    for (const order of [
      { by: 'name' as const, descending: false },
      { by: 'name' as const, descending: true },
      { by: 'createdAt' as const, descending: false },
    ]) {
      for (const filter of [
        {},
        { assemblyId: assemblyId(7) },
        { standing: 'approved' as const },
        { standing: 'revoked' as const },
        { assemblyId: assemblyId(7), standing: 'awaiting_approval' as const },
        { licenseEndingBy: soon },
        { assemblyId: assemblyId(7), licenseEndingBy: soon },
      ]) {
        const first = await repos.drivers.list(filter, { ...page, order });
        await expectIndexedOnly(() => repos.drivers.list(filter, { ...page, order }));
        await expectIndexedOnly(() => repos.drivers.list(filter, { ...page, order, after: first.next }));
        if (Object.keys(filter).length > 0)
          await expectIndexedOnly(() => repos.drivers.list(filter, { ...page, order, count: true }));
      }
    }
    const byName = { by: 'name' as const, descending: false };
    expect(await expectIndexedOnly(() => repos.drivers.list({}, { ...page, order: byName }))).toContain(
      'drivers_name_id_idx',
    );
    expect(
      await expectIndexedOnly(() => repos.drivers.list({ assemblyId: assemblyId(7) }, { ...page, order: byName })),
    ).toContain('drivers_assemblyId_name_id_idx');
    expect(await expectIndexedOnly(() => repos.drivers.list({ standing: 'revoked' }, page))).toContain(
      'drivers_dateRevoked_idx',
    );
  });

  it('searches owners by any part of name, phone or email through the trigram indexes', async () => {
    // Every search avoids a sequential scan. Where matches are rare the planner must go through the trigram indexes;
    // where they are common it may instead walk the newest-first index and stop at the page, which is also bounded.
    for (const q of ['3f9a2', 'owner4242@', '0240004242', '+2332400042', 'nothing-matches-this']) {
      const used = await expectIndexedOnly(() => repos.owners.search(q, page));
      if (q === 'nothing-matches-this' || q === 'owner4242@')
        expect(used.some((name) => name.includes('trgm'))).toBe(true);
      await expectIndexedOnly(() => repos.owners.search(q, page, assemblyId(7)));
    }
    await expectIndexedOnly(() => repos.owners.list(page));
    await expectIndexedOnly(() => repos.owners.list(page, assemblyId(7)));
  });

  it('searches the registry (plates any way typed, VINs, names, phones, licences, emails) through indexes', async () => {
    const find = (q: string, assembly?: string, request: { limit: number; after?: string; count?: boolean } = page) =>
      registry.search(searchTerms(q), REGISTRY_KINDS, request, assembly);
    // Rare matches must go through the trigram indexes; common ones may walk the newest-first index and stop at the
    // page instead. Either way no table is scanned, nationwide or within one assembly, counted or not.
    const rare = [
      'gr 4242 24',
      'GR4242-24',
      'Driver 4242',
      '0200004242',
      '+233240004242',
      'DL-4242',
      'owner4242@',
      'nothing-matches-this',
    ];
    for (const q of [...rare, '4242', 'GR 1', 'example.com', 'Owner 3f9a']) {
      const used = await expectIndexedOnly(() => find(q));
      if (rare.includes(q)) expect(used.some((name) => name.includes('trgm'))).toBe(true);
      await expectIndexedOnly(() => find(q, assemblyId(7)));
      await expectIndexedOnly(() => find(q, assemblyId(7), { ...page, count: true }));
    }
    // A plate typed without its spaces is found through the plate-key expression index.
    expect(await expectIndexedOnly(() => find('GR4242-24'))).toContain('vehicles_plate_key_trgm_idx');
    const vin = (await pool.query(`SELECT vin FROM vehicles WHERE id = $1`, [id(4242)])).rows[0].vin as string;
    expect(await expectIndexedOnly(() => find(vin.slice(3, 12)))).toContain('vehicles_vin_trgm_idx');
    // A later page starts at its cursor, whatever kind the cursor names.
    const first = await find('GR 1');
    expect(first.next).toBeDefined();
    await expectIndexedOnly(() => find('GR 1', undefined, { ...page, after: first.next }));
    await expectIndexedOnly(() => find('GR 1', assemblyId(7), { ...page, after: first.next }));
  });

  it('lists drivers by approval and email through indexes', async () => {
    for (const filter of [
      {},
      { approved: true },
      { approved: false },
      { email: 'driver77@example.com' },
      { assemblyId: assemblyId(7) },
      { assemblyId: assemblyId(7), approved: false },
    ]) {
      expect(await expectIndexedOnly(() => repos.drivers.list(filter, page))).not.toEqual([]);
    }
    await expectIndexedOnly(() => repos.drivers.findByEmail('DRIVER77@example.com'));
  });

  it('lists trips in a date range through the createdAt index', async () => {
    const to = new Date();
    const from = new Date(to.getTime() - 7 * 86_400_000);
    const used = await expectIndexedOnly(() => repos.trips.listCreatedBetween({ from, to }, page));
    expect(used.some((name) => name.startsWith('trips_createdAt'))).toBe(true);
    await expectIndexedOnly(() => repos.trips.listCreatedBetween({ from, to }, page, assemblyId(7)));
  });

  it('starts a deep page at its cursor in the index, not by re-reading every newer row (exports page to the end)', async () => {
    // The 90,001st newest vehicle, owner, trip and transaction: a late page of a long export (and, by plate or by name,
    // a page far from either end).
    const deep = id(90_001);
    const to = new Date(Date.now() + 86_400_000);
    const from = new Date(to.getTime() - 365 * 86_400_000);
    for (const run of [
      () => repos.trips.listCreatedBetween({ from, to }, { limit: 50, after: deep }),
      () => repos.vehicles.list({}, { limit: 50, after: deep }),
      () => repos.vehicles.list({}, { limit: 50, after: deep, order: { by: 'registrationNumber', descending: false } }),
      () => repos.vehicles.list({}, { limit: 50, after: deep, order: { by: 'registrationNumber', descending: true } }),
      () => repos.vehicles.list({}, { limit: 50, after: deep, order: { by: 'createdAt', descending: false } }),
      () => repos.drivers.list({}, { limit: 50, after: deep, order: { by: 'name', descending: false } }),
      () => repos.drivers.list({}, { limit: 50, after: deep, order: { by: 'name', descending: true } }),
      () => repos.transactions.listForMerchant('f'.repeat(24), {}, { limit: 50, after: deep }),
    ]) {
      captured = [];
      await run();
      const explain = new pg.Client({ connectionString: scratch.url });
      await explain.connect();
      try {
        for (const statement of captured.filter((c) => /order by/i.test(c.text))) {
          const result = await explain.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${statement.text}`, statement.values);
          const read = nodes(result.rows[0]['QUERY PLAN'][0].Plan as PlanNode).reduce(
            (sum, n) => sum + ((n as { 'Rows Removed by Filter'?: number })['Rows Removed by Filter'] ?? 0),
            0,
          );
          // A quadratic plan would skip the 90,000 newer rows on this page alone.
          if (read >= 1000) throw new Error(`${read} rows read and dropped before the page, in:\n${statement.text}`);
        }
      } finally {
        await explain.end();
      }
    }
  });

  it('counts the matches of filtered lists (count=true) through indexes', async () => {
    const count = { ...page, count: true };
    const to = new Date();
    const from = new Date(to.getTime() - 7 * 86_400_000);
    await expectIndexedOnly(() => repos.drivers.list({ approved: false, assemblyId: assemblyId(7) }, count));
    await expectIndexedOnly(() => repos.drivers.list({ approved: true }, count));
    await expectIndexedOnly(() => repos.vehicles.list({ assemblyId: assemblyId(7) }, count));
    await expectIndexedOnly(() => repos.trips.listCreatedBetween({ from, to }, count));
    await expectIndexedOnly(() => repos.transactions.listForMerchant('f'.repeat(24), { status: 'pending' }, count));
    await expectIndexedOnly(() => new PrismaAuditTrail(prisma).browse({ actorId: id(42) }, count));
  });

  it('finds transactions by merchant reference through an index', async () => {
    await expectIndexedOnly(() => repos.transactions.findByMerchantReference('f'.repeat(24), 'REF-4242'));
  });

  it("lists a merchant's transactions by state and date, with a cursor, through indexes", async () => {
    const merchant = 'f'.repeat(24);
    const cursor = (await repos.transactions.listForMerchant(merchant, {}, page)).next;
    const from = new Date(Date.now() - 30 * 86_400_000);
    const to = new Date(Date.now() - 29 * 86_400_000);
    for (const filter of [{}, { status: 'pending' as const }, { from, to }, { status: 'success' as const, from, to }]) {
      await expectIndexedOnly(() => repos.transactions.listForMerchant(merchant, filter, page));
      await expectIndexedOnly(() => repos.transactions.listForMerchant(merchant, filter, { ...page, after: cursor }));
    }
  });

  it('lists regions, stations and unions newest first through their createdAt indexes', async () => {
    const cursor = (await repos.stations.list(page)).next;
    await expectIndexedOnly(() => repos.stations.list(page));
    await expectIndexedOnly(() => repos.stations.list({ ...page, after: cursor }));
    await expectIndexedOnly(() => repos.unions.list(page));
    await expectIndexedOnly(() => repos.regions.list(page));
  });

  it('browses the audit log by time, actor and kind of record, with a cursor, through indexes', async () => {
    const trail = new PrismaAuditTrail(prisma);
    const day = 86_400_000;
    const from = new Date(Date.now() - 10 * day);
    const to = new Date(Date.now() - 9 * day);
    const first = await trail.browse({}, page);
    for (const filter of [
      {},
      { from, to },
      { actorId: id(42) },
      { actorId: id(42), from, to },
      { entity: 'vehicle' },
      { entity: 'driver', from, to },
      { actorRole: 'platform', from, to },
    ]) {
      await expectIndexedOnly(() => trail.browse(filter, page));
      await expectIndexedOnly(() => trail.browse(filter, { ...page, after: first.next }));
    }
  });

  it('lists vehicles whose certificates end soon without scanning the table', async () => {
    const soon = new Date(Date.now() + 30 * 86_400_000);
    await expectIndexedOnly(() => repos.vehicles.listCertificatesEndingBy(soon, page));
    await expectIndexedOnly(() => repos.vehicles.listCertificatesEndingBy(soon, page, assemblyId(7)));
  });
});
