// Builds the importer (tools/import) into dist/tools/import/main.js with esbuild (tools/build/node-app.mjs): one
// CommonJS file with the domain compiled in, and every package that is not a production dependency too (yaml and
// color-name, development dependencies); its runtime npm dependencies (bson, pg) are left to node_modules,
// which the runtime bundle installs.
import { build } from 'esbuild';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { nodeApp, root } from '../build/node-app.mjs';

const out = join(root, 'dist', 'tools', 'import');
const { dependencies } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
rmSync(out, { recursive: true, force: true });
await build({
  ...nodeApp({
    entryPoints: { main: join(root, 'tools', 'import', 'src', 'main.ts') },
    outdir: out,
    tsconfig: join(root, 'tools', 'import', 'tsconfig.app.json'),
  }),
  packages: undefined,
  external: Object.keys(dependencies),
});
console.log('built dist/tools/import/main.js');
