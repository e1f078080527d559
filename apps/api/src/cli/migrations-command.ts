import type pg from 'pg';
import type { AppConfig } from '../config';
import { openDatabase } from '../persistence/database';
import { committedMigrations, migrateDeploy } from '../persistence/migrate';
import { cliDatabaseConfig } from './keys-command';

/** Prisma's migration lock (a session advisory lock): held while `prisma migrate deploy` runs anywhere. */
const PRISMA_MIGRATION_LOCK = 72707369;

const USAGE =
  'usage: npm run migrations -- status | rolled-back <migration> | retry <migration>\n' +
  '  status                 each migration of this release: applied, pending, FAILED or rolled back\n' +
  '  rolled-back <name>     record that a FAILED migration left nothing behind (each runs in one transaction)\n' +
  '  retry <name>           the same, then apply the pending migrations again (prisma migrate deploy)\n' +
  '(docs/operations.md, "When a migration fails")';

interface Attempt {
  migration_name: string;
  finished_at: Date | null;
  rolled_back_at: Date | null;
  started_at: Date;
  logs: string | null;
}

type State = 'applied' | 'FAILED' | 'rolled back' | 'pending';

/** A migration's state from its attempts (Prisma keeps one row per attempt): the newest attempt decides. */
function stateOf(attempts: Attempt[]): State {
  if (attempts.some((a) => a.finished_at && !a.rolled_back_at)) return 'applied';
  const newest = attempts.at(-1);
  if (!newest) return 'pending';
  return newest.rolled_back_at ? 'rolled back' : 'FAILED';
}

async function attempts(db: pg.Pool): Promise<Map<string, Attempt[]>> {
  const { rows } = await db
    .query<Attempt>(
      'SELECT migration_name, finished_at, rolled_back_at, started_at, logs FROM _prisma_migrations ORDER BY started_at',
    )
    .catch((error: { code?: string }) => {
      if (error.code === '42P01') return { rows: [] as Attempt[] }; // never migrated: no table yet
      throw error;
    });
  const byName = new Map<string, Attempt[]>();
  for (const row of rows) byName.set(row.migration_name, [...(byName.get(row.migration_name) ?? []), row]);
  return byName;
}

/**
 * The way out of a failed migration that works offline: plain SQL on `_prisma_migrations` (Prisma's own
 * `migrate resolve --rolled-back` needs its native schema engine, which this project never downloads). There is no
 * `applied`: Prisma's `resolve --applied` marks as applied a migration whose changes were rolled back with it, leaving
 * the schema behind the code for good.
 */
export async function migrationsCommand(args: string[], config: AppConfig, out: (line: string) => void) {
  const [command, name] = args;
  if (command === 'applied') {
    out(
      'Refusing to mark a migration applied: a failed migration ran in one transaction, so none of its changes are in ' +
        'the database, and marking it applied would leave the schema behind the code. Remove the cause, then ' +
        '`npm run migrations -- retry <migration>`.',
    );
    return 1;
  }
  if (!['status', 'rolled-back', 'retry'].includes(command) || (command !== 'status' && !name)) {
    out(USAGE);
    return 2;
  }
  const database = await openDatabase(await cliDatabaseConfig({ ...config, migrateOnStart: false }));
  try {
    const committed = await committedMigrations(config.appRoot);
    const recorded = await attempts(database.pool);
    if (command === 'status') return status(committed, recorded, out);

    const state = stateOf(recorded.get(name) ?? []);
    if (state !== 'FAILED' && !(command === 'retry' && state !== 'applied')) {
      out(
        state === 'applied'
          ? `${name} is applied: nothing to roll back or retry.`
          : `${name} is ${state === 'pending' ? 'not recorded in this database' : state}: only a FAILED migration can be marked rolled back (npm run migrations -- status).`,
      );
      return 1;
    }
    if (state === 'FAILED') {
      const { rows } = await database.pool.query(
        'SELECT 1 FROM pg_locks WHERE locktype = $1 AND objid = $2 AND granted',
        ['advisory', PRISMA_MIGRATION_LOCK],
      );
      if (rows.length > 0) {
        out(`A migration is running now (Prisma's lock is held): wait for it, then check again with status.`);
        return 1;
      }
      await database.pool.query(
        `UPDATE _prisma_migrations SET rolled_back_at = now()
          WHERE migration_name = $1 AND finished_at IS NULL AND rolled_back_at IS NULL`,
        [name],
      );
      out(`${name}: the failed attempt is recorded as rolled back.`);
    }
    if (command === 'rolled-back') {
      out('Next: `npm run migrations -- retry ' + name + '` (or prisma migrate deploy, the migration Job, a start).');
      return 0;
    }
    await migrateDeploy(config.appRoot, config.databaseDirectUrl ?? database.url);
    out('Applied: every migration of this release is in the database.');
    return 0;
  } finally {
    await database.close();
  }
}

function status(committed: string[], recorded: Map<string, Attempt[]>, out: (line: string) => void): number {
  const failed: string[] = [];
  for (const name of committed) {
    const tries = recorded.get(name) ?? [];
    const state = stateOf(tries);
    if (state === 'FAILED') failed.push(name);
    out(`${state.padEnd(12)} ${name}`);
    if (state === 'FAILED') {
      // Prisma's log: the database's error, then the schema engine's stack (indented, numbered), which says nothing more.
      const lines = (tries.at(-1)?.logs ?? '').split('\n');
      const end = lines.findIndex((line) => /^\s+\d+: /.test(line));
      for (const line of lines.slice(0, end < 0 ? 4 : Math.min(end, 4)).filter((l) => l.trim()))
        out(`             ${line.trim()}`);
    }
  }
  for (const name of recorded.keys())
    if (!committed.includes(name)) out(`${'newer'.padEnd(12)} ${name} (applied by a later release)`);
  if (failed.length > 0) {
    out(
      `\n${failed.length} failed. Nothing of a failed migration is left in the database (each runs in one ` +
        'transaction). Read the reason above, remove its cause, then: npm run migrations -- retry ' +
        `${failed[0]}\n(docs/operations.md, "When a migration fails")`,
    );
    return 1;
  }
  return 0;
}
