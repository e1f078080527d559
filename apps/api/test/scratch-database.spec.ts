import pg from 'pg';
import { describeOnPostgres } from './support/postgres-only';
import { createScratchDatabase, postgresAdminUrl } from './support/postgres-tier';

/**
 * A test file's scratch database is dropped after its last test, usually a moment after the file closed its pool.
 * pg's `pool.end()` resolves once it has told its connections to close, not once they are closed, so a forced drop
 * right after it terminated connections that were closing by themselves, and a pool without an error listener threw
 * "terminating connection due to administrator command" into the file's last test (job-backlog.spec failed so once in
 * a fresh-clone CI run).
 */
describeOnPostgres('scratch databases', () => {
  it('are dropped once the connections that are closing have closed, without terminating them', async () => {
    const database = await createScratchDatabase('scratch');
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    const errors: Error[] = [];
    client.on('error', (error) => errors.push(error));
    // The connection closes a little after the drop is asked for, as a pool's do after `end()`.
    const closed = new Promise<void>((resolve) => setTimeout(() => void client.end().then(resolve), 300));
    await database.drop();
    await closed;
    expect(errors).toEqual([]);
    const admin = new pg.Client({ connectionString: postgresAdminUrl() });
    await admin.connect();
    try {
      const { rows } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [database.name]);
      expect(rows).toEqual([]);
    } finally {
      await admin.end();
    }
  });
});
