#!/usr/bin/env node
// `npm run release:domain -- <version> [--publish]`: releases @transport/domain.
//   1. the CHANGELOG's "Unreleased" section must say something; it becomes "<version> - <date>";
//   2. libs/domain/package.json takes the version (it must be greater than the current one);
//   3. the package is built (libs/domain/build.mjs: ESM + CJS) and checked with publint and Are the Types Wrong;
//   4. the tarball is packed into dist/releases/, and with --publish handed to `npm publish` (the registry of your
//      npm configuration); the commit and the tag domain-v<version> are left to you, printed at the end.
// Hand-written (about 80 lines) because Changesets, the usual tool, finds packages through npm workspaces, which this
// repository does not use (TypeScript path mapping links the library to the app instead).
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const lib = join(root, 'libs', 'domain');
const dist = join(root, 'dist', 'libs', 'domain');
const [version, ...flags] = process.argv.slice(2);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function fail(message) {
  console.error(`[release] ${message}`);
  process.exit(1);
}

function must(command, args, cwd = root) {
  const result = spawnSync(command, args, { cwd, stdio: 'inherit', env: { ...process.env, NODE_OPTIONS: '' } });
  if (result.status !== 0) fail(`"${command} ${args.join(' ')}" failed (exit ${result.status})`);
}

const semver = /^(\d+)\.(\d+)\.(\d+)(-[0-9A-Za-z.-]+)?$/;
if (!version || !semver.test(version)) fail('usage: npm run release:domain -- <version, e.g. 0.2.0> [--publish]');
const manifestFile = join(lib, 'package.json');
const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
const parts = (v) => semver.exec(v).slice(1, 4).map(Number);
const [a, b] = [parts(version), parts(manifest.version)];
const newer = a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
if (newer <= 0) fail(`${version} is not greater than the current ${manifest.version}`);

const changelogFile = join(lib, 'CHANGELOG.md');
const changelog = readFileSync(changelogFile, 'utf8');
const unreleased = /^## Unreleased\n([\s\S]*?)(?=^## )/m.exec(changelog);
if (!unreleased || !/^- /m.test(unreleased[1]))
  fail('CHANGELOG.md has nothing under "## Unreleased": say what this release changes for consumers first');
const today = new Date().toISOString().slice(0, 10);
writeFileSync(changelogFile, changelog.replace(/^## Unreleased\n/m, `## Unreleased\n\n## ${version} - ${today}\n`));
manifest.version = version;
writeFileSync(manifestFile, `${JSON.stringify(manifest, null, 2)}\n`);

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
if (flags.includes('--publish')) must(npm, ['publish', tarball]);
console.log(`[release] @transport/domain ${version}: ${tarball}${flags.includes('--publish') ? ' (published)' : ''}`);
console.log(`[release] next: git commit -am "domain ${version}" && git tag domain-v${version}`);
