import { spawn, spawnSync, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from './http-peers';
import { postgresTierAvailable } from './postgres-tier';

/**
 * Servers a test starts for itself, from Debian's packages: extra PostgreSQL clusters (initdb and pg_ctl of the
 * installed postgresql-<version>), PgBouncer, and tools such as promtool. Each runs on a free loopback port out of a
 * temporary folder, and is stopped and removed by the test that started it; nothing here touches the machine's own
 * cluster (port 5432) or its configuration.
 *
 * PostgreSQL and PgBouncer refuse to run as root: as root, they are started as the `postgres` user (the folders are
 * given to it); as anyone else, as that user.
 */

/** The newest installed PostgreSQL's programs (initdb, pg_ctl, pg_basebackup, pg_dump, pg_restore). */
export function postgresBin(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(a) - Number(b));
  return versions.length ? join(root, versions[versions.length - 1], 'bin') : undefined;
}

/** A program on PATH or in the usual system folders, if installed. */
export function findProgram(name: string): string | undefined {
  for (const dir of [...(process.env.PATH ?? '').split(':'), '/usr/sbin', '/usr/bin', '/sbin']) {
    if (dir && existsSync(join(dir, name))) return join(dir, name);
  }
  return undefined;
}

/**
 * A suite that needs programs from Debian's packages. In CI (.ci/run installs them) it always runs, so a missing one
 * fails it; elsewhere, without them, it is skipped with a message nobody can miss.
 */
export function describeWithPrograms(name: string, programs: Record<string, string | undefined>, suite: () => void) {
  const missing = Object.entries(programs)
    .filter(([, path]) => !path)
    .map(([program]) => program);
  const needsPostgres = !postgresTierAvailable();
  if ((missing.length === 0 && !needsPostgres) || process.env.CI === 'true') {
    describe(name, () => {
      if (missing.length > 0)
        it(`has ${missing.join(', ')} installed (CI installs them: .ci/run)`, () => {
          throw new Error(`missing here: ${missing.join(', ')}`);
        });
      else suite();
    });
    return;
  }
  const bar = '!'.repeat(100);
  process.stderr.write(
    `\n${bar}\n${name}: SKIPPED, ${needsPostgres ? 'PostgreSQL is unreachable' : `not installed: ${missing.join(', ')}`} ` +
      `(apt-get install ${missing.join(' ')}; CI installs them)\n${bar}\n\n`,
  );
  // Skipped only outside CI, on a developer's machine without the programs: the banner above says so, and CI (where
  // CI=true) never reaches this line, so no missing program can hide there.
  describe.skip(name, suite);
}

function postgresUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const uid = Number(spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).stdout.trim());
  const gid = Number(spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).stdout.trim());
  if (!Number.isInteger(uid) || !Number.isInteger(gid)) throw new Error('running as root, but no postgres user');
  return { uid, gid };
}

/** A temporary folder the server's user owns. */
export function serverFolder(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `transport-${prefix}-`));
  const user = postgresUser();
  if (user) chownSync(dir, user.uid, user.gid);
  return dir;
}

/** Gives a file or folder made by this process to the server's user (as root), e.g. a key it must read. */
export function giveToServer(path: string): void {
  const user = postgresUser();
  if (user) chownSync(path, user.uid, user.gid);
}

/** Runs a server program to its end as the server's user; fails with its output. */
export function runAsServer(program: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}) {
  const user = postgresUser();
  const result = spawnSync(program, args, {
    cwd: options.cwd ?? tmpdir(),
    env: { PATH: process.env.PATH, LANG: 'C.UTF-8', ...options.env },
    encoding: 'utf8',
    timeout: 120_000,
    ...(user ?? {}),
  });
  if (result.status !== 0)
    throw new Error(`${program} ${args.join(' ')} failed (${result.status}):\n${result.stdout}\n${result.stderr}`);
  return result;
}

function spawnAsServer(program: string, args: string[], options: SpawnOptions): ChildProcess {
  return spawn(program, args, { ...options, ...(postgresUser() ?? {}) });
}

/** Waits until a PostgreSQL (or PgBouncer) on this URL answers a query. */
export async function waitUntilAnswering(url: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
    try {
      await client.connect();
      await client.query('SELECT 1');
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    } finally {
      await client.end().catch(() => undefined);
    }
  }
}

export interface LocalCluster {
  readonly dir: string;
  readonly port: number;
  /** `postgresql://postgres@127.0.0.1:<port>/<database>` plus `query` (URL parameters, e.g. TLS). */
  url(database?: string, query?: string): string;
  stop(): Promise<void>;
}

export interface ClusterOptions {
  /** Lines added to postgresql.conf. */
  settings?: string[];
  /** pg_hba.conf's lines (default: trust on loopback, replication included). */
  hba?: string[];
  /** Files to put in the data folder before it starts (certificates), name to content. */
  files?: Record<string, string>;
  /** URL parameters needed to connect (e.g. TLS ones), for the check that it answers. */
  connectWith?: string;
}

const TRUST_LOOPBACK = ['host all all 127.0.0.1/32 trust', 'host replication all 127.0.0.1/32 trust'];

