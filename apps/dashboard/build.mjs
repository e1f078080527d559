// Builds the assembly dashboard into dist/apps/dashboard: index.html, carrying the stylesheet and one minified ES
// module (Preact and the generated API client compiled in) inline, and the chunks it loads, served by the API itself
// under /dashboard/.
//
// The chunks carry a hash of their content in their names (chunk-3FQ2K7ZB.js), so the service can let browsers keep
// them for a year (a new release has new names); index.html is revalidated on every load.
// Each text file is written pre-compressed beside itself (.br and .gz, at the highest levels): the service sends the
// smallest one the browser accepts, without compressing on every request.
// `npm run dev` (tools/dev.mjs) runs the same build in watch mode, uncompressed: index.html, the stylesheet and the
// service worker are watched with the sources, and every rebuild writes the whole folder again.
import { parse } from '@formatjs/icu-messageformat-parser';
import { build } from 'esbuild';
import { createRequire } from 'node:module';
import { createHash } from 'node:crypto';
import { mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, '..', '..', 'dist', 'apps', 'dashboard');
const html = join(here, 'src', 'index.html');
const stylesheet = join(here, 'src', 'styles.css');
const serviceWorker = join(here, 'src', 'offline', 'service-worker.js');

/** The esbuild options; `compress: false` leaves out the .br and .gz twins (the service then sends the plain file). */
export function builds({ compress = true } = {}) {
  return [
    {
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
      // Written by the release step below, which first empties the folder (no stale hashed files after a rebuild).
      write: false,
      // What main-<hash>.js imports at once, which index.html preloads (release step).
      metafile: true,
      plugins: [catalogues(), release(compress)],
    },
  ];
}

/**
 * The message catalogues (src/messages/<language>.json) as the page needs them: each message parsed into ICU
 * MessageFormat's syntax tree here, at build time, without the description and review state (they are for
 * translators). The page then formats with intl-messageformat's runtime alone: its parser (about 7 KB compressed)
 * stays out of the entry script, which carries English (docs/dashboard.md#languages).
 */
function catalogues() {
  const noParser = createRequire(import.meta.url).resolve('@formatjs/icu-messageformat-parser/no-parser.js');
  return {
    name: 'dashboard-catalogues',
    setup(esbuild) {
      esbuild.onResolve({ filter: /^@formatjs\/icu-messageformat-parser$/ }, () => ({ path: noParser }));
      esbuild.onLoad({ filter: /[\\/]src[\\/]messages[\\/][a-z]+\.json$/ }, async ({ path }) => {
        const entries = JSON.parse(await readFile(path, 'utf8'));
        // A plain text stays a string; any other message is its syntax tree (messages.ts reads both).
        const parsed = Object.fromEntries(
          Object.entries(entries).map(([key, entry]) => {
            const ast = parse(entry.message);
            const plain = ast.length === 0 || (ast.length === 1 && ast[0].type === 0);
            return [key, plain ? (ast[0]?.value ?? '') : ast];
          }),
        );
        return { contents: `export default ${JSON.stringify(parsed)};`, loader: 'js' };
      });
    },
  };
}

function release(compress) {
  return {
    name: 'dashboard-release',
    setup(esbuild) {
      // The files the release step reads are part of the build: a change to one rebuilds in watch mode.
      esbuild.onLoad({ filter: /[\\/]src[\\/]main\.tsx$/ }, async ({ path }) => ({
        contents: await readFile(path, 'utf8'),
        loader: 'tsx',
        watchFiles: [html, stylesheet, serviceWorker],
      }));
      esbuild.onEnd(async (result) => {
        if (result.errors.length === 0) await writeRelease(result.outputFiles, compress, result.metafile);
      });
    },
  };
}

/**
 * The chunks main-<hash>.js imports statically (esbuild's shared code): each is a request the browser would only
 * discover once the script arrived, a round trip in a chain (2 s on slow 3G), so index.html names them to preload.
 */
function staticImports(metafile) {
  const [main] = Object.entries(metafile.outputs).filter(([, output]) => output.entryPoint?.endsWith('main.tsx'));
  if (!main) throw new Error('esbuild gave no output for main.tsx');
  return main[1].imports
    .filter((i) => i.kind === 'import-statement' && !i.external)
    .map((i) => relative(out, join(process.cwd(), i.path)).split('\\').join('/'));
}

