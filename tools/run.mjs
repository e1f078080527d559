#!/usr/bin/env node
// The README's two commands, `npm start` and `npm test`, land here, and so do `npm run dev` (the inner loop) and the
// other scripts of package.json. Each does its own set-up on a fresh clone: install (only when node_modules is missing
// or older than the lock file), Prisma client generation, then its work.
// Plain Node with no dependencies, because it runs before anything is installed.
import { spawn, spawnSync } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { availableParallelism } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

// Nothing but the npm registry is reached: no Nx Cloud, no Prisma update checks.
process.env.NX_NO_CLOUD = 'true';
process.env.CHECKPOINT_DISABLE = '1';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// The service's memory policy (docs/performance.md, "Memory"): the same V8 flags wherever it starts (here, the
// bundle, the image).
const SERVICE_NODE_FLAGS = JSON.parse(readFileSync(join(root, 'apps', 'api', 'node-flags.json'), 'utf8'));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

// `npm start` writes JSON lines only, like the service it starts (set-up steps included; a failed step's own output
// is shown when it fails). The other commands talk to a person at a terminal, in text.
const jsonLines = process.argv[2] === 'start';

function say(message, level = 'info') {
  if (!jsonLines) {
    (level === 'info' ? console.log : console.error)(`[run] ${message}`);
    return;
  }
  const line = { level: level === 'info' ? 30 : 50, time: new Date().toISOString(), service: 'run', msg: message };
  (level === 'info' ? process.stdout : process.stderr).write(`${JSON.stringify(line)}\n`);
}

function run(command, args, env = {}) {
  const result = spawnSync(command, args, {
    cwd: root,
    stdio: jsonLines ? 'pipe' : 'inherit',
    env: { ...process.env, ...env },
    maxBuffer: 256 * 1024 * 1024,
  });
  if (result.error) throw result.error;
  if (jsonLines && result.status !== 0) process.stderr.write(`${result.stdout ?? ''}${result.stderr ?? ''}`);
  return result.status ?? 1;
}

function must(command, args, env) {
  const status = run(command, args, env);
  if (status !== 0) {
    say(`"${command} ${args.join(' ')}" failed with exit code ${status}`, 'error');
    process.exit(status);
  }
}

/**
 * The supported runtime is Node 24 (.nvmrc). On an older system Node, Linux x64 and arm64 get a project-local Node 24
 * from the npm registry (the `node-linux-<arch>` package holds a plain `bin/node`, no install script), kept in
 * `.tools/`, and this script runs again under it, with it first on PATH for everything it starts (npm, Nx, Jest,
 * the API). Elsewhere an older Node is refused with what to install.
 */
function ensureNode() {
  const wanted = readFileSync(join(root, '.nvmrc'), 'utf8').trim();
  if (Number(process.versions.node.split('.')[0]) >= Number(wanted.split('.')[0])) return;
  if (process.platform !== 'linux' || !['x64', 'arm64'].includes(process.arch) || process.env.RUN_NODE_PROVISIONED) {
    say(`Node ${wanted} or newer is needed (found ${process.version}); install it (see .nvmrc).`, 'error');
    process.exit(1);
  }
  const name = `node-linux-${process.arch}`;
  const dir = join(root, '.tools', `${name}-${wanted}`);
  const node = join(dir, 'bin', 'node');
  if (!existsSync(node)) {
    say(`found Node ${process.version}; installing Node ${wanted} (${name} from the npm registry) in .tools/`);
    const staging = `${dir}.partial`;
    rmSync(staging, { recursive: true, force: true });
    mkdirSync(staging, { recursive: true });
    must(npm, ['pack', `${name}@${wanted}`, '--pack-destination', staging, '--silent']);
    must('tar', ['-xzf', join(staging, `${name}-${wanted}.tgz`), '-C', staging, '--strip-components=1']);
    rmSync(join(staging, `${name}-${wanted}.tgz`));
    renameSync(staging, dir); // all or nothing: an interrupted download is never taken for a Node
  }
  const env = { ...process.env, RUN_NODE_PROVISIONED: '1', PATH: `${dirname(node)}${delimiter}${process.env.PATH}` };
  const result = spawnSync(node, process.argv.slice(1), { stdio: 'inherit', env });
  process.exit(result.status ?? 1);
}