function clusterHandle(dir: string, data: string, port: number): LocalCluster {
  let stopped = false;
  return {
    dir,
    port,
    url: (database = 'postgres', query = '') =>
      `postgresql://postgres@127.0.0.1:${port}/${database}${query ? `?${query}` : ''}`,
    async stop() {
      if (stopped) return;
      stopped = true;
      try {
        runAsServer(join(postgresBin() as string, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } catch {
        // Not running (it failed to start): the folder goes all the same.
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function configure(data: string, port: number, options: ClusterOptions): void {
  appendFileSync(
    join(data, 'postgresql.conf'),
    [
      `port = ${port}`,
      "listen_addresses = '127.0.0.1'",
      `unix_socket_directories = '${data}'`,
      'shared_buffers = 16MB',
      'max_connections = 60',
      'fsync = off',
      'synchronous_commit = off',
      'full_page_writes = off',
      ...(options.settings ?? []),
      '',
    ].join('\n'),
  );
  writeFileSync(join(data, 'pg_hba.conf'), [...(options.hba ?? TRUST_LOOPBACK), ''].join('\n'));
  for (const [name, content] of Object.entries(options.files ?? {})) {
    writeFileSync(join(data, name), content, { mode: 0o600 });
    giveToServer(join(data, name));
  }
  giveToServer(join(data, 'pg_hba.conf'));
}

function startCluster(dir: string, data: string, port: number): LocalCluster {
  const cluster = clusterHandle(dir, data, port);
  try {
    runAsServer(join(postgresBin() as string, 'pg_ctl'), ['-D', data, '-l', join(dir, 'server.log'), '-w', 'start']);
  } catch (error) {
    void cluster.stop();
    throw error;
  }
  return cluster;
}

/** A new PostgreSQL cluster of its own (initdb), trust on loopback, on a free port. */
export async function createCluster(name: string, options: ClusterOptions = {}): Promise<LocalCluster> {
  const bin = postgresBin();
  if (!bin) throw new Error('PostgreSQL server programs are not installed');
  const dir = serverFolder(name);
  const data = join(dir, 'data');
  const port = await freePort();
  try {
    runAsServer(join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
    configure(data, port, options);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const cluster = startCluster(dir, data, port);
  await waitUntilAnswering(cluster.url('postgres', options.connectWith)).catch(async (error) => {
    await cluster.stop();
    throw error;
  });
  return cluster;
}

/**
 * A cluster started from a data folder that `prepare` fills (a base backup unpacked, recovery settings added), as the
 * server's user, with this module's port and access settings added.
 */
export async function clusterFromData(
  name: string,
  prepare: (data: string) => void,
  options: ClusterOptions = {},
): Promise<LocalCluster> {
  const dir = serverFolder(name);
  const data = join(dir, 'data');
  const port = await freePort();
  try {
    runAsServer('mkdir', ['-m', '700', data]);
    prepare(data);
    configure(data, port, options);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const cluster = startCluster(dir, data, port);
  await waitUntilAnswering(cluster.url()).catch(async (error) => {
    await cluster.stop();
    throw error;
  });
  return cluster;
}

/**
 * A streaming replica of `primary` (pg_basebackup -R: a hot standby that follows it), on its own free port. The
 * primary needs `wal_level = replica` (PostgreSQL's default) and the replication line of the default pg_hba.
 */
export async function createReplica(name: string, primary: LocalCluster): Promise<LocalCluster> {
  const bin = postgresBin() as string;
  const dir = serverFolder(name);
  const data = join(dir, 'data');
  const port = await freePort();
  try {
    runAsServer(join(bin, 'pg_basebackup'), [
      '-h',
      '127.0.0.1',
      '-p',
      String(primary.port),
      '-U',
      'postgres',
      '-D',
      data,
      '-R',
      '-X',
      'stream',
      '--no-sync',
      // An immediate checkpoint: the default (spread) paces the primary's dirty pages over most of
      // checkpoint_timeout, and this test waited about 90 s for it.
      '--checkpoint=fast',
    ]);
    configure(data, port, { settings: ['hot_standby = on'] });
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const replica = startCluster(dir, data, port);
  await waitUntilAnswering(replica.url());
  return replica;
}

export interface LocalPgBouncer {
  readonly port: number;
  /** The pooler's URL for a database of the target server. */
  url(database: string): string;
  log(): string;
  stop(): Promise<void>;
}

/**
 * PgBouncer (Debian's package) in front of a PostgreSQL on loopback, every database passed through, in `mode`
 * (transaction: the default of most managed poolers). Nothing but its own folder and port.
 */
export async function startPgBouncer(
  target: { host: string; port: number },
  mode: 'transaction' | 'session' = 'transaction',
): Promise<LocalPgBouncer> {
  const program = findProgram('pgbouncer');
  if (!program) throw new Error('pgbouncer is not installed');
  const dir = serverFolder('pgbouncer');
  const port = await freePort();
  writeFileSync(join(dir, 'userlist.txt'), '"postgres" ""\n');
  writeFileSync(
    join(dir, 'pgbouncer.ini'),
    [
      '[databases]',
      `* = host=${target.host} port=${target.port}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = trust',
      `auth_file = ${join(dir, 'userlist.txt')}`,
      `pool_mode = ${mode}`,
      'max_client_conn = 200',
      'default_pool_size = 8',
      `logfile = ${join(dir, 'pgbouncer.log')}`,
      'admin_users = postgres',
      '',
    ].join('\n'),
  );
  for (const file of ['userlist.txt', 'pgbouncer.ini']) giveToServer(join(dir, file));
  const output: string[] = [];
  const child = spawnAsServer(program, [join(dir, 'pgbouncer.ini')], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.on('data', (d) => output.push(String(d)));
  child.stderr?.on('data', (d) => output.push(String(d)));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGINT');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
      child.kill('SIGKILL');
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const url = (database: string) => `postgresql://postgres@127.0.0.1:${port}/${database}`;
  try {
    await waitUntilAnswering(url('postgres'), 15_000);
  } catch (error) {
    await stop();
    throw new Error(`pgbouncer did not start: ${(error as Error).message}\n${output.join('')}`);
  }
  return {
    port,
    url,
    log: () => output.join(''),
    stop,
  };
}
