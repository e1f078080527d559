// A throwaway npm registry (Verdaccio 6) for the release's dry run: installed on demand into .tools/ (as tools/run.mjs
// installs Node 24; never a dependency of the project), started on a free loopback port with its storage in a temp
// folder, with one user whose token publishes. Nothing is proxied to another registry (`uplinks: {}`): what the
// consumer installs from it is what the release published, and only that.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const VERDACCIO_VERSION = '6.10.4';
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** Where Verdaccio lives: `<root>/.tools/verdaccio-<version>`, installed there the first time (all or nothing). */
export function ensureVerdaccio(root, say = console.log) {
  const tools = process.env.RELEASE_TOOLS_DIR || join(root, '.tools');
  const dir = join(tools, `verdaccio-${VERDACCIO_VERSION}`);
  const bin = join(dir, 'node_modules', 'verdaccio', 'bin', 'verdaccio');
  if (existsSync(bin)) return bin;
  say(`installing Verdaccio ${VERDACCIO_VERSION} (from the npm registry) in ${dir}`);
  const staging = `${dir}.partial`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  // Verdaccio asks for node-fetch by the dist-tag `cjs` (2.x), which registry mirrors do not always carry: pinned.
  writeFileSync(join(staging, 'package.json'), JSON.stringify({ private: true, overrides: { 'node-fetch': '2.7.0' } }));
  const install = spawnSync(
    npm,
    ['install', `verdaccio@${VERDACCIO_VERSION}`, '--prefix', staging, '--no-audit', '--no-fund', '--loglevel=error'],
    { stdio: 'inherit', env: { ...process.env, NODE_OPTIONS: '' } },
  );
  if (install.status !== 0) throw new Error(`installing Verdaccio failed (exit ${install.status})`);
  renameSync(staging, dir);
  return bin;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function waitFor(url, child, log) {
  for (let i = 0; i < 150; i++) {
    if (child.exitCode !== null) throw new Error(`Verdaccio exited (${child.exitCode}):\n${log()}`);
    try {
      if ((await fetch(`${url}-/ping`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`Verdaccio did not answer at ${url} within 15 s:\n${log()}`);
}

/**
 * Starts a registry; resolves to { url, token, userconfig, stop }. `userconfig` is an .npmrc naming the registry and
 * the token, as a private registry is configured (pass it as NPM_CONFIG_USERCONFIG).
 */
export async function startRegistry(root, say = console.log) {
  const bin = ensureVerdaccio(root, say);
  const home = mkdtempSync(join(tmpdir(), 'domain-registry-'));
  writeFileSync(
    join(home, 'config.yaml'),
    [
      `storage: ${JSON.stringify(join(home, 'storage'))}`,
      'auth:',
      '  htpasswd:',
      `    file: ${JSON.stringify(join(home, 'htpasswd'))}`,
      '    max_users: 1',
      'uplinks: {}',
      'packages:',
      "  '**':",
      '    access: $all',
      '    publish: $authenticated',
      '    unpublish: $authenticated',
      'log: { type: stdout, format: pretty, level: warn }',
      '',
    ].join('\n'),
  );
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/`;
  let output = '';
  const child = spawn(process.execPath, [bin, '--config', join(home, 'config.yaml'), '--listen', `127.0.0.1:${port}`], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NODE_OPTIONS: '' },
  });
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const stop = () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    rmSync(home, { recursive: true, force: true });
  };
  try {
    await waitFor(url, child, () => output);
    const answer = await fetch(`${url}-/user/org.couchdb.user:release`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'release', password: `dry-run-${port}` }),
    });
    const { token } = await answer.json();
    if (!token) throw new Error(`Verdaccio gave no token (${answer.status})`);
    const userconfig = join(home, 'npmrc');
    writeFileSync(userconfig, `registry=${url}\n//127.0.0.1:${port}/:_authToken=${token}\n`);
    return { url, token, userconfig, stop };
  } catch (error) {
    stop();
    throw error;
  }
}