function ensureInstalled() {
  const marker = join(root, 'node_modules', '.package-lock.json');
  const lock = join(root, 'package-lock.json');
  if (!existsSync(marker) || statSync(marker).mtimeMs < statSync(lock).mtimeMs) {
    // `npm ci` empties node_modules first: through a link that is another checkout's tree, still in use there.
    const tree = join(root, 'node_modules');
    if (existsSync(tree) && lstatSync(tree).isSymbolicLink()) {
      say('package-lock.json is newer than the linked node_modules; run npm ci where that tree belongs', 'error');
      process.exit(1);
    }
    say('installing dependencies (npm ci)');
    must(npm, ['ci', '--no-audit', '--no-fund']);
  }
  if (!existsSync(join(root, 'apps', 'api', 'src', 'generated', 'prisma', 'client.ts'))) {
    say('generating the Prisma client');
    must(process.execPath, [join(root, 'node_modules', 'prisma', 'build', 'index.js'), 'generate']);
  }
}

function nxCli() {
  const pkg = JSON.parse(readFileSync(join(root, 'node_modules', 'nx', 'package.json'), 'utf8'));
  return join(root, 'node_modules', 'nx', pkg.bin.nx);
}

const nx = (args, env) => must(process.execPath, [nxCli(), ...args], env);

/**
 * The environments of the API and of the provider simulator, as `npm start` and `npm run dev` run them: demo data on
 * the zero-setup embedded database, the simulator as the payment provider unless a real one is configured (then
 * `simulator` is undefined and it does not run).
 */
function serviceEnvironments() {
  // Demo data on the zero-setup embedded database; on a PostgreSQL of your own only when asked (SEED_DEMO=true).
  const api = { SEED_DEMO: process.env.DATABASE_URL ? 'false' : 'true', ...process.env, APP_ROOT: root };
  if (process.env.PAYMENT_PROVIDER_URL) return { api, simulator: undefined };
  // The demo's payment provider is the simulator (tools: apps/provider-simulator), unless a real one is configured.
  const port = process.env.SIMULATOR_PORT || '3100';
  api.PAYMENT_PROVIDER_URL = `http://127.0.0.1:${port}`;
  // A demo merchant's notification receiver usually runs on this machine too (entries are exact host and port: a
  // receiver on another port is named as CALLBACK_URL_ALLOWLIST=127.0.0.1:<port>, or run with NODE_ENV=development).
  api.CALLBACK_URL_ALLOWLIST ??= '127.0.0.1,localhost';
  return { api, simulator: { ...process.env, SIMULATOR_PORT: port } };
}

/** Whether `port` can be listened on at `host` now (false: another process holds it). */
function portFree(host, port) {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(true)));
  });
}

/**
 * Two copies on one machine (two checkouts, or one started twice): every port the start would listen on is checked
 * first, and a taken one stops it at once, naming the setting that moves it. Without this the simulator crashed on
 * its port while the API went on with PAYMENT_PROVIDER_URL pointing at whoever held it (another checkout's simulator:
 * payments sent to a stranger), and the API's own clash showed half a minute later, after the database had opened.
 */
async function ensurePortsFree({ api, simulator }) {
  const wanted = [['PORT', api.HOST || '127.0.0.1', api.PORT || '3000']];
  if ((api.METRICS_PORT ?? '').trim().toLowerCase() !== 'off')
    wanted.push(['METRICS_PORT', api.METRICS_HOST || '127.0.0.1', api.METRICS_PORT || '9464']);
  if (simulator) wanted.push(['SIMULATOR_PORT', simulator.SIMULATOR_HOST || '127.0.0.1', simulator.SIMULATOR_PORT]);
  let clashes = 0;
  for (const [setting, host, value] of wanted) {
    const port = Number(value);
    // Port 0 (any free port) cannot clash; a malformed value is the service's own configuration error to report.
    if (!Number.isInteger(port) || port <= 0 || port > 65535 || (await portFree(host, port))) continue;
    clashes += 1;
    say(
      `${setting}=${port}: port ${port} on ${host} is already in use (another copy of this service, or another ` +
        `program); set ${setting} to a free port, e.g. ${setting}=${port + 1} npm ${process.argv[2] === 'start' ? 'start' : 'run dev'}`,
      'error',
    );
  }
  if (clashes > 0) process.exit(1);
}

async function start() {
  const environments = serviceEnvironments();
  await ensurePortsFree(environments);
  ensureInstalled();
  say('building the API, the dashboard and the provider simulator');
  nx(['run-many', '-t', 'build', '-p', 'api', 'dashboard', 'provider-simulator', '--outputStyle=static']);
  const children = [];
  if (environments.simulator) {
    children.push(
      spawn(process.execPath, [join(root, 'dist', 'apps', 'provider-simulator', 'main.js')], {
        cwd: root,
        stdio: 'inherit',
        env: environments.simulator,
      }),
    );
  }
  const api = spawn(process.execPath, [...SERVICE_NODE_FLAGS, join(root, 'dist', 'apps', 'api', 'main.js')], {
    cwd: root,
    stdio: 'inherit',
    env: environments.api,
  });
  children.push(api);
  // The API never runs on without the provider it was pointed at (a simulator that failed to start, or died).
  const simulator = environments.simulator ? children[0] : undefined;
  simulator?.on('exit', (code, signal) => {
    if (api.exitCode !== null || signal) return;
    say(
      `the provider simulator exited (code ${code}); stopping the API, whose PAYMENT_PROVIDER_URL points at it`,
      'error',
    );
    api.kill('SIGTERM');
  });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => children.forEach((c) => c.kill(signal)));
  api.on('exit', (code, signal) => {
    children.forEach((c) => c.kill('SIGTERM'));
    process.exit(code ?? (signal ? 1 : 0));
  });
}

