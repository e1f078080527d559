import { defineConfig } from 'tsup';

// @transport/domain as a package other teams install: ES modules and CommonJS from the same sources, each with its
// declarations, for three entry points (the domain, its test doubles, and the repository contract suite that a new
// persistence adapter runs to prove itself). Shared code is split into chunks, so within one format a class is one
// class whichever entry it is reached through (instanceof DomainError holds across entries).
export default defineConfig({
  entry: {
    index: 'libs/domain/src/index.ts',
    testing: 'libs/domain/src/testing/index.ts',
    contracts: 'libs/domain/test/contracts/index.ts',
  },
  outDir: 'dist/libs/domain',
  format: ['esm', 'cjs'],
  target: 'es2022',
  platform: 'neutral',
  splitting: true,
  dts: { compilerOptions: { composite: false } },
  tsconfig: 'libs/domain/tsconfig.build.json',
  clean: true,
  sourcemap: false,
  treeshake: true,
});
