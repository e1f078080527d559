// The benchmark's baseline: what these endpoints cost on this machine with nothing between the socket and PostgreSQL
// but `node:http` and `pg`. It authenticates keys the same way (one indexed lookup by SHA-256), runs one query per
// record kind an answer needs, and writes the same bytes as the API (the runner checks that before it measures), so
// the difference between the two is what the API's layers cost. Hand-written on purpose: it is the yardstick.
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import pg from 'pg';
import handlers from './raw-handlers.cjs';

const { ROUTES } = handlers;

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.POOL_SIZE ?? 10) });
/** JSON.stringify drops undefined members, as the API's responses do. */
const send = (res, status, body, headers = {}) => {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  res.end(text);
};

/** Keys found, kept for 5 s as the API keeps them by default (API_KEY_CACHE_SECONDS): the same SQL per request. */
const keys = new Map();
const KEEP_MS = 5000;

async function principal(req) {
  const raw = (req.headers.authorization ?? '').replace(/^Bearer\s+/i, '').trim();
  if (!raw) return undefined;
  const hash = createHash('sha256').update(raw, 'utf8').digest('hex');
  const kept = keys.get(hash);
  if (kept && kept.until > Date.now()) return kept.key;
  const { rows } = await pool.query(
    'SELECT role, "principalId", "revokedAt", "expiresAt" FROM api_keys WHERE "keyHash" = $1',
    [hash],
  );
  const key = rows[0];
  if (!key || key.revokedAt || (key.expiresAt && key.expiresAt <= new Date())) return undefined;
  keys.set(hash, { key, until: Date.now() + KEEP_MS });
  return key;
}

const server = createServer((req, res) => {
  const url = new URL(req.url, 'http://raw');
  if (url.pathname === '/health') return send(res, 200, { status: 'ok' });
  const route = ROUTES[url.pathname];
  if (!route) return send(res, 404, { code: 'NOT_FOUND' });
  (async () => {
    const who = route.role ? await principal(req) : undefined;
    if (route.role && (!who || who.role !== route.role)) return send(res, 401, { code: 'UNAUTHORIZED' });
    const { status, body, headers } = await route.handle(pool, url, who);
    send(res, status, body, headers);
  })().catch((error) => send(res, 500, { code: 'INTERNAL', detail: String(error) }));
});
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT ?? 3401), '127.0.0.1', () => {
  console.log(`raw baseline listening on ${server.address().port}`);
});
process.on('SIGTERM', () => server.close(() => pool.end().then(() => process.exit(0))));
