import { spawn } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import pg from 'pg';

/**
 * Whether every committed migration (a folder of `prisma/migrations`) is recorded as applied, and none as failed or
 * rolled back. Starting then needs no Prisma CLI, which costs about a second of start time; any doubt (no table yet,
 * a migration missing, one failed) leaves the decision to `prisma migrate deploy`.
 */
export async function migrationsApplied(appRoot: string, databaseUrl: string): Promise<boolean> {
  const folder = join(appRoot, 'prisma', 'migrations');
  const committed = (await readdir(folder, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ migration_name: string; done: boolean }>(
      `SELECT migration_name, finished_at IS NOT NULL AND rolled_back_at IS NULL AS done FROM _prisma_migrations`,
    );
    const done = new Set(rows.filter((r) => r.done).map((r) => r.migration_name));
    return rows.every((r) => r.done || done.has(r.migration_name)) && committed.every((name) => done.has(name));
  } catch {
    return false;
  } finally {
    await client.end();
  }
}

/** The migrations this release ships (the folders of `prisma/migrations`), in order. */
export async function committedMigrations(appRoot: string): Promise<string[]> {
  const folder = join(appRoot, 'prisma', 'migrations');
  return (await readdir(folder, { withFileTypes: true }))
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
}

/**
 * The committed migrations the database has not applied (none recorded as finished and not rolled back): the schema is
 * behind the code. Migrations the database has and the code does not are fine (the previous release running after the
 * next one's migration: expand, then contract, docs/operations.md).
 */
export async function pendingMigrations(committed: string[], db: Pick<pg.Pool, 'query'>): Promise<string[]> {
  const { rows } = await db
    .query<{ migration_name: string }>(
      `SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
    )
    .catch((error: { code?: string }) => {
      // No table yet: nothing was ever applied.
      if (error.code === '42P01') return { rows: [] };
      throw error;
    });
  const done = new Set(rows.map((r) => r.migration_name));
  return committed.filter((name) => !done.has(name));
}

/**
 * Applies the committed migrations with the Prisma CLI (`prisma migrate deploy`), exactly as an operator would.
 * Asynchronous on purpose: when the embedded database is served from this process, a synchronous child would block
 * the event loop that answers its queries (deadlock).
 */
export async function migrateDeploy(appRoot: string, databaseUrl: string): Promise<void> {
  // createRequire from the app root: the Prisma CLI installed beside the app, wherever the bundle itself runs from.
  const cli = createRequire(join(appRoot, 'package.json')).resolve('prisma/build/index.js');
  const output: string[] = [];
  const code = await new Promise<number | null>((resolvePromise, reject) => {
    const child = spawn(process.execPath, [cli, 'migrate', 'deploy'], {
      cwd: appRoot,
      env: {
        ...process.env,
        DATABASE_URL: databaseUrl,
        NODE_OPTIONS: '',
        PRISMA_HIDE_UPDATE_MESSAGE: '1',
        CHECKPOINT_DISABLE: '1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    child.on('error', reject);
    child.on('close', resolvePromise);
  });
  if (code !== 0) {
    // Prisma's own advice (`migrate resolve`) needs its native engine, which is never downloaded here: name ours.
    throw new Error(
      `prisma migrate deploy failed (exit ${code}):\n${output.join('')}\n` +
        'Next: `npm run migrations -- status` (or `node cli.js migrations status` in the runtime bundle) names the ' +
        'failed migration and why; remove the cause, then `npm run migrations -- retry <migration>`. ' +
        'docs/operations.md, "When a migration fails".',
    );
  }
}
