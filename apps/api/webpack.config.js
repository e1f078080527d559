const { NxAppWebpackPlugin } = require('@nx/webpack/app-plugin');
const { join } = require('path');
const { EntryPlugin } = require('webpack');

/**
 * The Prisma CLI's configuration as JavaScript beside main.js (prisma.config.js, exporting the config): the runtime
 * bundle runs `prisma migrate deploy` and `prisma db seed` with it, with no TypeScript source of the app.
 */
class PrismaConfigEntry {
  apply(compiler) {
    const enabled = (compiler.options.output.enabledLibraryTypes ??= []);
    if (!enabled.includes('commonjs2')) enabled.push('commonjs2');
    new EntryPlugin(compiler.context, join(__dirname, '../../prisma.config.ts'), {
      name: 'prisma.config',
      library: { type: 'commonjs2', export: 'default' },
    }).apply(compiler);
  }
}

// tsc (not esbuild/swc) so that Nest's decorator metadata is emitted; node_modules stay external, so PGlite finds
// its WebAssembly files and the Prisma CLI runs from the installed package.
module.exports = {
  output: { path: join(__dirname, '../../dist/apps/api') },
  plugins: [
    new NxAppWebpackPlugin({
      target: 'node',
      compiler: 'tsc',
      main: './src/main.ts',
      additionalEntryPoints: [{ entryName: 'cli', entryPath: './src/cli.ts' }],
      tsConfig: './tsconfig.app.json',
      optimization: false,
      outputHashing: 'none',
      generatePackageJson: false,
      sourceMap: true,
    }),
    new PrismaConfigEntry(),
  ],
};