async function writeRelease(outputFiles, compress, metafile) {
  await rm(out, { recursive: true, force: true });
  for (const file of outputFiles) {
    await mkdir(dirname(file.path), { recursive: true });
    await writeFile(file.path, file.contents);
  }
  const script = outputFiles
    .map((file) => file.path.split(/[\\/]/).pop())
    .find((name) => /^main-[A-Z0-9]+\.js$/.test(name));
  if (!script) throw new Error('esbuild wrote no main-<hash>.js');

  // The stylesheet, named by its content's hash as esbuild names the script: eight of [A-Z0-9] (hex), which is what
  // the service recognises as hashed (base64url could give "-" or "_", and the file would lose its year of caching).
  const css = await readFile(stylesheet);
  const styles = `styles-${createHash('sha256').update(css).digest('hex').slice(0, 8).toUpperCase()}.css`;
  await writeFile(join(out, styles), css);

  // The stylesheet and the entry script go into index.html itself (issue 43, item 10): on slow 3G every request waits
  // about 2 s before its first byte, and a page that must fetch its script after itself is usable two of those waits
  // after the tap, one wait when the page carries it. The service allows the inline script by its hash
  // (core/http/dashboard-files.ts reads it from this file); the chunks it imports stay files of their own.
  const preloads = staticImports(metafile)
    .map((chunk) => `<link rel="modulepreload" href="${chunk}" />\n    `)
    .join('');
  const code = await readFile(join(out, script), 'utf8');
  const inline = (text, tag) => {
    // Text that would end the element early (or open a comment the parser treats specially) cannot go inline.
    if (new RegExp(`</${tag}|<!--`, 'i').test(text))
      throw new Error(`${tag} text holds </${tag} or <!--: cannot inline`);
    return text;
  };
  const page = (await readFile(html, 'utf8'))
    // Replacer functions: a replacement string would read `$'`, `$&`… in the minified code as patterns.
    .replace(
      '<link rel="stylesheet" href="styles.css" />',
      () => `<style>${inline(css.toString('utf8'), 'style')}</style>`,
    )
    .replace(
      '<script type="module" src="main.js"></script>',
      () => `${preloads}<script type="module">${inline(code, 'script')}</script>`,
    );
  if (!page.includes('<style>') || !page.includes('<script type="module">'))
    throw new Error('index.html no longer links styles.css and main.js');
  await writeFile(join(out, 'index.html'), page);
  // index.html carries them now: the separate copies would only be cached for nothing (the map stays, for devtools).
  await rm(join(out, script));
  await rm(join(out, styles));

  // The service worker (src/offline/service-worker.js) keeps this release's shell: index.html and every hashed file
  // (chunks included, so a scan works offline too), under a cache named by the list's hash. It is written before the
  // compression below, and its own name carries no hash: the service revalidates it on every load (no-cache), which
  // is how browsers find a new release.
  const shell = (await readdir(out, { recursive: true }))
    .filter((name) => /\.(js|css)$/.test(name))
    .map((name) => name.split('\\').join('/'))
    .sort();
  // index.html is part of the release too (it carries the script and the stylesheet): a change to either is a new sw.js.
  const release = createHash('sha256').update(shell.join('\n')).update(page).digest('base64url').slice(0, 12);
  const worker = (await readFile(serviceWorker, 'utf8'))
    .replace('/* SHELL */ []', JSON.stringify(shell))
    .replace("'RELEASE'", JSON.stringify(release));
  if (!worker.includes(release) || worker.includes('/* SHELL */'))
    throw new Error('service-worker.js lost its placeholders');
  await writeFile(join(out, 'sw.js'), worker);

  // The lazily loaded chunks (chunks/) too.
  if (compress) {
    for (const name of await readdir(out, { recursive: true })) {
      if (!/\.(html|js|css|map|txt)$/.test(name)) continue;
      const body = await readFile(join(out, name));
      await writeFile(
        join(out, `${name}.br`),
        brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY } }),
      );
      await writeFile(join(out, `${name}.gz`), gzipSync(body, { level: 9 }));
    }
  }
  console.log(`built dist/apps/dashboard (index.html with ${script} and ${styles} inline, sw.js release ${release})`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const result = await build(builds()[0]);
  if (result.errors.length > 0) process.exit(1);
}
