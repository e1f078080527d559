import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { extname, join, normalize } from 'node:path';

/** A built file whose name carries its content's hash (`chunks/chunk-3FQ2K7ZB.js`): its content never changes. */
const HASHED = /-[A-Z0-9]{8}\.(js|css)$/;
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

const NOT_BUILT = 'The dashboard is not built: run `npx nx build dashboard` (npm start does).';

/**
 * The CSP source allowing index.html's inline module script ('sha256-…' of its text: apps/dashboard/build.mjs puts
 * the entry script inline, one round trip less on a slow network), read again whenever the file changes (a rebuild in
 * `npm run dev`); undefined when the page has no inline script.
 */
function inlineScriptSource(dir: string): () => string | undefined {
  let seen: { mtimeMs: number; size: number; source: string | undefined } | undefined;
  return () => {
    const file = join(dir, 'index.html');
    const { mtimeMs, size } = statSync(file);
    if (seen?.mtimeMs !== mtimeMs || seen.size !== size) {
      const text = /<script type="module">([\s\S]*?)<\/script>/.exec(readFileSync(file, 'utf8'))?.[1];
      const source =
        text === undefined ? undefined : `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
      seen = { mtimeMs, size, source };
    }
    return seen.source;
  };
}

/** The file a dashboard URL names (index.html for a folder), or undefined when it would leave the folder. */
function fileOf(request: FastifyRequest, dir: string): string | undefined {
  const wanted = (request.params as { '*'?: string })['*'] ?? '';
  const file = wanted === '' || wanted.endsWith('/') ? `${wanted}index.html` : wanted;
  return normalize(join(dir, file)).startsWith(dir) ? file : undefined;
}

/**
 * The assembly dashboard under `base` (@fastify/static, as express.static served it before), plus:
 * - the build's pre-compressed twin (`.br`, else `.gz`) when the browser accepts that encoding, so nothing is
 *   compressed per request (`Vary: Accept-Encoding` for caches);
 * - a year's `immutable` caching for hashed names (a release brings new names), while index.html, which names them,
 *   is revalidated on every load (ETag), so a new release is picked up at once.
 * `base` itself answers 301 to `base/`; without a build (`dir` undefined), every URL under it says how to make one.
 */
export async function serveDashboard(instance: FastifyInstance, base: string, dir: string | undefined): Promise<void> {
  await instance.register(async (scope) => {
    const toFolder = (request: FastifyRequest, reply: FastifyReply) =>
      request.url === base ? reply.redirect(`${base}/`, 301) : undefined;
    if (!dir) {
      const notBuilt = (request: FastifyRequest, reply: FastifyReply) =>
        toFolder(request, reply) ?? reply.code(404).type('text/plain; charset=utf-8').send(NOT_BUILT);
      scope.all(base, notBuilt);
      scope.all(`${base}/*`, notBuilt);
      return;
    }
    await scope.register(fastifyStatic, { root: dir, serve: false, preCompressed: true, cacheControl: false });
    const send = (request: FastifyRequest, reply: FastifyReply) => {
      const redirected = toFolder(request, reply);
      if (redirected) return redirected;
      const file = fileOf(request, dir);
      return file === undefined ? reply.callNotFound() : reply.sendFile(file);
    };
    scope.get(base, send);
    scope.get(`${base}/*`, send);
    const inlineScript = inlineScriptSource(dir);
    // The type by the original file's extension (the twin's would be .br), and the caching of each file.
    scope.addHook('onSend', (request, reply, payload, done) => {
      const served = reply.statusCode < 300 || reply.statusCode === 304;
      const file = served ? fileOf(request, dir) : undefined;
      const type = file && TYPES[extname(file)];
      if (file) reply.header('Cache-Control', HASHED.test(file) ? 'public, max-age=31536000, immutable' : 'no-cache');
      if (type) reply.header('Content-Type', type).header('Vary', 'Accept-Encoding');
      // index.html's own script, allowed by its hash (script-src stays 'self' for everything else).
      const policy = reply.getHeader('content-security-policy');
      const source = file === 'index.html' || file?.endsWith('/index.html') ? inlineScript() : undefined;
      if (source && typeof policy === 'string')
        reply.header(
          'content-security-policy',
          policy.replace(/script-src 'self'(?=;|$)/, `script-src 'self' ${source}`),
        );
      done(null, payload);
    });
  });
}
