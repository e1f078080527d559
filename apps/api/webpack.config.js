const { NxAppWebpackPlugin } = require('@nx/webpack/app-plugin');
const { join } = require('path');

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
  ],
};
