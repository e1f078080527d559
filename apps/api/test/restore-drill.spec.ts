import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import request from 'supertest';
import { createApp, type RunningApp } from '../src/app';
import { loadApiFixture, type ApiFixture } from './support/api-fixtures';
import {
  clusterFromData,
  createCluster,
  describeWithPrograms,
  postgresBin,
  runAsServer,
  serverFolder,
  type LocalCluster,
} from './support/local-servers';
import { createScratchDatabase } from './support/postgres-tier';
import { startService } from './support/service-process';
import { openTierStore, WORKSPACE_ROOT, type TierStore } from './support/test-app';

/** Every table of the service's schemas with its row count, in one query's worth of rows. */
async function counts(url: string): Promise<Record<string, number>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows: tables } = await client.query<{ name: string }>(
      `SELECT format('%I.%I', schemaname, tablename) AS name FROM pg_tables
        WHERE schemaname IN ('public', 'pgboss') ORDER BY 1`,
    );
    const result: Record<string, number> = {};
    for (const { name } of tables)
      result[name] = Number((await client.query<{ n: string }>(`SELECT count(*) AS n FROM ${name}`)).rows[0].n);
    return result;
  } finally {
    await client.end();
  }
}

function run(program: string, args: string[]) {
  const result = spawnSync(program, args, { encoding: 'utf8', timeout: 180_000 });
  if (result.status !== 0) throw new Error(`${program} ${args.join(' ')}:\n${result.stdout}\n${result.stderr}`);
  return result;
}

// The backup runbook's drill (docs/operations.md, "Backups and restores"), as an operator runs it: pg_dump of a
// populated database, pg_restore into an empty one, the service started on the restored copy; every table holds the
// same rows, and a merchant's status check answers the same bytes.
describeWithPrograms('the restore drill', { pg_dump: postgresBin() }, () => {
  let tier: TierStore;
  let app: RunningApp;
  let f: ApiFixture;
  let folder: string;

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'transport-backup-'));
    tier = await openTierStore('postgresql');
    app = await createApp(tier.config());
    f = await loadApiFixture(app.database);
    // A merchant's payment with its whole history: requested, answered, called back, notified.
    await request(app.app.getHttpServer())
      .get('/payment/check_transaction?reference=REF-PAID')
      .set('Authorization', f.keys.merchantA)
      .expect(200);
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await tier?.dispose();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it('restores a dump into an empty database that the service then serves exactly as before', async () => {
    const source = app.database.url;
    const dump = join(folder, 'transport.dump');
    const bin = postgresBin() as string;
    run(join(bin, 'pg_dump'), ['--format=custom', '--no-owner', '--file', dump, '--dbname', source]);
    const restored = await createScratchDatabase('restored');
    try {
      run(join(bin, 'pg_restore'), ['--no-owner', '--exit-on-error', '--dbname', restored.url, dump]);
      const before = await counts(source);
      expect(before['public.vehicles']).toBeGreaterThan(0);
      expect(before['public.transactions']).toBeGreaterThan(0);
      // pg-boss's job tables are the live queue of the running source (a cron tick adds a row between the dump and
      // the count): the restored copy must hold its queues, and every row of the service's own data.
      const settled = (all: Record<string, number>) =>
        Object.fromEntries(Object.entries(all).filter(([name]) => !/^pgboss\.(job|archive|queue_stats)/.test(name)));
      const after = await counts(restored.url);
      expect(settled(after)).toEqual(settled(before));

      const service = await startService(join(WORKSPACE_ROOT, 'dist', 'apps', 'api', 'main.js'), {
        cwd: WORKSPACE_ROOT,
        env: {
          PATH: process.env.PATH,
          APP_ROOT: WORKSPACE_ROOT,
          DATABASE_URL: restored.url,
          PORT: '0',
          METRICS_PORT: 'off',
          SHUTDOWN_DELAY_MS: '0',
          JOB_WORKERS: 'false',
        },
      });
      try {
        // Nothing to migrate: the restored copy is recognised as up to date.
        expect(service.output()).not.toContain('prisma migrate deploy failed');
        await expect(fetch(`${service.base}/health/ready`).then((r) => r.status)).resolves.toBe(200);
        for (const path of [
          '/payment/check_transaction?reference=REF-PAID',
          '/payment/check_transaction?reference=REF-PENDING',
        ]) {
          const original = await request(app.app.getHttpServer()).get(path).set('Authorization', f.keys.merchantA);
          const copy = await fetch(`${service.base}${path}`, { headers: { Authorization: f.keys.merchantA } });
          expect(copy.status).toBe(original.status);
          expect(Buffer.from(await copy.arrayBuffer()).equals(Buffer.from(original.text, 'utf8'))).toBe(true);
        }
        const list = '/vehicles/all?limit=100';
        const original = await request(app.app.getHttpServer()).get(list).set('Authorization', f.keys.admin);
        const copy = await fetch(`${service.base}${list}`, { headers: { Authorization: f.keys.admin } });
        expect(await copy.text()).toBe(original.text);
        service.child.kill('SIGTERM');
        expect(await service.exited).toBe(0);
      } finally {
        service.child.kill('SIGKILL');
      }
    } finally {
      await restored.drop();
    }
  }, 240_000);
});

