// Builds the API into dist/apps/api with esbuild (tools/build/node-app.mjs: swc compiles the decorators first):
//   main.js       the service
//   cli.js        its operator commands (keys, openapi, seed, embedded-server)
//   prisma.config.js   the Prisma CLI's configuration as JavaScript, exporting the config: the runtime bundle runs
//                      `prisma migrate deploy` and `prisma db seed` with it, with no TypeScript source of the app.
// `npm run dev` (tools/dev.mjs) runs the same builds in watch mode.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { nodeApp, root } from '../../tools/build/node-app.mjs';

const out = join(root, 'dist', 'apps', 'api');
const tsconfig = join(root, 'apps', 'api', 'tsconfig.app.json');

/** The esbuild options (one set per output format). */
export function builds() {
  return [
    nodeApp({
      entryPoints: {
        main: join(root, 'apps', 'api', 'src', 'main.ts'),
        cli: join(root, 'apps', 'api', 'src', 'cli.ts'),
      },
      outdir: out,
      tsconfig,
    }),
    {
      ...nodeApp({ entryPoints: { 'prisma.config': join(root, 'prisma.config.ts') }, outdir: out, tsconfig }),
      // `export default defineConfig(...)` as the module itself, which is what the Prisma CLI loads.
      footer: { js: 'module.exports = module.exports.default;' },
    },
  ];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  rmSync(out, { recursive: true, force: true });
  await Promise.all(builds().map((options) => build(options)));
  console.log(`built ${out}`);
}
