import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { migrateDeploy, migrationsApplied } from '../src/persistence/migrate';
import { describeOnPostgres } from './support/postgres-only';
import { createScratchDatabase } from './support/postgres-tier';
import { WORKSPACE_ROOT } from './support/test-app';

const MIGRATIONS = join(WORKSPACE_ROOT, 'prisma', 'migrations');
const PAYMENT_IDENTITY = '20261123110000_payment_intent_identity_limits';
const EXACT_MONEY = '20261128110500_exact_transaction_money';
const EXACT_TRIP_MONEY = '20261128113000_exact_trip_money';
const JURISDICTION = '20261123140000_assembly_jurisdiction';

// Prisma orders migrations by folder name: two with one timestamp run in the order of the rest of their names. The one
// pair that shares a timestamp is applied on existing databases under those names and stays (docs/development.md,
// "Two migrations share a timestamp"); any other would be a new mistake.
describe('migration folder names', () => {
  it('give every migration its own timestamp, but for the one known pair', () => {
    const stamps = new Map<string, string[]>();
    for (const name of readdirSync(MIGRATIONS).filter((m) => !m.endsWith('.toml')))
      stamps.set(name.slice(0, 14), [...(stamps.get(name.slice(0, 14)) ?? []), name]);
    const shared = [...stamps.values()].filter((names) => names.length > 1);
    expect(shared).toEqual([['20261126010000_document_reminders', '20261126010000_registry_search']]);
  });
});

