import { static as serveStatic, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { existsSync } from 'node:fs';
import { extname, join, normalize } from 'node:path';

/** A built file whose name carries its content's hash (`main-3FQ2K7ZB.js`): its content never changes. */
const HASHED = /-[A-Z0-9]{8}\.(js|css)$/;
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};
const ENCODINGS = [
  ['br', '.br'],
  ['gzip', '.gz'],
] as const;

/**
 * The dashboard's built files (apps/dashboard/build.mjs), as express.static serves them, plus two things it does not do:
 * - the build's pre-compressed twin (`.br`, else `.gz`) when the browser accepts that encoding, so nothing is
 *   compressed per request (`Vary: Accept-Encoding` for caches);
 * - a year's `immutable` caching for hashed names (a release brings new names), while index.html, which names them,
 *   is revalidated on every load (ETag), so a new release is picked up at once.
 */
export function dashboardFiles(dir: string): RequestHandler[] {
  const pick = (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const path = req.path.endsWith('/') ? `${req.path}index.html` : req.path;
    const file = normalize(join(dir, path));
    const type = TYPES[extname(file)];
    if (!file.startsWith(dir) || !type) return next();
    res.vary('Accept-Encoding');
    const encoding = ENCODINGS.find(([name, suffix]) => req.acceptsEncodings(name) && existsSync(`${file}${suffix}`));
    if (!encoding) return next();
    const [name, suffix] = encoding;
    res.setHeader('Content-Encoding', name);
    res.setHeader('Content-Type', type);
    req.url = `${path}${suffix}${req.url.slice(req.path.length)}`;
    next();
  };
  const files = serveStatic(dir, {
    index: 'index.html',
    redirect: false,
    maxAge: 0,
    setHeaders(res, file) {
      const plain = file.replace(/\.(br|gz)$/, '');
      // express.static names the type by the extension it sees (.br); the content is the original file's.
      if (plain !== file) res.setHeader('Content-Type', TYPES[extname(plain)] ?? 'application/octet-stream');
      res.setHeader('Cache-Control', HASHED.test(plain) ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  return [pick, files];
}
