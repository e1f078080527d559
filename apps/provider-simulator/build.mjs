// Builds the provider simulator into dist/apps/provider-simulator/main.js with esbuild (tools/build/node-app.mjs), the
// library it runs (libs/provider-simulator) compiled in. `npm run dev` (tools/dev.mjs) runs it in watch mode.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { nodeApp, root } from '../../tools/build/node-app.mjs';

const out = join(root, 'dist', 'apps', 'provider-simulator');

/** The esbuild options (one set per output format). */
export function builds() {
  return [
    nodeApp({
      entryPoints: { main: join(root, 'apps', 'provider-simulator', 'src', 'main.ts') },
      outdir: out,
      tsconfig: join(root, 'apps', 'provider-simulator', 'tsconfig.app.json'),
    }),
  ];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  rmSync(out, { recursive: true, force: true });
  await Promise.all(builds().map((options) => build(options)));
  console.log(`built ${out}`);
}
