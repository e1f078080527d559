import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { migrateDeploy, migrationsApplied } from '../src/persistence/migrate';
import { describeOnPostgres } from './support/postgres-only';
import { createScratchDatabase } from './support/postgres-tier';
import { WORKSPACE_ROOT } from './support/test-app';

const FAILING = '29991231000000_fails_part_way';

/**
 * A scratch application root whose migrations folder holds this release's migrations plus one that fails part-way
 * (a table created, then an error): the checkout's own prisma/ is never touched.
 */
function scratchRoot(): string {
  const root = mkdtempSync(join(tmpdir(), 'failed-migration-'));
  for (const entry of ['package.json', 'prisma.config.ts', 'prisma'])
    cpSync(join(WORKSPACE_ROOT, entry), join(root, entry), { recursive: true });
  // prisma.config.ts imports the embedded server's module; the CLI and the Prisma package come from the checkout.
  for (const entry of ['node_modules', 'apps']) symlinkSync(join(WORKSPACE_ROOT, entry), join(root, entry));
  mkdirSync(join(root, 'prisma', 'migrations', FAILING));
  writeFileSync(
    join(root, 'prisma', 'migrations', FAILING, 'migration.sql'),
    'CREATE TABLE left_behind (id integer);\nSELECT 1 / 0;\n',
  );
  return root;
}

// Issue 45, item 8: after a failed migration, the way out works offline (Prisma's `resolve --rolled-back` needs a
// native engine never downloaded here) and never marks applied what was rolled back.
describeOnPostgres('when a migration fails', () => {
  jest.setTimeout(180_000);
  let root: string;
  let database: Awaited<ReturnType<typeof createScratchDatabase>>;
  let client: pg.Client;

  beforeAll(async () => {
    root = scratchRoot();
    database = await createScratchDatabase('failed-migration');
    client = new pg.Client({ connectionString: database.url });
    await client.connect();
  });
  afterAll(async () => {
    await client?.end();
    await database?.drop();
    rmSync(root, { recursive: true, force: true });
  });

  const cli = (...args: string[]) =>
    spawnSync(process.execPath, [join(WORKSPACE_ROOT, 'dist', 'apps', 'api', 'cli.js'), 'migrations', ...args], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, APP_ROOT: root, DATABASE_URL: database.url, NODE_OPTIONS: '', LOG_LEVEL: 'silent' },
      timeout: 120_000,
    });
  const tableExists = async (name: string) =>
    (await client.query('SELECT to_regclass($1) AS t', [name])).rows[0].t !== null;

  it('says what failed and the next step, refuses to mark it applied, and recovers with retry', async () => {
    const failure = await migrateDeploy(root, database.url).then(
      () => undefined,
      (error: Error) => error.message,
    );
    expect(failure).toContain(FAILING);
    expect(failure).toContain('npm run migrations -- status');
    // One transaction: nothing of the failed migration is left.
    expect(await tableExists('left_behind')).toBe(false);

    const status = cli('status');
    expect(status.status).toBe(1);
    expect(status.stdout).toMatch(new RegExp(`FAILED\\s+${FAILING}`));
    expect(status.stdout).toContain('division by zero');
    expect(status.stdout).toContain(`npm run migrations -- retry ${FAILING}`);
    expect(status.stdout).toMatch(/applied\s+20261122032456_init/);

    const applied = cli('applied', FAILING);
    expect(applied.status).toBe(1);
    expect(applied.stdout).toContain('Refusing to mark a migration applied');
    const stillFailed = await client.query(
      'SELECT finished_at, rolled_back_at FROM _prisma_migrations WHERE migration_name = $1',
      [FAILING],
    );
    expect(stillFailed.rows).toEqual([{ finished_at: null, rolled_back_at: null }]);

    // An applied migration is never marked rolled back.
    const wrong = cli('rolled-back', '20261122032456_init');
    expect(wrong.status).toBe(1);
    expect(wrong.stdout).toContain('is applied');

    // The cause removed (here: the migration corrected before it was ever applied anywhere), then retry.
    writeFileSync(join(root, 'prisma', 'migrations', FAILING, 'migration.sql'), 'CREATE TABLE kept (id integer);\n');
    const retry = cli('retry', FAILING);
    expect(retry.stderr).toBe('');
    expect(retry.status).toBe(0);
    expect(retry.stdout).toContain('rolled back');
    expect(await tableExists('kept')).toBe(true);
    expect(await migrationsApplied(root, database.url)).toBe(true);
    const after = cli('status');
    expect(after.status).toBe(0);
    expect(after.stdout).toMatch(new RegExp(`applied\\s+${FAILING}`));
  });
});
