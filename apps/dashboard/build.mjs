// Builds the assembly dashboard into dist/apps/dashboard: index.html, the stylesheet and one minified ES module bundle
// (Preact and the generated API client compiled in), served by the API itself under /dashboard/.
//
// The script and stylesheet carry a hash of their content in their names (main-3FQ2K7ZB.js), so the service can let
// browsers keep them for a year (a new release has new names); index.html names them and is revalidated on every load.
// Each text file is written pre-compressed beside itself (.br and .gz, at the highest levels): the service sends the
// smallest one the browser accepts, without compressing on every request.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, '..', '..', 'dist', 'apps', 'dashboard');
await rm(out, { recursive: true, force: true });
await mkdir(out, { recursive: true });
const result = await build({
  entryPoints: [join(here, 'src', 'main.tsx')],
  // main-<hash>.js, plus chunks loaded when needed (the QR decoder, only on a scan without the browser's
  // BarcodeDetector), hashed too so every file but index.html can be cached for good.
  outdir: out,
  entryNames: '[name]-[hash]',
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
  metafile: true,
});
const script = Object.keys(result.metafile.outputs)
  .map((path) => path.split('/').pop())
  .find((name) => /^main-[A-Z0-9]+\.js$/.test(name));
if (!script) throw new Error('esbuild wrote no main-<hash>.js');

// The stylesheet, named by its content's hash as esbuild names the script: eight of [A-Z0-9] (hex), which is what the
// service recognises as hashed (base64url could give "-" or "_", and the file would lose its year of caching).
const css = await readFile(join(here, 'src', 'styles.css'));
const styles = `styles-${createHash('sha256').update(css).digest('hex').slice(0, 8).toUpperCase()}.css`;
await writeFile(join(out, styles), css);

const html = (await readFile(join(here, 'src', 'index.html'), 'utf8'))
  .replace('href="styles.css"', `href="${styles}"`)
  .replace('src="main.js"', `src="${script}"`);
if (!html.includes(styles) || !html.includes(script))
  throw new Error('index.html no longer names styles.css and main.js');
await writeFile(join(out, 'index.html'), html);

// The service worker (src/offline/service-worker.js) keeps this release's shell: index.html and every hashed file
// (chunks included, so a scan works offline too), under a cache named by the list's hash. It is written before the
// compression below, and its own name carries no hash: the service revalidates it on every load (no-cache), which is
// how browsers find a new release.
const shell = (await readdir(out, { recursive: true }))
  .filter((name) => /\.(js|css)$/.test(name))
  .map((name) => name.split('\\').join('/'))
  .sort();
const release = createHash('sha256').update(shell.join('\n')).digest('base64url').slice(0, 12);
const worker = (await readFile(join(here, 'src', 'offline', 'service-worker.js'), 'utf8'))
  .replace('/* SHELL */ []', JSON.stringify(shell))
  .replace("'RELEASE'", JSON.stringify(release));
if (!worker.includes(release) || !worker.includes(script)) throw new Error('service-worker.js lost its placeholders');
await writeFile(join(out, 'sw.js'), worker);

// The lazily loaded chunks (chunks/) too.
for (const name of await readdir(out, { recursive: true })) {
  if (!/\.(html|js|css|map|txt)$/.test(name)) continue;
  const body = await readFile(join(out, name));
  await writeFile(
    join(out, `${name}.br`),
    brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY } }),
  );
  await writeFile(join(out, `${name}.gz`), gzipSync(body, { level: 9 }));
}
console.log(`built dist/apps/dashboard (${script}, ${styles}, sw.js release ${release})`);
