import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { describeOnPostgres } from './support/postgres-only';
import { createScratchDatabase } from './support/postgres-tier';
import { WORKSPACE_ROOT } from './support/test-app';

const MIGRATIONS = join(WORKSPACE_ROOT, 'prisma', 'migrations');
const PAYMENT_IDENTITY = '20261123110000_payment_intent_identity_limits';

// A migration that changes what existing rows mean is tested on existing rows: here, transactions stored before
// payments had a platform-unique ClientReference.
describeOnPostgres('migrations carry existing data over', () => {
  it("keeps an old transaction's ClientReference (its merchant reference) unless another merchant used it first", async () => {
    const database = await createScratchDatabase('migrate');
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const apply = async (name: string) => client.query(readFileSync(join(MIGRATIONS, name, 'migration.sql'), 'utf8'));
      const earlier = readdirSync(MIGRATIONS)
        .filter((name) => name < PAYMENT_IDENTITY && !name.endsWith('.toml'))
        .sort();
      for (const name of earlier) await apply(name);
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
      await client.end();
      await database.drop();
    }
  });
});
