import { resolve } from 'node:path';

/** Every setting the service reads, with its default. The README's configuration table mirrors this file. */
export interface AppConfig {
  host: string;
  port: number;
  /** Unset: the embedded database in `dataDir`. */
  databaseUrl?: string;
  dataDir: string;
  databasePoolSize: number;
  migrateOnStart: boolean;
  seedDemo: boolean;
  adminApiKey?: string;
  healthTimeoutMs: number;
  /** IANA zone in which date-only query values are read. */
  timeZone: string;
  /** Path prefix of the payment routes (the interface's {pay_url}); '' serves them beside the others. */
  paymentBasePath: string;
  /** How the provider reaches this service: the base of the callback URLs (default http://HOST:PORT). */
  publicBaseUrl: string;
  /** Development mode lets merchants' callBackUrl point at loopback and private addresses (local receivers). */
  development: boolean;
  /** Hosts accepted as callBackUrl even when private (e.g. a test receiver). */
  callbackUrlAllowlist: ReadonlySet<string>;
  /** Folder holding package.json, prisma.config.ts and prisma/ (the Prisma CLI runs from there). */
  appRoot: string;
}

export class ConfigError extends Error {}

function bool(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (/^(1|true|yes|on)$/i.test(raw)) return true;
  if (/^(0|false|no|off)$/i.test(raw)) return false;
  throw new ConfigError(`${name} must be true or false, got "${raw}"`);
}

function int(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
  }
  return value;
}

function zone(value: string): string {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return value;
  } catch {
    throw new ConfigError(`TZ_DEFAULT must be an IANA time zone such as Africa/Accra, got "${value}"`);
  }
}

function basePath(value: string): string {
  const trimmed = value.replace(/\/+$/, '');
  if (trimmed !== '' && !/^(\/[A-Za-z0-9._-]+)+$/.test(trimmed)) throw new ConfigError(`PAYMENT_BASE_PATH must look like /pay, got "${value}"`);
  return trimmed;
}

function publicUrl(value: string | undefined, host: string, port: string): string {
  const url = (value || `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`).replace(/\/+$/, '');
  if (!/^https?:\/\/[^\s/]+(\/[^\s]*)?$/.test(url)) throw new ConfigError(`PUBLIC_BASE_URL must be an http(s) URL, got "${value}"`);
  return url;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const appRoot = resolve(env.APP_ROOT ?? process.cwd());
  const databaseUrl = env.DATABASE_URL || undefined;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL must be a postgresql:// URL');
  }
  return {
    host: env.HOST || '127.0.0.1',
    port: int(env, 'PORT', 3000, 0, 65535),
    databaseUrl,
    dataDir: resolve(appRoot, env.DATA_DIR || '.data'),
    databasePoolSize: int(env, 'DATABASE_POOL_SIZE', 10, 1, 100),
    migrateOnStart: bool(env, 'MIGRATE_ON_START', true),
    seedDemo: bool(env, 'SEED_DEMO', false),
    adminApiKey: env.ADMIN_API_KEY || undefined,
    healthTimeoutMs: int(env, 'HEALTH_TIMEOUT_MS', 2000, 50, 60000),
    timeZone: zone(env.TZ_DEFAULT || 'Africa/Accra'),
    paymentBasePath: basePath(env.PAYMENT_BASE_PATH ?? ''),
    development: (env.NODE_ENV ?? '') === 'development',
    callbackUrlAllowlist: new Set((env.CALLBACK_URL_ALLOWLIST ?? '').split(',').map((h) => h.trim().toLowerCase()).filter(Boolean)),
    publicBaseUrl: publicUrl(env.PUBLIC_BASE_URL, env.HOST || '127.0.0.1', env.PORT || '3000'),
    appRoot,
  };
}