/**
 * `npm run dev`: what `npm start` runs, rebuilt and restarted on every change (tools/dev.mjs: esbuild's watch mode).
 * Ctrl-C (or SIGTERM) stops the watchers and the processes, then this one.
 */
async function dev() {
  const environments = serviceEnvironments();
  await ensurePortsFree(environments);
  ensureInstalled();
  const { dev: watch } = await import('./dev.mjs');
  const running = await watch({ ...environments, nodeFlags: SERVICE_NODE_FLAGS });
  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM'])
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      void running.stop().then(() => process.exit(0));
    });
}

function test() {
  ensureInstalled();
  // Formatting is part of lint: Prettier (printWidth 120, .prettierrc.json) over every file it is not told to ignore.
  must(process.execPath, [
    join(root, 'node_modules', 'prettier', 'bin', 'prettier.cjs'),
    '--check',
    '.',
    '--log-level=warn',
  ]);
  // Every relative link and #anchor of the Markdown files resolves (tools/check-links.mjs; proved by doc-links.spec).
  must(process.execPath, [join(root, 'tools', 'check-links.mjs')]);
  const summaries = join(root, 'tmp', 'test-summary');
  rmSync(summaries, { recursive: true, force: true });
  // Three steps, each sized to the machine's cores: lint and typecheck (one core each, so as many side by side as
  // there are cores), the projects' tests two projects at a time (each Jest run has a worker per core), then the storm
  // alone (apps/api/jest.storm.config.cjs). Each step runs whatever the one before found; the first failure decides.
  // Two projects at a time, because one left the cores idle: the files wait on timers, PostgreSQL and Chromium, and a
  // worker per core did not fill them (2 cores, 2026-11-27: one at a time 535 s with the cores 78% busy, two at a time
  // 424 s at 95%: the API's files beside the domain's, the dashboard's and the importer's in turn). The projects share
  // nothing they write: each file has its own database, data directory and ports.
  const steps = [
    ['lint and typecheck', ['run-many', '-t', 'lint', 'typecheck', `--parallel=${availableParallelism()}`]],
    ['tests', ['run-many', '-t', 'test', '--parallel=2']],
    ['the storm', ['run', 'api:storm']],
  ];
  const timings = [];
  let status = 0;
  for (const [name, args] of steps) {
    const began = Date.now();
    const result = run(process.execPath, [nxCli(), ...args, '--outputStyle=static']);
    timings.push(`${name} ${((Date.now() - began) / 1000).toFixed(0)} s`);
    if (status === 0) status = result;
  }
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  const timed = [];
  const files = existsSync(summaries) ? readdirSync(summaries) : [];
  for (const file of files) {
    const s = JSON.parse(readFileSync(join(summaries, file), 'utf8'));
    passed += s.passed;
    failed += s.failed;
    skipped += s.skipped;
    timed.push(...(s.files ?? []));
  }
  // Where the time goes: the slowest test files of the run (wall time, files of a project run side by side).
  timed.sort((a, b) => b.seconds - a.seconds);
  console.log(`\n[run] steps: ${timings.join(', ')}`);
  if (timed.length > 0) console.log('\n[run] slowest test files (s, tests, file):');
  for (const t of timed.slice(0, 12))
    console.log(`  ${t.seconds.toFixed(1).padStart(7)} ${String(t.tests).padStart(4)}  ${t.file}`);
  if (files.length === 0 && status === 0) {
    console.error('[run] no test results were recorded');
    process.exit(1);
  }
  console.log(`\nTests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
  process.exit(status !== 0 ? status : failed > 0 ? 1 : 0);
}

/**
 * Operator commands of the API's CLI (apps/api/src/cli.ts): `npm run keys -- create --role admin --principal <id>`,
 * `npm run migrations -- status|rolled-back <name>|retry <name>`.
 */
function operatorCommand(group) {
  ensureInstalled();
  nx(['build', 'api', '--outputStyle=static'], { NX_VERBOSE_LOGGING: 'false' });
  const result = spawnSync(
    process.execPath,
    [join(root, 'dist', 'apps', 'api', 'cli.js'), group, ...process.argv.slice(3)],
    {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, APP_ROOT: root },
    },
  );
  process.exit(result.status ?? 1);
}

/** `npm run bench`: the read-path benchmark (tools/bench/run.mjs), on the supported Node like everything else. */
function bench() {
  ensureInstalled();
  process.exit(run(process.execPath, [join(root, 'tools', 'bench', 'run.mjs'), ...process.argv.slice(3)]));
}

/**
 * `npm run first-load [-- <dashboard URL> <runs>]`: how soon the dashboard is usable on a first load over slow and fast
 * 3G with the CPU slowed 4x (tools/dashboard-first-load.mjs; a running `npm start` by default).
 */
function firstLoad() {
  ensureInstalled();
  process.exit(run(process.execPath, [join(root, 'tools', 'dashboard-first-load.mjs'), ...process.argv.slice(3)]));
}

/**
 * `npm run openapi`: writes the OpenAPI document (apps/api/openapi.json, from the code, no database needed) and the
 * TypeScript client's types generated from it by openapi-typescript (libs/api-client/src/schema.ts). The tests fail
 * while either differs from what the code gives, so a change of the API is committed with its contract.
 */
function openapi() {
  ensureInstalled();
  nx(['build', 'api', '--outputStyle=static']);
  const document = spawnSync(process.execPath, [join(root, 'dist', 'apps', 'api', 'cli.js'), 'openapi'], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, APP_ROOT: root, NODE_OPTIONS: '' },
    maxBuffer: 64 * 1024 * 1024,
  });
  if (document.status !== 0) {
    process.stderr.write(document.stderr);
    process.exit(document.status ?? 1);
  }
  writeFileSync(join(root, 'apps', 'api', 'openapi.json'), document.stdout);
  must(process.execPath, [
    join(root, 'node_modules', 'openapi-typescript', 'bin', 'cli.js'),
    join(root, 'apps', 'api', 'openapi.json'),
    '--output',
    join(root, 'libs', 'api-client', 'src', 'schema.ts'),
  ]);
  say('wrote apps/api/openapi.json and libs/api-client/src/schema.ts');
}

/** `npm run bundle [-- <folder>]`: the runtime bundle operators deploy (tools/bundle.mjs). */
function bundle() {
  ensureInstalled();
  process.exit(run(process.execPath, [join(root, 'tools', 'bundle.mjs'), ...process.argv.slice(3)]));
}

/**
 * `npm run import -- [options] <files or folders>`: the importer of the original service's MongoDB exports
 * (tools/import), built and run from the folder npm was started in, so relative paths are the user's.
 */
function importExport() {
  ensureInstalled();
  // Without a database URL the import goes to the embedded database, which the service's own command opens.
  const embedded = !process.env.DATABASE_URL && !process.argv.slice(3).some((a) => a.startsWith('--database-url'));
  nx(['run-many', '-t', 'build', '-p', 'import', ...(embedded ? ['api'] : []), '--outputStyle=static']);
  const result = spawnSync(
    process.execPath,
    // The service's memory policy suits the importer too: a million trips in 151 MB instead of 286 (docs/importing.md).
    [...SERVICE_NODE_FLAGS, join(root, 'dist', 'tools', 'import', 'main.js'), ...process.argv.slice(3)],
    { cwd: process.env.INIT_CWD ?? process.cwd(), stdio: 'inherit' },
  );
  process.exit(result.status ?? 1);
}

/**
 * `npm run prisma -- <args>` and `npm run nx -- <args>`: the tools on the project's Node (`npx prisma` and `npx nx` run
 * on whatever Node is first on PATH, with npm's devEngines warning on every call). No install step: they are the
 * tools of an installed tree.
 */
function tool(script) {
  return () => {
    const result = spawnSync(process.execPath, [script(), ...process.argv.slice(3)], {
      cwd: process.env.INIT_CWD ?? process.cwd(),
      stdio: 'inherit',
    });
    process.exit(result.status ?? 1);
  };
}

const commands = {
  start,
  dev,
  test,
  keys: () => operatorCommand('keys'),
  migrations: () => operatorCommand('migrations'),
  bench,
  'first-load': firstLoad,
  bundle,
  openapi,
  import: importExport,
  prisma: tool(() => join(root, 'node_modules', 'prisma', 'build', 'index.js')),
  nx: tool(nxCli),
};
const command = commands[process.argv[2]];
if (!command) {
  console.error(`usage: node tools/run.mjs ${Object.keys(commands).join('|')}`);
  process.exit(2);
}
ensureNode();
if (!['prisma', 'nx'].includes(process.argv[2])) say(`Node ${process.version}`);
command();
