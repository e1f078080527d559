import { chmod, lstat, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import type { Server, Socket } from 'node:net';
import { join, resolve } from 'node:path';

/**
 * The zero-setup database: PostgreSQL compiled to WebAssembly (PGlite), persisted in a data directory and exposed on a
 * loopback TCP port, so the app, the Prisma CLI and the tests all use the ordinary `pg` driver and the same migrations
 * as against a real server.
 *
 * One server per data directory: PGlite does not lock its files, so a `server.json` (port and pid) marks a directory
 * in use. The Prisma CLI reads it to reach a running app's database instead of opening the files a second time.
 */
export interface EmbeddedPostgres {
  readonly url: string;
  readonly port: number;
  readonly dataDir: string;
  stop(): Promise<void>;
}

export interface EmbeddedPostgresOptions {
  dataDir: string;
  /** Loopback port to listen on; 0 picks a free one. */
  port?: number;
  /** Upper bound for the sum of every client pool (the server resets connections past it). */
  maxConnections: number;
  /** Write `server.json` so other processes (the Prisma CLI) can find this server. */
  advertise?: boolean;
  /**
   * false: the server and its connections do not keep the process alive (for a short-lived tool such as the Prisma
   * CLI, which then exits when its own work is done).
   */
  keepProcessAlive?: boolean;
}

interface ServerFile {
  port: number;
  pid: number;
}

const SERVER_FILE = 'server.json';

/**
 * The embedded server's settings (PGlite writes them to its postgresql.conf at each start). shared_buffers: PGlite
 * keeps PostgreSQL's 128MB, and those buffers live in the process's WebAssembly memory, which grows as they fill and
 * never shrinks: measured on the demo data (2026-11-24), the API's RSS was 533 MB at start and 603 MB under the read
 * load with 128MB, and PGlite alone reached 813 MB after 200 list queries; with 32MB, 233 MB. The embedded database is
 * the zero-setup default for small data; the operating system's file cache still holds what the buffers do not.
 */
const EMBEDDED_SETTINGS = ['shared_buffers=32MB'];

export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  const dataDir = resolve(options.dataDir);
  const running = await findRunningEmbeddedPostgres(dataDir);
  if (running) {
    throw new Error(
      `The embedded database in ${dataDir} is already served by process ${running.pid} on port ${running.port}. ` +
        'Stop that process first, or set DATA_DIR to another folder.',
    );
  }
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  await keepToOwner(dataDir);

  const { PGlite } = await import('@electric-sql/pglite');
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  const { PGLiteSocketServer } = await import('@electric-sql/pglite-socket');

  const db = await PGlite.create({ dataDir, extensions: { pg_trgm }, postgresqlconf: EMBEDDED_SETTINGS });
  // What PGlite wrote (under whatever umask the process has) is kept to its owner as well.
  await keepToOwner(dataDir);
  const server = new PGLiteSocketServer({
    db,
    host: '127.0.0.1',
    port: options.port ?? 0,
    maxConnections: options.maxConnections,
  });
  await server.start();
  if (options.keepProcessAlive === false) {
    // pglite-socket keeps its net.Server private; unref it and every connection it accepts.
    const listener: Server | null | undefined = Reflect.get(server, 'server');
    listener?.unref();
    listener?.on('connection', (socket: Socket) => socket.unref());
  }
  const port = Number(server.getServerConn().split(':').pop());
  if (options.advertise) {
    const file: ServerFile = { port, pid: process.pid };
    await writeFile(join(dataDir, SERVER_FILE), JSON.stringify(file), { mode: 0o600 });
  }

  let stopped = false;
  return {
    url: `postgresql://postgres@127.0.0.1:${port}/postgres`,
    port,
    dataDir,
    async stop() {
      if (stopped) return;
      stopped = true;
      if (options.advertise) await rm(join(dataDir, SERVER_FILE), { force: true });
      await server.stop();
      await db.close();
      await keepToOwner(dataDir);
    },
  };
}

/**
 * Takes every group and other permission off the data directory and what is in it, as PostgreSQL requires of its own
 * (it refuses to start on a data directory others can reach): the database's files are its data, and a writable one
 * would let another user of the machine change it. PGlite writes with Node's default modes, which a permissive umask
 * (0 in some containers) leaves world-writable. Symbolic links are left alone (chmod would follow them).
 */
async function keepToOwner(dataDir: string): Promise<void> {
  const entries = await readdir(dataDir, { recursive: true, withFileTypes: true });
  const paths = [dataDir, ...entries.filter((e) => !e.isSymbolicLink()).map((e) => join(e.parentPath, e.name))];
  for (const path of paths) {
    const { mode } = await lstat(path);
    if (mode & 0o077) await chmod(path, mode & 0o700);
  }
}

/** The server another live process runs on this data directory, if any (a stale file from a crash is ignored). */
export async function findRunningEmbeddedPostgres(dataDir: string): Promise<ServerFile | undefined> {
  let file: ServerFile;
  try {
    file = JSON.parse(await readFile(join(resolve(dataDir), SERVER_FILE), 'utf8')) as ServerFile;
  } catch {
    return undefined;
  }
  if (file.pid === process.pid) return undefined;
  try {
    process.kill(file.pid, 0);
    return file;
  } catch {
    return undefined;
  }
}
