import type pg from 'pg';
import { parseIntoClientConfig } from 'pg-connection-string';

/**
 * The Prisma CLI's pool fields from a connection URL, every parameter kept (`sslmode`, `sslrootcert`, `sslcert`,
 * `sslkey`, `options`, `application_name`, ...), as pg itself reads a URL (pg-connection-string), but as discrete
 * fields (prisma/cli-adapter.ts, point 3). Migrations then connect exactly as the app does: with TLS where the URL
 * asks for it.
 */
export function poolConfigFromUrl(url: string): pg.PoolConfig {
  const config = parseIntoClientConfig(url) as pg.PoolConfig;
  return { ...config, user: config.user || 'postgres', database: config.database || 'postgres' };
}