// A migration that changes what existing rows mean is tested on existing rows: here, transactions stored before
// payments had a platform-unique ClientReference.
describeOnPostgres('migrations carry existing data over', () => {
  it('lets the app start without the Prisma CLI only when every committed migration is applied', async () => {
    const database = await createScratchDatabase('applied');
    const client = new pg.Client({ connectionString: database.url });
    try {
      expect(await migrationsApplied(WORKSPACE_ROOT, database.url)).toBe(false); // not even the table yet
      await migrateDeploy(WORKSPACE_ROOT, database.url);
      expect(await migrationsApplied(WORKSPACE_ROOT, database.url)).toBe(true);
      await client.connect();
      await client.query(`UPDATE _prisma_migrations SET finished_at = NULL WHERE migration_name = $1`, [JURISDICTION]);
      expect(await migrationsApplied(WORKSPACE_ROOT, database.url)).toBe(false); // one failed half-way
      await client.query(`DELETE FROM _prisma_migrations WHERE migration_name = $1`, [JURISDICTION]);
      expect(await migrationsApplied(WORKSPACE_ROOT, database.url)).toBe(false); // one not applied
    } finally {
      await client.end();
      await database.drop();
    }
  });

  /** A scratch database with every migration before `name` applied; `apply` runs one more. */
  async function migratedUpTo(name: string) {
    const database = await createScratchDatabase('migrate');
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    const apply = async (migration: string) =>
      client.query(readFileSync(join(MIGRATIONS, migration, 'migration.sql'), 'utf8'));
    const earlier = readdirSync(MIGRATIONS)
      .filter((m) => m < name && !m.endsWith('.toml'))
      .sort();
    for (const m of earlier) await apply(m);
    const close = async () => {
      await client.end();
      await database.drop();
    };
    return { client, apply, close };
  }

  it('places records staff already worked on in that staff member’s assembly, and leaves the rest unassigned', async () => {
    const { client, apply, close } = await migratedUpTo(JURISDICTION);
    try {
      const id = (c: string, n: number) => c.repeat(23) + n;
      await client.query(`
        INSERT INTO regions (id, name, country, "updatedAt") VALUES ('${id('r', 1)}', 'Greater Accra', '${id('c', 1)}', now());
        INSERT INTO assemblies (id, name, "regionId", "digitalAddress", type, "updatedAt") VALUES
          ('${id('a', 1)}', 'Accra', '${id('r', 1)}', 'GA-1', 'metropolitan', now()),
          ('${id('a', 2)}', 'Tema', '${id('r', 1)}', 'GT-1', 'metropolitan', now());
        INSERT INTO assembly_users (id, "assemblyId", name, email, phone, role, "updatedAt") VALUES
          ('${id('e', 1)}', '${id('a', 1)}', 'Abena', 'abena@ama.gov.gh', '+233244000001', 'approver', now()),
          ('${id('e', 2)}', '${id('a', 2)}', 'Kweku', 'kweku@tma.gov.gh', '+233244000002', 'inspector', now());
        INSERT INTO vehicle_owners (id, name, phone, email, "idType", "idNumber", "updatedAt") VALUES
          ('${id('0', 1)}', 'Kofi', '+233244000011', 'kofi@example.com', 'ghana_card', 'GHA-1', now()),
          ('${id('0', 2)}', 'Ama', '+233244000012', 'ama@example.com', 'ghana_card', 'GHA-2', now());
        INSERT INTO vehicles (id, "ownerId", inspected, approved, "inspectedBy", "approvedBy", "updatedAt") VALUES
          ('${id('b', 1)}', '${id('0', 1)}', true, true, '${id('e', 2)}', '${id('e', 1)}', now()),
          ('${id('b', 2)}', '${id('0', 1)}', true, false, '${id('e', 2)}', NULL, now() + interval '1 minute'),
          ('${id('b', 3)}', '${id('0', 2)}', false, false, NULL, NULL, now());
        INSERT INTO drivers (id, name, phone, email, license, "licenseClass", "licenseExpiry", "licenseIssueDate",
                             "idType", "idNumber", gender, approved, "approvedBy", "activationKeyHash",
                             "activationKeyExpiresAt", "updatedAt") VALUES
          ('${id('d', 1)}', 'Esi', '+233209000001', 'esi@example.com', 'DL-1', 'B', now() + interval '1 year',
           now() - interval '1 year', 'ghana_card', 'GHA-D1', 'female', true, '${id('e', 1)}', 'h', now(), now()),
          ('${id('d', 2)}', 'Kojo', '+233209000002', 'kojo@example.com', 'DL-2', 'B', now() + interval '1 year',
           now() - interval '1 year', 'ghana_card', 'GHA-D2', 'male', false, NULL, 'h', now(), now());
        INSERT INTO trips (id, "ticketNumber", "estimatedPrice", "estimatedDistance", "user", "pickupLocation",
                           "serviceDestination", "updatedAt") VALUES
          ('${id('f', 1)}', 'TKT-1', 1000, 5, 'p', '{}', '{}', now()),
          ('${id('f', 2)}', 'TKT-2', 1000, 5, 'p', '{}', '{}', now());
        INSERT INTO trip_services (id, "tripId", "serviceID", type, driver, vehicle, pricing, passengers, amount) VALUES
          ('${id('9', 1)}', '${id('f', 1)}', 'S1', 'taxi', '{}', '{"id": "${id('b', 1)}"}', '{}', 1, 0),
          ('${id('9', 2)}', '${id('f', 2)}', 'S2', 'taxi', '{}', '{"id": "${id('b', 3)}"}', '{}', 1, 0);`);
      await apply(JURISDICTION);
      const placed = async (table: string) =>
        (await client.query(`SELECT id, "assemblyId" FROM ${table} ORDER BY id`)).rows.map(
          (r: { id: string; assemblyId: string | null }) => [r.id, r.assemblyId],
        );
      expect(await placed('vehicles')).toEqual([
        [id('b', 1), id('a', 1)], // approved in Accra (its inspector, from Tema, does not decide)
        [id('b', 2), id('a', 2)], // only inspected, in Tema
        [id('b', 3), null],
      ]);
      // Kofi's earliest placed vehicle is Accra's; Ama's only vehicle is unplaced.
      expect(await placed('vehicle_owners')).toEqual([
        [id('0', 1), id('a', 1)],
        [id('0', 2), null],
      ]);
      expect(await placed('drivers')).toEqual([
        [id('d', 1), id('a', 1)],
        [id('d', 2), null],
      ]);
      // A trip goes where its vehicle now is.
      expect(await placed('trips')).toEqual([
        [id('f', 1), id('a', 1)],
        [id('f', 2), null],
      ]);
    } finally {
      await close();
    }
  });

  it("keeps an old transaction's ClientReference (its merchant reference) unless another merchant used it first", async () => {
    const { client, apply, close } = await migratedUpTo(PAYMENT_IDENTITY);
    try {
      await client.query(`
        INSERT INTO merchants (id, name, "signingSecret", "updatedAt") VALUES
          ('aaaaaaaaaaaaaaaaaaaaaaa1', 'A', 's', now()), ('aaaaaaaaaaaaaaaaaaaaaaa2', 'B', 's', now());
        INSERT INTO transactions (id, "merchantId", amount, status, "requestType", description, reference,
                                  "callBackUrl", "customerPhone", "requestInfo", "updatedAt", "createdAt") VALUES
          ('bbbbbbbbbbbbbbbbbbbbbbb1', 'aaaaaaaaaaaaaaaaaaaaaaa1', 100, 'pending', 'mobile_money', 'd', 'SAME',
           'https://x', '+233244000000', '{"ResponseCode":"0001","Data":{"TransactionId":"p1"}}', now(), now() - interval '2 hours'),
          ('bbbbbbbbbbbbbbbbbbbbbbb2', 'aaaaaaaaaaaaaaaaaaaaaaa2', 100, 'pending', 'mobile_money', 'd', 'SAME',
           'https://x', '+233244000000', '{"ResponseCode":"0001","Data":{}}', now(), now() - interval '1 hours'),
          ('bbbbbbbbbbbbbbbbbbbbbbb3', 'aaaaaaaaaaaaaaaaaaaaaaa2', 100, 'success', 'mobile_money', 'd', 'OWN',
           'https://x', '+233244000000', '{"ResponseCode":"0001","Data":{"TransactionId":""}}', now(), now());`);
      await apply(PAYMENT_IDENTITY);
      const { rows } = await client.query(
        'SELECT id, "providerReference", "providerTransactionId" FROM transactions ORDER BY id',
      );
      expect(rows).toEqual([
        { id: 'bbbbbbbbbbbbbbbbbbbbbbb1', providerReference: 'SAME', providerTransactionId: 'p1' },
        { id: 'bbbbbbbbbbbbbbbbbbbbbbb2', providerReference: 'bbbbbbbbbbbbbbbbbbbbbbb2', providerTransactionId: null },
        { id: 'bbbbbbbbbbbbbbbbbbbbbbb3', providerReference: 'OWN', providerTransactionId: null },
      ]);
    } finally {
      await close();
    }
  });

  it("converts a transaction's whole pesewas to exact cedis, and then keeps a third decimal and an unknown fee", async () => {
    const { client, apply, close } = await migratedUpTo(EXACT_MONEY);
    try {
      const row = (id: string, amount: number, fees: number) =>
        `('${id}', 'aaaaaaaaaaaaaaaaaaaaaaa1', ${amount}, ${fees}, 'success', 'mobile_money', 'd', 'R${id.slice(-1)}',
          '${id}', 'https://x', '+233244000000', now())`;
      await client.query(`
        INSERT INTO merchants (id, name, "signingSecret", "updatedAt") VALUES ('aaaaaaaaaaaaaaaaaaaaaaa1', 'A', 's', now());
        INSERT INTO transactions (id, "merchantId", amount, fees, status, "requestType", description, reference,
                                  "providerReference", "callBackUrl", "customerPhone", "updatedAt") VALUES
          ${row('bbbbbbbbbbbbbbbbbbbbbbb1', 2550, 5)}, ${row('bbbbbbbbbbbbbbbbbbbbbbb2', 2_000_000_000, 0)};`);
      await apply(EXACT_MONEY);
      await client.query(`
        INSERT INTO transactions (id, "merchantId", amount, fees, status, "requestType", description, reference,
                                  "providerReference", "callBackUrl", "customerPhone", "updatedAt") VALUES
          ('bbbbbbbbbbbbbbbbbbbbbbb3', 'aaaaaaaaaaaaaaaaaaaaaaa1', 10.125, NULL, 'success', 'mobile_money', 'd', 'R3',
           'bbbbbbbbbbbbbbbbbbbbbbb3', 'https://x', '+233244000000', now())`);
      const { rows } = await client.query('SELECT id, amount::text, fees::text FROM transactions ORDER BY id');
      expect(rows).toEqual([
        { id: 'bbbbbbbbbbbbbbbbbbbbbbb1', amount: '25.500000', fees: '0.050000' },
        { id: 'bbbbbbbbbbbbbbbbbbbbbbb2', amount: '20000000.000000', fees: '0.000000' },
        { id: 'bbbbbbbbbbbbbbbbbbbbbbb3', amount: '10.125000', fees: null },
      ]);
    } finally {
      await close();
    }
  });
  it("converts a trip's whole pesewas and its pricing's prices to exact money, and then keeps a third decimal", async () => {
    const { client, apply, close } = await migratedUpTo(EXACT_TRIP_MONEY);
    try {
      await client.query(`
        INSERT INTO trips (id, "ticketNumber", "estimatedPrice", "estimatedDistance", "finalPrice", "cashPrice", charges,
                           "settledAmount", discount, "refundAmount", "user", "pickupLocation", "serviceDestination",
                           "updatedAt") VALUES
          ('ccccccccccccccccccccccc1', 'T1', 2550, 5, 3250, NULL, 50, 3200, 100, 1200, 'p', '{}', '{}', now()),
          ('ccccccccccccccccccccccc2', 'T2', 2000000000, 5, NULL, 2000000000, 0, 0, 0, 0, 'p', '{}', '{}', now());
        INSERT INTO trip_services (id, "tripId", "serviceID", type, driver, vehicle, pricing, passengers, amount) VALUES
          ('ddddddddddddddddddddddd1', 'ccccccccccccccccccccccc1', 'S1', 'taxi', '{}', '{}',
           '{"id": "p", "type": "standard", "pricePerKm": 250, "pricePerMinute": 30}', 1, 3250),
          ('ddddddddddddddddddddddd2', 'ccccccccccccccccccccccc2', 'S2', 'taxi', '{}', '{}', '{}', 1, 0);`);
      await apply(EXACT_TRIP_MONEY);
      const trips = await client.query(
        `SELECT "estimatedPrice"::text, "finalPrice"::text, "cashPrice"::text, charges::text, "settledAmount"::text,
                discount::text, "refundAmount"::text FROM trips ORDER BY id`,
      );
      expect(trips.rows).toEqual([
        {
          estimatedPrice: '25.500000',
          finalPrice: '32.500000',
          cashPrice: null,
          charges: '0.500000',
          settledAmount: '32.000000',
          discount: '1.000000',
          refundAmount: '12.000000',
        },
        {
          estimatedPrice: '20000000.000000',
          finalPrice: null,
          cashPrice: '20000000.000000',
          charges: '0.000000',
          settledAmount: '0.000000',
          discount: '0.000000',
          refundAmount: '0.000000',
        },
      ]);
      const services = await client.query('SELECT amount::text, pricing FROM trip_services ORDER BY id');
      expect(services.rows).toEqual([
        {
          amount: '32.500000',
          pricing: { id: 'p', type: 'standard', pricePerKm: 2_500_000, pricePerMinute: 300_000 },
        },
        { amount: '0.000000', pricing: {} },
      ]);
      await client.query(
        `UPDATE trips SET "estimatedPrice" = 12.345, charges = 0.195 WHERE id = 'ccccccccccccccccccccccc1'`,
      );
      const kept = await client.query(
        `SELECT "estimatedPrice"::text, charges::text FROM trips WHERE "ticketNumber" = 'T1'`,
      );
      expect(kept.rows).toEqual([{ estimatedPrice: '12.345000', charges: '0.195000' }]);
    } finally {
      await close();
    }
  });
});
