#!/usr/bin/env node
// `npm run release:domain -- <version> [--registry <url>] [--skip-tests]`: releases @transport/domain.
//   1. refuses a dirty work tree, an existing tag domain-v<version>, a version not greater than libs/domain's (main
//      carries the next version as a pre-release, 0.2.0-next.0: 0.2.0 is greater), and an empty "Unreleased";
//   2. runs the library's tests (`nx test domain`; --skip-tests only for the dry run, whose caller is those tests);
//   3. dates the CHANGELOG's "Unreleased" section as "<version> - <date>", sets the version, builds the package
//      (libs/domain/build.mjs: ESM + CJS), checks it with publint and Are the Types Wrong, packs it into dist/releases/;
//   4. commits "domain <version>" and tags it domain-v<version>;
//   5. publishes the tarball to the registry of the npm configuration (.npmrc, NPM_CONFIG_REGISTRY, or --registry;
//      the token as `//<host>/:_authToken=...` in .npmrc), a pre-release under the dist-tag `next`;
//   6. sets main to the next pre-release (0.2.0 -> 0.3.0-next.0) and commits it. Pushing is yours:
//      `git push --follow-tags`.
// `npm run release:domain -- [<version>] --dry-run` does all of it on a temporary copy of the library (its own git
// repository) and publishes to a throwaway local registry (Verdaccio, tools/local-registry.mjs), then installs the
// package from there into an empty project and uses it from CommonJS and from ES modules; the repository is left as
// it was. `npm test` runs it (libs/domain/test/release.spec.ts). Its last line is a JSON summary.
// Hand-written because Changesets, the usual tool, finds packages through npm workspaces, which this repository does
// not use (TypeScript path mapping links the library to the app instead).
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const lib = join(root, 'libs', 'domain');
const dist = join(root, 'dist', 'libs', 'domain');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const args = process.argv.slice(2);
const flag = (name) => args.includes(name);
const option = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const registry = option('--registry');
const positional = args.filter((a, i) => !a.startsWith('--') && args[i - 1] !== '--registry');

class Refused extends Error {}
function fail(message) {
  throw new Refused(message);
}

function must(command, commandArgs, cwd = root, env = {}) {
  const result = spawnSync(command, commandArgs, {
    cwd,
    stdio: 'inherit',
    env: { ...process.env, NODE_OPTIONS: '', ...env },
  });
  if (result.status !== 0) fail(`"${command} ${commandArgs.join(' ')}" failed (exit ${result.status})`);
}

function output(command, commandArgs, cwd = root) {
  const result = spawnSync(command, commandArgs, { cwd, encoding: 'utf8' });
  if (result.status !== 0) fail(`"${command} ${commandArgs.join(' ')}" failed: ${result.stderr}`);
  return result.stdout.trim();
}

// Semantic versions, pre-releases included: 0.2.0-next.0 < 0.2.0 < 0.3.0-next.0.
const semver = /^(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?$/;
export function compareVersions(a, b) {
  const [x, y] = [semver.exec(a), semver.exec(b)];
  for (let i = 1; i <= 3; i++) if (Number(x[i]) !== Number(y[i])) return Number(x[i]) - Number(y[i]);
  if (!x[4] || !y[4]) return (x[4] ? -1 : 0) - (y[4] ? -1 : 0);
  const [p, q] = [x[4].split('.'), y[4].split('.')];
  for (let i = 0; i < Math.max(p.length, q.length); i++) {
    if (p[i] === undefined || q[i] === undefined) return p[i] === undefined ? -1 : 1;
    const [m, n] = [/^\d+$/.test(p[i]), /^\d+$/.test(q[i])];
    if (m && n && Number(p[i]) !== Number(q[i])) return Number(p[i]) - Number(q[i]);
    if (m !== n) return m ? -1 : 1;
    if (p[i] !== q[i]) return p[i] < q[i] ? -1 : 1;
  }
  return 0;
}

/** What main carries after releasing `version`: the next minor as a pre-release, or the next pre-release. */
export function nextPrerelease(version) {
  const [, major, minor, , pre] = semver.exec(version);
  const counted = pre && /^(.*\.)(\d+)$/.exec(pre);
  if (counted) return `${version.slice(0, version.indexOf('-'))}-${counted[1]}${Number(counted[2]) + 1}`;
  return `${major}.${Number(minor) + 1}.0-next.0`;
}

const manifestFile = join(lib, 'package.json');
const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));

