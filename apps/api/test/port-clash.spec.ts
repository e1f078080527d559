import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './support/http-peers';
import { WORKSPACE_ROOT } from './support/test-app';

/** Another program (another checkout's simulator, API or scrape endpoint) holding a port on 127.0.0.1. */
async function holdPort(): Promise<{ port: number; server: Server }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as { port: number }).port, server };
}

// Two copies of the service on one machine: a port already taken stops the start at once, naming the setting that
// moves it, before any database is opened (issue 45, item 2). Before, a taken simulator port printed a raw crash and
// the API went on with PAYMENT_PROVIDER_URL pointing at whoever held the port.
describe('a port already in use', () => {
  let dataDir: string;
  let held: { port: number; server: Server };
  const { DATABASE_URL: _url, PAYMENT_PROVIDER_URL: _provider, NODE_ENV: _env, ...rest } = process.env;

  beforeEach(async () => {
    dataDir = join(mkdtempSync(join(tmpdir(), 'port-clash-')), 'data');
    held = await holdPort();
  });
  afterEach(async () => {
    await new Promise((resolve) => held.server.close(resolve));
    rmSync(join(dataDir, '..'), { recursive: true, force: true });
  });

  async function run(args: string[], settings: Record<string, string>) {
    const env = {
      ...rest,
      PORT: String(await freePort()),
      METRICS_PORT: String(await freePort()),
      SIMULATOR_PORT: String(await freePort()),
      DATA_DIR: dataDir,
      NODE_OPTIONS: '',
      ...settings,
    };
    const began = Date.now();
    const result = spawnSync(process.execPath, args, { cwd: WORKSPACE_ROOT, env, encoding: 'utf8', timeout: 60_000 });
    return { ...result, seconds: (Date.now() - began) / 1000 };
  }

  it.each(['SIMULATOR_PORT', 'PORT', 'METRICS_PORT'])(
    'npm start stops at once when %s is taken, naming the setting, before the database is opened',
    async (setting) => {
      const result = await run([join(WORKSPACE_ROOT, 'tools', 'run.mjs'), 'start'], { [setting]: String(held.port) });
      expect(result.status).toBe(1);
      expect(result.stderr).toContain(`${setting}=${held.port}`);
      expect(result.stderr).toMatch(new RegExp(`set ${setting} to a free port`));
      expect(result.stdout).not.toContain('building');
      expect(existsSync(dataDir)).toBe(false);
      expect(result.seconds).toBeLessThan(15);
    },
  );

  it('npm run dev stops at once when the simulator port is taken, naming SIMULATOR_PORT', async () => {
    const result = await run([join(WORKSPACE_ROOT, 'tools', 'run.mjs'), 'dev'], { SIMULATOR_PORT: String(held.port) });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(`set SIMULATOR_PORT to a free port`);
    expect(existsSync(dataDir)).toBe(false);
  });

  it.each(['PORT', 'METRICS_PORT'])(
    'the built service exits when %s is taken, naming the setting, without opening the database',
    async (setting) => {
      const result = await run([join(WORKSPACE_ROOT, 'dist', 'apps', 'api', 'main.js')], {
        [setting]: String(held.port),
      });
      expect(result.status).toBe(1);
      expect(result.stderr).toContain(`set ${setting} to a free port`);
      expect(existsSync(dataDir)).toBe(false);
    },
  );

  it('the provider simulator exits when SIMULATOR_PORT is taken, naming the setting', async () => {
    const result = await run([join(WORKSPACE_ROOT, 'dist', 'apps', 'provider-simulator', 'main.js')], {
      SIMULATOR_PORT: String(held.port),
    });
    expect(result.status).toBe(1);
    expect(result.stderr + result.stdout).toContain(`set SIMULATOR_PORT to a free port`);
  });
});
