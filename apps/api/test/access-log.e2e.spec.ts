import { join } from 'node:path';
import { startService, type ServiceProcess } from './support/service-process';
import { describeOnPostgres } from './support/postgres-only';
import { createScratchDatabase } from './support/postgres-tier';
import { WORKSPACE_ROOT } from './support/test-app';

type ScratchDatabase = Awaited<ReturnType<typeof createScratchDatabase>>;

interface Line {
  level: number;
  msg: string;
  req?: { id: string };
  res?: { statusCode: number };
  err?: { message: string };
}

/** The JSON lines of the service's stdout and stderr (Node's own report of a crash is text: left out). */
const linesOf = (service: ServiceProcess): Line[] =>
  service
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Line);

/**
 * `count` requests of every kind the access log writes (reads, a refusal, a 404, a write), each with its own
 * X-Request-Id, `concurrency` at a time; resolves once every one is answered.
 */
async function drive(base: string, prefix: string, count: number, concurrency = 16): Promise<string[]> {
  const paths = ['/vehicles/all?limit=1', '/.well-known/jwks.json', '/vehicles/owner/all', '/no/such/route'];
  const ids = Array.from({ length: count }, (_, i) => `${prefix}-${i}`);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < count; i = next++) {
      const res =
        i % 10 === 9
          ? await fetch(`${base}/drivers/add`, {
              method: 'POST',
              headers: { 'content-type': 'application/json', 'x-request-id': ids[i] },
              body: '{"not":"a registration"}',
            })
          : await fetch(`${base}${paths[i % paths.length]}`, { headers: { 'x-request-id': ids[i] } });
      await res.arrayBuffer();
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return ids;
}

/**
 * The access log is buffered (written in pieces of 4 kB or every second): these start the built service as an operator
 * does, have it answer requests, end it right after the last answer (while its last lines are still in the buffer),
 * and count the lines.
 */
describeOnPostgres('the access log loses no line when the process ends', () => {
  let database: ScratchDatabase;
  let service: ServiceProcess | undefined;

  beforeEach(async () => {
    database = await createScratchDatabase('access_log');
  });
  afterEach(async () => {
    service?.child.kill('SIGKILL');
    await service?.exited;
    await database.drop();
  });

  const start = (env: NodeJS.ProcessEnv = {}) =>
    startService(join(WORKSPACE_ROOT, 'dist', 'apps', 'api', 'main.js'), {
      cwd: WORKSPACE_ROOT,
      env: {
        ...process.env,
        DATABASE_URL: database.url,
        PORT: '0',
        METRICS_PORT: 'off',
        LOG_LEVEL: 'info',
        SHUTDOWN_DELAY_MS: '0',
        NODE_OPTIONS: '',
        ...env,
      },
    });

  it('writes a line for every request answered before SIGTERM, then exits 0', async () => {
    service = await start();
    const ids = await drive(service.base, 'term', 400);
    service.child.kill('SIGTERM');
    expect(await service.exited).toBe(0);
    const logged = new Set(linesOf(service).flatMap((l) => (l.res && l.req ? [l.req.id] : [])));
    expect(ids.filter((id) => !logged.has(id))).toEqual([]);
  });

  it('writes a line for every request answered before an uncaught error, then the error, and exits 1', async () => {
    service = await start({
      NODE_OPTIONS: `--require ${join(WORKSPACE_ROOT, 'apps/api/test/support/crash-on-signal.cjs')}`,
    });
    const ids = await drive(service.base, 'crash', 400);
    service.child.kill('SIGUSR2');
    expect(await service.exited).toBe(1);
    const lines = linesOf(service);
    const logged = new Set(lines.flatMap((l) => (l.res && l.req ? [l.req.id] : [])));
    expect(ids.filter((id) => !logged.has(id))).toEqual([]);
    // The last line says why it stopped, at level fatal.
    expect(lines.at(-1)).toMatchObject({
      level: 60,
      msg: expect.stringContaining('uncaught error'),
      err: { message: 'a bug nothing caught (crash-on-signal.cjs)' },
    });
  });
});
