import { lstat, mkdtemp, readdir, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedPostgres } from '../src/persistence/embedded-postgres';

/** Every path under `dir`, `dir` included. */
async function tree(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true });
  return [dir, ...entries.map((entry) => join(dir, entry))];
}

/** Whether something accepts a TCP connection on host:port. */
function accepts(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port, timeout: 2000 });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => (socket.destroy(), resolve(false)));
  });
}

// The demo's database (npm start, DATA_DIR) on a shared machine: other users and other hosts get nothing of it.
describe('the embedded database', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = join(await mkdtemp(join(tmpdir(), 'embedded-modes-')), 'data');
  });
  afterAll(() => rm(join(dataDir, '..'), { recursive: true, force: true }));

  it('listens on loopback only and keeps its files to its own user, even under a permissive umask', async () => {
    const before = process.umask(0);
    let server: Awaited<ReturnType<typeof startEmbeddedPostgres>> | undefined;
    try {
      server = await startEmbeddedPostgres({ dataDir, maxConnections: 2, advertise: true });
      await server.stop();
      // Started again on the files the first run left (as every `npm start` after the first does).
      server = await startEmbeddedPostgres({ dataDir, maxConnections: 2, advertise: true });
    } finally {
      process.umask(before);
    }
    try {
      expect(new URL(server.url).hostname).toBe('127.0.0.1');
      expect(await accepts('127.0.0.1', server.port)).toBe(true);
      const outside = Object.values(networkInterfaces())
        .flat()
        .filter((a) => a && !a.internal && a.family === 'IPv4')
        .map((a) => a!.address);
      for (const address of outside) expect(await accepts(address, server.port)).toBe(false);

      // Like PostgreSQL's own data directory: 0700, so nothing in it can be reached by other users.
      expect((await lstat(dataDir)).mode & 0o777).toBe(0o700);
      const writableByOthers: string[] = [];
      for (const path of await tree(dataDir)) if ((await lstat(path)).mode & 0o022) writableByOthers.push(path);
      expect(writableByOthers).toEqual([]);
    } finally {
      await server.stop();
    }
  });
});