async function sql<R extends pg.QueryResultRow>(url: string, text: string): Promise<R[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<R>(text)).rows;
  } finally {
    await client.end();
  }
}

// The runbook's point-in-time recovery, step by step, on a PostgreSQL of the test's own: WAL archived by
// archive_command, a base backup (pg_basebackup -Ft -z -X fetch), rows written before and after a moment, then the
// base backup unpacked into a new data folder with restore_command, recovery_target_time and recovery.signal: the
// recovered server holds what was committed before the moment, and nothing after.
describeWithPrograms('point-in-time recovery, as the runbook says', { 'postgresql server': postgresBin() }, () => {
  let primary: LocalCluster | undefined;
  let recovered: LocalCluster | undefined;
  let archive: string;
  let backup: string;

  afterAll(async () => {
    await recovered?.stop();
    await primary?.stop();
    for (const folder of [archive, backup]) if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it('recovers the database as it was at the target time', async () => {
    archive = serverFolder('wal-archive');
    backup = serverFolder('base-backup');
    primary = await createCluster('pitr', {
      settings: [
        'wal_level = replica',
        'archive_mode = on',
        `archive_command = 'test ! -f ${archive}/%f && cp %p ${archive}/%f'`,
      ],
    });
    await sql(
      primary.url(),
      'CREATE TABLE payments (reference text PRIMARY KEY, at timestamptz NOT NULL DEFAULT now())',
    );
    await sql(primary.url(), "INSERT INTO payments (reference) VALUES ('before-backup')");
    runAsServer(join(postgresBin() as string, 'pg_basebackup'), [
      '-h',
      '127.0.0.1',
      '-p',
      String(primary.port),
      '-U',
      'postgres',
      '-D',
      join(backup, 'base'),
      '-Ft',
      '-z',
      '-X',
      'fetch',
    ]);
    await sql(primary.url(), "INSERT INTO payments (reference) VALUES ('after-backup')");
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const [{ target }] = await sql<{ target: string }>(primary.url(), 'SELECT now()::text AS target');
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await sql(primary.url(), "INSERT INTO payments (reference) VALUES ('the-bad-change')");
    // The segment holding the last commit is archived once it is switched out.
    const [{ segment }] = await sql<{ segment: string }>(
      primary.url(),
      'SELECT pg_walfile_name(pg_current_wal_lsn()) AS segment',
    );
    await sql(primary.url(), 'SELECT pg_switch_wal()');
    for (let waited = 0; ; waited += 100) {
      const [{ last }] = await sql<{ last: string | null }>(
        primary.url(),
        'SELECT last_archived_wal AS last FROM pg_stat_archiver',
      );
      if (last !== null && last >= segment) break;
      if (waited > 30_000) throw new Error(`WAL ${segment} never archived (last: ${last})`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await primary.stop();
    primary = undefined;

    recovered = await clusterFromData('pitr-recovered', (data) => {
      runAsServer('tar', ['-xzf', join(backup, 'base', 'base.tar.gz'), '-C', data]);
      runAsServer('sh', [
        '-c',
        `printf "%s\\n" "restore_command = 'cp ${archive}/%f %p'" "recovery_target_time = '${target}'" ` +
          `"recovery_target_action = 'promote'" >> ${data}/postgresql.auto.conf && touch ${data}/recovery.signal`,
      ]);
    });
    for (let waited = 0; ; waited += 100) {
      const [{ standby }] = await sql<{ standby: boolean }>(recovered.url(), 'SELECT pg_is_in_recovery() AS standby');
      if (!standby) break;
      if (waited > 30_000) throw new Error('recovery never finished');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const rows = await sql<{ reference: string }>(recovered.url(), 'SELECT reference FROM payments ORDER BY at');
    expect(rows.map((r) => r.reference)).toEqual(['before-backup', 'after-backup']);
  }, 180_000);
});
