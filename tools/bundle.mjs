#!/usr/bin/env node
// `npm run bundle`: the runtime bundle operators deploy (the Dockerfile copies it), in dist/runtime/:
//   main.js, cli.js          the service and its operator commands (built JavaScript, source maps beside)
//   provider-simulator.js    the Hubtel-style stand-in, for demos and the compose file's test stack only
//   import.js                the importer of the original service's MongoDB exports (tools/import)
//   dashboard/               the assembly dashboard's static files, served by the service under /dashboard/
//   prisma.config.js         the Prisma CLI's configuration, compiled (no TypeScript source of the app)
//   prisma/                  the schema and the committed migrations
//   package.json, package-lock.json, node_modules/   production dependencies only (the Prisma CLI among them)
// Started from any folder with `npm start --prefix <folder>` (node with the service's memory flags,
// apps/api/node-flags.json); `npx prisma migrate deploy` and `npx prisma db seed` work from inside it.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = resolve(process.argv[2] ?? join(root, 'dist', 'runtime'));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function must(command, args, cwd = root) {
  const result = spawnSync(command, args, { cwd, stdio: 'inherit', env: { ...process.env, NX_NO_CLOUD: 'true' } });
  if (result.status !== 0) {
    console.error(`[bundle] "${command} ${args.join(' ')}" failed (exit ${result.status})`);
    process.exit(result.status ?? 1);
  }
}

console.log(`[bundle] building into ${out}`);
const nxPackage = JSON.parse(readFileSync(join(root, 'node_modules', 'nx', 'package.json'), 'utf8'));
must(process.execPath, [
  join(root, 'node_modules', 'nx', nxPackage.bin.nx),
  'run-many',
  '-t',
  'build',
  '-p',
  'api',
  'provider-simulator',
  'import',
  'dashboard',
  '--outputStyle=static',
]);

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const api = join(root, 'dist', 'apps', 'api');
for (const file of ['main.js', 'main.js.map', 'cli.js', 'cli.js.map', 'prisma.config.js', 'prisma.config.js.map'])
  if (existsSync(join(api, file))) cpSync(join(api, file), join(out, file));
cpSync(join(root, 'dist', 'apps', 'provider-simulator', 'main.js'), join(out, 'provider-simulator.js'));
// The importer of the original service's MongoDB exports (docs/importing.md).
cpSync(join(root, 'dist', 'tools', 'import', 'main.js'), join(out, 'import.js'));
// The assembly dashboard (apps/dashboard), served by the service from here (app.ts, dashboardDir).
cpSync(join(root, 'dist', 'apps', 'dashboard'), join(out, 'dashboard'), { recursive: true });
cpSync(join(root, 'prisma', 'schema.prisma'), join(out, 'prisma', 'schema.prisma'));
cpSync(join(root, 'prisma', 'migrations'), join(out, 'prisma', 'migrations'), { recursive: true });

// The repository's manifest and lock, so `npm ci --omit=dev` installs exactly the tested versions; the scripts are
// the bundle's own (no build tools in it).
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
manifest.scripts = {
  // The service's memory policy (apps/api/node-flags.json, docs/performance.md, "Memory"), as `npm start` and the
  // image use it.
  start: ['node', ...JSON.parse(readFileSync(join(root, 'apps', 'api', 'node-flags.json'), 'utf8')), 'main.js'].join(
    ' ',
  ),
  keys: 'node cli.js keys',
  migrate: 'prisma migrate deploy',
  seed: 'prisma db seed',
  import: ['node', ...JSON.parse(readFileSync(join(root, 'apps', 'api', 'node-flags.json'), 'utf8')), 'import.js'].join(
    ' ',
  ),
};
writeFileSync(join(out, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
cpSync(join(root, 'package-lock.json'), join(out, 'package-lock.json'));
cpSync(join(root, '.nvmrc'), join(out, '.nvmrc'));
// No install scripts: the Prisma client is already compiled into main.js (nothing to generate), and nothing else
// the service uses needs one.
must(npm, ['ci', '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund'], out);
console.log(`[bundle] ready: ${out} (start it with: node ${join(out, 'main.js')})`);
