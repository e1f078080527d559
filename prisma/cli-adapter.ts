import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { poolConfigFromUrl } from '../apps/api/src/persistence/connection-config';

/**
 * The driver adapter the Prisma CLI runs its WebAssembly schema engine through, so that no native engine is ever
 * downloaded. The app itself uses a plain PrismaPg; these fixes are for what the schema engine does:
 *  1. it reads catalog columns of type `name` (OID 19) and `"char"` (OID 18), which adapter-pg 6.19 rejects: they are
 *     reported as text (OID 25), which is what their values are;
 *  2. `migrate dev` drops its shadow database while the shadow pool is still connected: the pool is closed first;
 *  3. the pool gets discrete connection fields, because the shadow pool is built as `{ ...config, database }` and a
 *     `connectionString` would silently point the "shadow" at the real database (every parameter of the URL is kept:
 *     TLS settings and `options` reach the migrations as they reach the app);
 *  4. one connection (the engine's advisory lock is per session) that lets the process exit when idle;
 *  5. adapter-pg runs a migration script by splitting it on every `;`, which breaks semicolons in comments, strings
 *     and function bodies (PL/pgSQL triggers). The script is sent whole instead: PostgreSQL's simple query protocol
 *     runs it as one implicit transaction, so a failing migration also leaves nothing half-applied.
 */
const TEXT_OID = 25;
const CATALOG_TEXT_OIDS = new Set([18, 19]);

type QueryResultLike = { fields?: Array<{ dataTypeID: number }> };

function reportCatalogTypesAsText(result: unknown): void {
  const results = Array.isArray(result) ? result : [result];
  for (const r of results as QueryResultLike[]) {
    for (const field of r?.fields ?? []) {
      if (CATALOG_TEXT_OIDS.has(field.dataTypeID)) field.dataTypeID = TEXT_OID;
    }
  }
}

class CatalogSafeClient extends pg.Client {
  // pg's query has many overloads (promise, callback, submittable); both result paths are covered here.
  override query(...args: unknown[]): never {
    const last = args[args.length - 1];
    if (typeof last === 'function') {
      const callback = last as (err: Error | null, res: unknown) => void;
      args[args.length - 1] = (err: Error | null, res: unknown) => {
        if (!err) reportCatalogTypesAsText(res);
        callback(err, res);
      };
      return (super.query as (...a: unknown[]) => never)(...args);
    }
    const out = (super.query as (...a: unknown[]) => unknown)(...args);
    if (out && typeof (out as Promise<unknown>).then === 'function') {
      return (out as Promise<unknown>).then((res) => {
        reportCatalogTypesAsText(res);
        return res;
      }) as never;
    }
    return out as never;
  }
}

type Adapter = Awaited<ReturnType<PrismaPg['connect']>>;

function runScriptsWhole(adapter: Adapter): Adapter {
  const driver = adapter.underlyingDriver() as pg.Pool;
  // onError converts a pg error into the adapter error the schema engine reports.
  const report = (adapter as unknown as { onError(error: unknown): never }).onError.bind(adapter);
  adapter.executeScript = async (script: string) => {
    try {
      await driver.query(script);
    } catch (error) {
      report(error);
    }
  };
  return adapter;
}

class CliPgAdapterFactory extends PrismaPg {
  constructor(private readonly poolConfig: pg.PoolConfig) {
    super(poolConfig);
  }

  override async connect() {
    return runScriptsWhole(await super.connect());
  }

  override async connectToShadowDb() {
    const main = await this.connect();
    const database = `prisma_migrate_shadow_db_${globalThis.crypto.randomUUID().replace(/-/g, '')}`;
    await main.executeScript(`CREATE DATABASE "${database}"`);
    const shadowPool = new pg.Pool({ ...this.poolConfig, database });
    const shadow = runScriptsWhole(await new PrismaPg(shadowPool).connect());
    const dispose = shadow.dispose.bind(shadow);
    shadow.dispose = async () => {
      await dispose();
      await shadowPool.end().catch(() => undefined);
      await main.executeScript(`DROP DATABASE IF EXISTS "${database}"`);
      await main.dispose();
    };
    return shadow;
  }
}

export function cliAdapterFactory(url: string): PrismaPg {
  return new CliPgAdapterFactory({
    ...poolConfigFromUrl(url),
    Client: CatalogSafeClient,
    max: 1,
    allowExitOnIdle: true,
  });
}

/**
 * The CLI's bundle arms long timers (10 s after the schema engine finishes, 60 s in `migrate dev`) that keep the
 * process alive long after the work is done. Timers of 10 s or more no longer hold the process open.
 */
export function unrefLongTimers(): void {
  const original = globalThis.setTimeout;
  const patched = ((handler: (...a: unknown[]) => void, ms?: number, ...rest: unknown[]) => {
    const timer = original(handler, ms, ...rest);
    if ((ms ?? 0) >= 10_000) timer.unref?.();
    return timer;
  }) as typeof setTimeout;
  globalThis.setTimeout = Object.assign(patched, original);
}
