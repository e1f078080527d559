import { resolve } from 'node:path';
import pg from 'pg';
import { makeMigratedTemplates } from './migrated-templates';
import { postgresAdminUrl, postgresTierAvailable } from './postgres-tier';

/**
 * Probes PostgreSQL once for the whole run. In CI the PostgreSQL tier is mandatory: unreachable means the run fails.
 * Elsewhere its tests are skipped, with a message nobody can miss. Then makes the migrated databases that each test
 * file's scratch database is copied from (migrated-templates.ts).
 */
export default async function globalSetup(): Promise<void> {
  const client = new pg.Client({ connectionString: postgresAdminUrl(), connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    process.env.TEST_POSTGRES_TIER = 'available';
  } catch (error) {
    const reason = `PostgreSQL tier: cannot reach ${postgresAdminUrl().replace(/:[^:@/]*@/, ':***@')}: ${(error as Error).message}`;
    if (process.env.CI === 'true') {
      throw new Error(`${reason}. In CI this tier is mandatory.`);
    }
    process.env.TEST_POSTGRES_TIER = 'unavailable';
    const bar = '!'.repeat(100);
    process.stderr.write(
      `\n${bar}\n${reason}\nSKIPPING every PostgreSQL-tier test (set DATABASE_URL or start PostgreSQL).\n${bar}\n\n`,
    );
  } finally {
    await client.end().catch(() => undefined);
  }
  await makeMigratedTemplates(resolve(__dirname, '../../../..'), postgresTierAvailable());
}
