// esbuild for the Node apps (the API, the provider simulator, the importer), as apps/dashboard/build.mjs uses it for the
// browser: one bundler for every app (docs/development.md, "Building").
//
// esbuild does not emit TypeScript's decorator metadata (`design:paramtypes`), which NestJS's injection and
// class-validator's DTOs read, so TypeScript files go through swc first, with the options the tests compile with
// (jest.preset.js: legacy decorators and their metadata). The code the tests run is compiled as the code that ships.
import { transform } from '@swc/core';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const [, testSwcOptions] = createRequire(import.meta.url)(join(root, 'jest.preset.js')).transform['^.+\\.ts$'];

/**
 * An esbuild plugin that compiles each TypeScript file with swc (decorator metadata included) and hands esbuild the
 * JavaScript as ES modules, which it then bundles as usual (path aliases are resolved by esbuild from the tsconfig).
 * A file's output is kept while its source is unchanged, so a rebuild in watch mode (`npm run dev`) compiles only
 * the files that changed.
 */
export function swcDecorators() {
  const compiled = new Map();
  return {
    name: 'swc-decorators',
    setup(build) {
      build.onLoad({ filter: /\.ts$/ }, async ({ path }) => {
        if (path.endsWith('.d.ts') || path.includes('/node_modules/')) return undefined;
        const source = await readFile(path, 'utf8');
        const cached = compiled.get(path);
        if (cached?.source === source) return { contents: cached.code, loader: 'js' };
        const { code } = await transform(source, {
          ...testSwcOptions,
          filename: path,
          module: { type: 'es6' },
          sourceMaps: 'inline',
          swcrc: false,
          configFile: false,
        });
        compiled.set(path, { source, code });
        return { contents: code, loader: 'js' };
      });
    },
  };
}

/**
 * The esbuild options of a Node app: CommonJS for Node 24 (.nvmrc), npm packages left to node_modules (PGlite finds
 * its WebAssembly files there and the Prisma CLI runs from its package), the workspace's libraries compiled in,
 * source maps beside, class names kept (Nest names providers and loggers by them).
 */
export function nodeApp({ entryPoints, outdir, tsconfig }) {
  return {
    entryPoints,
    outdir,
    tsconfig,
    absWorkingDir: root,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: `node${readFileSync(join(root, '.nvmrc'), 'utf8').trim().split('.')[0]}`,
    packages: 'external',
    sourcemap: true,
    keepNames: true,
    logLevel: 'warning',
    plugins: [swcDecorators()],
  };
}
