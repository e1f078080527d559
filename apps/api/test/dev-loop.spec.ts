import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { freePort } from './support/http-peers';

const WORKSPACE_ROOT = resolve(__dirname, '../../..');
/** What a contributor's checkout holds, less what is built or installed (node_modules is linked). */
const SOURCES = [
  'apps',
  'libs',
  'tools',
  'prisma',
  'package.json',
  'package-lock.json',
  'prisma.config.ts',
  'tsconfig.base.json',
  'jest.preset.js',
  '.nvmrc',
];
const SKIPPED = /[\\/](node_modules|dist|\.data|test|coverage)$/;

/** Whether any process of the group `pgid` is still alive. */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

// `npm run dev` in a copy of the checkout (the test edits its sources): the API on the embedded database, the provider
// simulator and the dashboard, each rebuilt and restarted after a source file changes, and all of it gone after Ctrl-C.
describe('npm run dev', () => {
  jest.setTimeout(420_000);
  let copy: string;
  let dev: ChildProcess;
  let base: string;
  const chunks: string[] = [];
  const output = () => chunks.join('');

  /** Polls `check` until it gives a value; fails with what `npm run dev` wrote if that takes too long or it exits. */
  async function until<T>(what: string, check: () => Promise<T | undefined>, exiting = false): Promise<T> {
    const deadline = Date.now() + 150_000;
    for (;;) {
      const value = await check().catch(() => undefined);
      if (value !== undefined) return value;
      if (Date.now() > deadline || (dev.exitCode !== null && !exiting))
        throw new Error(`no sign of ${what}; npm run dev wrote:\n${output()}`);
      await new Promise((done) => setTimeout(done, 250));
    }
  }

  beforeAll(async () => {
    copy = mkdtempSync(join(tmpdir(), 'dev-loop-'));
    for (const path of SOURCES)
      cpSync(join(WORKSPACE_ROOT, path), join(copy, path), {
        recursive: true,
        preserveTimestamps: true,
        filter: (source) => !SKIPPED.test(source),
      });
    symlinkSync(join(WORKSPACE_ROOT, 'node_modules'), join(copy, 'node_modules'));
    // The copy's lock older than the installed tree, whatever the checkout's own lock says: an `npm ci` in the copy
    // would empty the linked node_modules, which is the checkout's own. A minute older, not the same time: `mtime` is
    // rounded to the millisecond, so the same time came out newer than the tree about half the time (CI lost its
    // node_modules that way), and tools/run.mjs now refuses to install through a link as well.
    const installed = statSync(join(WORKSPACE_ROOT, 'node_modules', '.package-lock.json')).mtimeMs;
    const older = new Date(installed - 60_000);
    utimesSync(join(copy, 'package-lock.json'), older, older);
    const {
      DATABASE_URL: _database,
      PAYMENT_PROVIDER_URL: _provider,
      NODE_ENV: _nodeEnv,
      DATA_DIR: _dataDir,
      ...env
    } = process.env;
    const [port, simulatorPort] = [await freePort(), await freePort()];
    dev = spawn('npm', ['run', 'dev'], {
      cwd: copy,
      // Its own process group, as a terminal gives it: Ctrl-C reaches every process of the group.
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...env,
        PATH: `${dirname(process.execPath)}:${process.env.PATH}`,
        NODE_OPTIONS: '',
        PORT: String(port),
        SIMULATOR_PORT: String(simulatorPort),
        METRICS_PORT: 'off',
      },
    });
    dev.stdout?.on('data', (d) => chunks.push(String(d)));
    dev.stderr?.on('data', (d) => chunks.push(String(d)));
    base = `http://127.0.0.1:${port}`;
  });

  afterAll(() => {
    if (dev?.pid && groupAlive(dev.pid)) process.kill(-dev.pid, 'SIGKILL');
    rmSync(copy, { recursive: true, force: true });
  });

  const title = async () => {
    const response = await fetch(`${base}/docs/openapi.json`);
    return response.ok ? ((await response.json()) as { info: { title: string } }).info.title : undefined;
  };
  const edit = (path: string, from: string, to: string) => {
    const file = join(copy, path);
    const source = readFileSync(file, 'utf8');
    expect([path, source.includes(from)]).toEqual([path, true]);
    writeFileSync(file, source.replace(from, to));
  };

  it('serves the API built from the sources, with the dashboard and the simulator beside it', async () => {
    expect(await until('the API', title)).toBe('Transport platform API');
    // Nothing was installed into the linked node_modules (the checkout's own).
    expect(output()).not.toContain('installing dependencies');
    const page = await until('the dashboard', async () => (await fetch(`${base}/dashboard/`)).text());
    expect(page).toContain('<title>Assembly dashboard</title>');
    await until('the simulator', async () => (output().includes('provider listening on') ? true : undefined));
  });

  it('restarts the API on a change of its sources, and it answers with the change', async () => {
    edit('apps/api/src/app.ts', ".setTitle('Transport platform API')", ".setTitle('Transport platform API, edited')");
    const changed = async () => ((await title()) === 'Transport platform API, edited' ? true : undefined);
    await until('the restarted API', changed);
    expect(output()).toContain('[dev] api rebuilt: restarting');
  });

  it('rebuilds the dashboard on a change of its page, and the API serves the new build', async () => {
    edit('apps/dashboard/src/index.html', '<title>Assembly dashboard</title>', '<title>Dashboard, edited</title>');
    const rebuilt = async () =>
      (await (await fetch(`${base}/dashboard/`)).text()).includes('Dashboard, edited') || undefined;
    await until('the rebuilt dashboard', rebuilt);
  });

  it('restarts the simulator on a change of its sources', async () => {
    edit('apps/provider-simulator/src/main.ts', 'Hubtel-style provider listening on', 'Edited provider listening on');
    await until('the restarted simulator', async () => output().includes('Edited provider listening on') || undefined);
    expect(output()).toContain('[dev] provider-simulator rebuilt: restarting');
  });

  it('stops every process it started on Ctrl-C', async () => {
    const pgid = dev.pid as number;
    const exited = new Promise((done) => dev.once('exit', done));
    process.kill(-pgid, 'SIGINT');
    await exited;
    await until('every process of the group to exit', async () => (groupAlive(pgid) ? undefined : true), true);
    expect(groupAlive(pgid)).toBe(false);
  });
});
