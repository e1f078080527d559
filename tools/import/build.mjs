// Builds the importer (tools/import) into dist/tools/import/main.js: one CommonJS file with the domain compiled in
// (esbuild through tsup), with yaml and color-name (development dependencies) compiled in too; its runtime npm
// dependencies (bson, stream-json, pg) are left to node_modules.
import { build } from 'tsup';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
await build({
  entry: { main: join(here, 'src', 'main.ts') },
  outDir: join(root, 'dist', 'tools', 'import'),
  format: ['cjs'],
  platform: 'node',
  target: 'node20',
  tsconfig: join(here, 'tsconfig.app.json'),
  noExternal: ['@transport/domain', 'yaml', 'color-name'],
  sourcemap: true,
  clean: true,
  silent: true,
});
console.log('built dist/tools/import/main.js');
