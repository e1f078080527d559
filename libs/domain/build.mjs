// Builds @transport/domain as a standalone package in dist/libs/domain, ready for `npm pack`/`npm publish` (the release
// command, tools/release-domain.mjs) or a `file:` dependency. Three entry points: the domain (index), its test doubles
// (testing), the production ports for Node (node) and the repository contract suite that a new persistence adapter runs to prove itself (contracts).
//   index.mjs, node.mjs, testing.mjs, ...  ES modules (esbuild); shared code in chunk-<hash>.mjs, so within a format
//                                          a class is one class whichever entry reaches it (instanceof DomainError
//                                          holds across entries)
//   index.js, testing.js, contracts.js      CommonJS: the same files converted one by one (chunk-<hash>.js)
//   types/                                 the declarations (tsc), which index.d.ts and index.d.mts (and the
//                                          other entries') re-export: one declaration per class for both formats
// Plus its package.json, README and CHANGELOG. esbuild as for the apps (docs/development.md, "Building");
// self-contained, so the release test can run it in a copy of the library.
import { build } from 'esbuild';
import { execFile } from 'node:child_process';
import { copyFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const out = join(root, 'dist', 'libs', 'domain');
const entries = {
  index: 'src/index.ts',
  node: 'src/node/index.ts',
  testing: 'src/testing/index.ts',
  contracts: 'test/contracts/index.ts',
};
rmSync(out, { recursive: true, force: true });

// The declarations, from the same tsconfig (tsconfig.build.json), while esbuild writes the JavaScript.
const tsc = createRequire(join(root, 'package.json')).resolve('typescript/bin/tsc');
const declarations = promisify(execFile)(process.execPath, [tsc, '-p', join(here, 'tsconfig.build.json')], {
  cwd: root,
}).catch((error) => {
  throw new Error(`tsc failed:\n${error.stdout}${error.stderr}`);
});

// Node's built-ins stay imports (the node entry's crypto); nothing else is external but packages (there are none).
const common = {
  bundle: true,
  target: 'es2022',
  logLevel: 'warning',
  outdir: out,
  packages: 'external',
  external: ['node:*'],
};
await build({
  ...common,
  entryPoints: Object.fromEntries(Object.entries(entries).map(([name, path]) => [name, join(here, path)])),
  tsconfig: join(here, 'tsconfig.build.json'),
  platform: 'neutral',
  format: 'esm',
  splitting: true,
  chunkNames: 'chunk-[hash]',
  outExtension: { '.js': '.mjs' },
});
// esbuild splits ES modules only: each .mjs becomes its .js twin, and an import of a chunk stays an import (a
// require) of that chunk's twin instead of a copy of it.
const modules = readdirSync(out).filter((name) => name.endsWith('.mjs'));
await build({
  ...common,
  entryPoints: modules.map((name) => join(out, name)),
  platform: 'node',
  format: 'cjs',
  plugins: [
    {
      name: 'shared-chunks',
      setup(esbuild) {
        esbuild.onResolve({ filter: /^\.\/chunk-[A-Z0-9]+\.mjs$/ }, ({ path }) => ({
          path: path.replace(/\.mjs$/, '.js'),
          external: true,
        }));
      },
    },
  ],
});

await declarations;
for (const [name, path] of Object.entries(entries)) {
  const types = `./types/${path.replace(/\.ts$/, '')}`;
  writeFileSync(join(out, `${name}.d.ts`), `export * from '${types}';\n`);
  writeFileSync(join(out, `${name}.d.mts`), `export * from '${types}.js';\n`);
}
for (const file of ['package.json', 'README.md', 'CHANGELOG.md']) copyFileSync(join(here, file), join(out, file));
console.log(`built ${out}`);
