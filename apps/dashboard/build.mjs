// Builds the assembly dashboard into dist/apps/dashboard: index.html, styles.css and one minified ES module bundle
// (Preact and the generated API client compiled in), served by the API itself under /dashboard/.
import { build } from 'esbuild';
import { copyFile, mkdir, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, '..', '..', 'dist', 'apps', 'dashboard');
await rm(out, { recursive: true, force: true });
await mkdir(out, { recursive: true });
await build({
  entryPoints: [join(here, 'src', 'main.tsx')],
  // main.js, plus chunks loaded when needed (the QR decoder, only on a scan without the browser's BarcodeDetector).
  outdir: out,
  entryNames: '[name]',
  chunkNames: 'chunks/[name]-[hash]',
  splitting: true,
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: ['es2022'],
  minify: true,
  sourcemap: true,
  tsconfig: join(here, 'tsconfig.app.json'),
  jsx: 'automatic',
  jsxImportSource: 'preact',
  legalComments: 'linked',
  logLevel: 'warning',
});
await copyFile(join(here, 'src', 'index.html'), join(out, 'index.html'));
await copyFile(join(here, 'src', 'styles.css'), join(out, 'styles.css'));
console.log('built dist/apps/dashboard');