try {
  if (flag('--dry-run')) await dryRun(positional[0] ?? manifest.version.replace(/-.*$/, ''));
  else release(positional[0]);
} catch (error) {
  // Thrown, not exited, so that the dry run stops its registry and removes its folders first.
  console.error(`[release] ${error instanceof Refused ? error.message : error.stack}`);
  process.exitCode = 1;
}

function release(version) {
  if (!version || !semver.test(version))
    fail('usage: npm run release:domain -- <version, e.g. 0.2.0> [--registry <url>] (or --dry-run)');
  if (compareVersions(version, manifest.version) <= 0)
    fail(`${version} is not greater than the current ${manifest.version}`);
  const tag = `domain-v${version}`;
  if (output('git', ['status', '--porcelain']) !== '') fail('the work tree has changes: commit or drop them first');
  if (output('git', ['tag', '--list', tag]) !== '') fail(`the tag ${tag} exists already`);
  const changelogFile = join(lib, 'CHANGELOG.md');
  const changelog = readFileSync(changelogFile, 'utf8');
  const unreleased = /^## Unreleased\n([\s\S]*?)(?=^## )/m.exec(changelog);
  if (!unreleased || !/^- /m.test(unreleased[1]))
    fail('CHANGELOG.md has nothing under "## Unreleased": say what this release changes for consumers first');

  if (!flag('--skip-tests'))
    must(process.execPath, [join(root, 'node_modules', 'nx', 'bin', 'nx.js'), 'test', 'domain']);

  const today = new Date().toISOString().slice(0, 10);
  writeFileSync(changelogFile, changelog.replace(/^## Unreleased\n/m, `## Unreleased\n\n## ${version} - ${today}\n`));
  const write = (v) => writeFileSync(manifestFile, `${JSON.stringify({ ...manifest, version: v }, null, 2)}\n`);
  write(version);

  must(process.execPath, [join(lib, 'build.mjs')]);
  must(process.execPath, [join(root, 'node_modules', 'publint', 'src', 'cli.js'), '--strict'], dist);
  must(
    process.execPath,
    [join(root, 'node_modules', '@arethetypeswrong', 'cli', 'dist', 'index.js'), '--pack', '.'],
    dist,
  );
  const releases = join(root, 'dist', 'releases');
  mkdirSync(releases, { recursive: true });
  must(npm, ['pack', '--pack-destination', releases, '--silent'], dist);
  const tarball = join(releases, `transport-domain-${version}.tgz`);

  must('git', ['commit', '--quiet', '-m', `domain ${version}`, '--', manifestFile, changelogFile]);
  must('git', ['tag', '-a', tag, '-m', `@transport/domain ${version}`]);
  const where = registry ? ['--registry', registry] : [];
  const distTag = semver.exec(version)[4] ? ['--tag', 'next'] : [];
  const published = spawnSync(npm, ['publish', tarball, ...where, ...distTag], { cwd: root, stdio: 'inherit' });
  if (published.status !== 0)
    fail(
      `npm publish failed; ${tag} is committed and tagged here only. Fix the registry configuration and run ` +
        `"npm publish ${tarball}${where.length ? ` --registry ${registry}` : ''}", or drop the tag: git tag -d ${tag}`,
    );
  const next = nextPrerelease(version);
  write(next);
  must('git', ['commit', '--quiet', '-m', `domain: main carries ${next} after ${version}`, '--', manifestFile]);
  console.log(`[release] @transport/domain ${version} published (${tarball}), tagged ${tag}; main is ${next}`);
  console.log('[release] next: git push --follow-tags');
  console.log(JSON.stringify({ version, tag, next, tarball }));
}

async function dryRun(version) {
  const { startRegistry } = await import('./local-registry.mjs');
  const say = (m) => console.log(`[release:dry-run] ${m}`);
  const copy = mkdtempSync(join(tmpdir(), 'domain-release-dry-run-'));
  const consumer = mkdtempSync(join(tmpdir(), 'domain-consumer-'));
  let registryHandle;
  try {
    for (const path of [
      'package.json',
      'tsconfig.base.json',
      'tools/release-domain.mjs',
      'tools/local-registry.mjs',
      'libs/domain',
    ])
      cpSync(join(root, path), join(copy, path), { recursive: true });
    symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'));
    writeFileSync(join(copy, '.gitignore'), 'node_modules\ndist\n');
    const git = (...a) => must('git', ['-c', 'user.name=dry run', '-c', 'user.email=dry-run@localhost', ...a], copy);
    git('init', '--quiet');
    git('add', '-A');
    git('commit', '--quiet', '-m', 'the library as it is');
    must('git', ['config', 'user.name', 'dry run'], copy);
    must('git', ['config', 'user.email', 'dry-run@localhost'], copy);

    registryHandle = await startRegistry(root, say);
    say(`local registry at ${registryHandle.url}`);
    // The registry and its token come from the npm configuration, as for a private registry.
    const npmEnv = { NPM_CONFIG_USERCONFIG: registryHandle.userconfig };
    must(process.execPath, [join(copy, 'tools', 'release-domain.mjs'), version, '--skip-tests'], copy, npmEnv);
    const tagged = output('git', ['tag', '--list', `domain-v${version}`], copy);
    const carried = JSON.parse(readFileSync(join(copy, 'libs', 'domain', 'package.json'), 'utf8')).version;

    writeFileSync(
      join(consumer, 'package.json'),
      JSON.stringify({ name: 'consumer', version: '1.0.0', private: true }),
    );
    must(npm, ['install', `@transport/domain@${version}`, '--no-audit', '--no-fund', '--loglevel=error'], consumer, {
      ...npmEnv,
      npm_config_cache: join(consumer, '.npm-cache'),
    });
    const use = (code) => `
      const clock = new node.SystemClock();
      const ids = new domain.ObjectIdGenerator(clock, new node.CryptoRandomSource());
      const v = domain.Vehicle.register({ ownerId: ids.next(), registrationNumber: 'gr 1-24' }, ids, clock.now());
      let refused;
      try { v.approve(ids.next(), clock.now()); } catch (e) { refused = e instanceof domain.DomainError && e.code; }
      const installed = ${code};
      console.log(JSON.stringify({ refused, reg: v.toState().registrationNumber, installed,
        testing: typeof testing.FixedClock, mainHasTestDoubles: 'FixedClock' in domain }));`;
    writeFileSync(
      join(consumer, 'check.cjs'),
      `const domain = require('@transport/domain'); const node = require('@transport/domain/node');
       const testing = require('@transport/domain/testing');
       ${use("require('@transport/domain/package.json').version")}`,
    );
    writeFileSync(
      join(consumer, 'check.mjs'),
      `import * as domain from '@transport/domain'; import * as node from '@transport/domain/node';
       import * as testing from '@transport/domain/testing'; import { readFileSync } from 'node:fs';
       ${use("JSON.parse(readFileSync(new URL(import.meta.resolve('@transport/domain/package.json')), 'utf8')).version")}`,
    );
    const run = (file) => JSON.parse(output(process.execPath, [file], consumer));
    const summary = { version, tag: tagged, carried, cjs: run('check.cjs'), esm: run('check.mjs') };
    say(`published ${version} to ${registryHandle.url}, installed it and used it from CommonJS and ES modules`);
    console.log(JSON.stringify(summary));
  } finally {
    registryHandle?.stop();
    rmSync(copy, { recursive: true, force: true });
    rmSync(consumer, { recursive: true, force: true });
  }
}
