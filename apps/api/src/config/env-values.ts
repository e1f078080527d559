import { createPrivateKey } from 'node:crypto';
import ipaddr from 'ipaddr.js';

// How each environment value is read: one parser a kind of value, each refusing (ConfigError, naming the variable) what
// it cannot read rather than guessing.

export class ConfigError extends Error {}

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Each origin exactly as a browser sends it (scheme, host, optional port; no path). */
export function origins(value: string | undefined): string[] {
  const list = (value ?? '')
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean);
  for (const origin of list) {
    if (!/^https?:\/\/[^\s/]+$/.test(origin))
      throw new ConfigError(`CORS_ORIGINS must list origins such as https://dashboard.example.com, got "${origin}"`);
  }
  return list;
}

export function bool(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (/^(1|true|yes|on)$/i.test(raw)) return true;
  if (/^(0|false|no|off)$/i.test(raw)) return false;
  throw new ConfigError(`${name} must be true or false, got "${raw}"`);
}

export function int(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
  }
  return value;
}

export function logLevel(value: string | undefined): LogLevel {
  const level = (value || 'info').toLowerCase();
  if (!(LOG_LEVELS as readonly string[]).includes(level))
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${value}"`);
  return level as LogLevel;
}

export function metricsPort(env: NodeJS.ProcessEnv): number | undefined {
  if ((env.METRICS_PORT ?? '').trim().toLowerCase() === 'off') return undefined;
  return int(env, 'METRICS_PORT', 9464, 0, 65535);
}

export function zone(value: string, name = 'TZ_DEFAULT'): string {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return value;
  } catch {
    throw new ConfigError(`${name} must be an IANA time zone such as Africa/Accra, got "${value}"`);
  }
}

/** REMINDER_DAYS: comma-separated whole days before expiry (0: the day it lapses), each 0..366, no repeats. */
export function reminderDays(value: string | undefined): number[] {
  const raw = (value ?? '').trim() || '30,7,1,0';
  const days = raw.split(',').map((d) => d.trim());
  if (days.some((d) => !/^\d{1,3}$/.test(d) || Number(d) > 366) || new Set(days.map(Number)).size !== days.length)
    throw new ConfigError(`REMINDER_DAYS must list distinct whole days from 0 to 366 such as 30,7,1,0, got "${raw}"`);
  return days.map(Number).sort((a, b) => b - a);
}

/** REMINDER_QUIET_HOURS: `FROM-UNTIL` in whole hours of the day (20-7: from 20:00 until 07:00); `none` for no quiet hours. */
export function quietHours(value: string | undefined): { fromHour: number; untilHour: number } {
  const raw = (value ?? '').trim() || '20-7';
  if (raw.toLowerCase() === 'none') return { fromHour: 0, untilHour: 0 };
  const match = /^(\d{1,2})-(\d{1,2})$/.exec(raw);
  if (!match || Number(match[1]) > 23 || Number(match[2]) > 23)
    throw new ConfigError(`REMINDER_QUIET_HOURS must be FROM-UNTIL in hours 0..23 (e.g. 20-7) or none, got "${raw}"`);
  return { fromHour: Number(match[1]), untilHour: Number(match[2]) };
}

/** Country calling codes (PHONE_COUNTRY_CODES, comma-separated digits without "+", e.g. 233 or 233,228). */
export function countryCodes(value: string | undefined): string[] {
  const codes = (value ?? '')
    .split(',')
    .map((c) => c.trim().replace(/^\+/, ''))
    .filter(Boolean);
  if (codes.length === 0) return ['233'];
  const bad = codes.find((c) => !/^[1-9]\d{0,2}$/.test(c));
  if (bad !== undefined)
    throw new ConfigError(`PHONE_COUNTRY_CODES must be country calling codes such as 233 or 233,228, got "${bad}"`);
  return [...new Set(codes)];
}

/** A five-field cron expression (pg-boss's schedules run at most once a minute). */
export function cron(env: NodeJS.ProcessEnv, name: string, fallback: string): string {
  const raw = (env[name] ?? '').trim() || fallback;
  if (!/^([0-9*/,-]+\s+){4}[0-9*/,-]+$/.test(raw))
    throw new ConfigError(`${name} must be a five-field cron expression such as */15 * * * *, got "${raw}"`);
  return raw;
}

export function basePath(value: string): string {
  const trimmed = value.replace(/\/+$/, '');
  if (trimmed !== '' && !/^(\/[A-Za-z0-9._-]+)+$/.test(trimmed))
    throw new ConfigError(`PAYMENT_BASE_PATH must look like /pay, got "${value}"`);
  return trimmed;
}

export function publicUrl(value: string | undefined, host: string, port: string): string {
  const url = (value || `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`).replace(/\/+$/, '');
  if (!/^https?:\/\/[^\s/]+(\/[^\s]*)?$/.test(url))
    throw new ConfigError(`PUBLIC_BASE_URL must be an http(s) URL, got "${value}"`);
  return url;
}

/** A comma-separated list of server secrets, each at least 32 characters (128 bits or more of randomness). */
export function serverSecrets(env: NodeJS.ProcessEnv, name: string): string[] {
  const list = (env[name] ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const secret of list) {
    if (secret.length < 32)
      throw new ConfigError(`${name}: each secret must be at least 32 characters (e.g. openssl rand -base64 32)`);
  }
  return list;
}

/** A comma-separated list of Ed25519 private keys, each the base64 of its PKCS#8 DER encoding. */
export function certificateKeys(env: NodeJS.ProcessEnv, name: string): string[] {
  const list = (env[name] ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  list.forEach((key, i) => {
    let type: string | undefined;
    try {
      type = createPrivateKey({ key: Buffer.from(key, 'base64'), format: 'der', type: 'pkcs8' }).asymmetricKeyType;
    } catch {
      type = undefined;
    }
    if (type !== 'ed25519')
      throw new ConfigError(
        `${name}: key ${i + 1} is not an Ed25519 private key in base64 PKCS#8 DER (make one with: openssl genpkey -algorithm ed25519 -outform DER | base64 -w0)`,
      );
  });
  return list;
}

/** TRUST_PROXY: unset/false, true, a hop count, or a comma-separated list of addresses or subnets. */
export function trustProxy(value: string | undefined): boolean | number | string {
  const v = (value ?? '').trim();
  if (v === '' || v === 'false') return false;
  if (v === 'true') return true;
  if (/^\d{1,2}$/.test(v)) return Number(v);
  return v;
}

export function num(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < min || value > max)
    throw new ConfigError(`${name} must be a number from ${min} to ${max}, got "${raw}"`);
  return value;
}

export function postgresUrl(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const raw = env[name] || undefined;
  if (raw && !/^postgres(ql)?:\/\//.test(raw)) throw new ConfigError(`${name} must be a postgresql:// URL`);
  return raw;
}

export function httpUrl(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const raw = env[name];
  if (!raw) return undefined;
  if (!/^https?:\/\/[^\s/]+(\/[^\s]*)?$/.test(raw))
    throw new ConfigError(`${name} must be an http(s) URL, got "${raw}"`);
  return raw.replace(/\/+$/, '');
}

/** A password callers must send (Basic authentication): unset, or at least 16 characters. */
export function inboundPassword(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[name];
  if (!value) return undefined;
  if (value.length < 16)
    throw new ConfigError(`${name}: must be at least 16 characters (e.g. openssl rand -base64 24)`);
  return value;
}

/** A comma-separated list of IP addresses or CIDR ranges (IPv4 or IPv6), each as its CIDR. */
export function addressRanges(env: NodeJS.ProcessEnv, name: string): string[] {
  return (env[name] ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((entry) => {
      try {
        if (entry.includes('/')) {
          const [address, bits] = ipaddr.parseCIDR(entry);
          return `${address.toString()}/${bits}`;
        }
        const address = ipaddr.parse(entry);
        return `${address.toString()}/${address.kind() === 'ipv4' ? 32 : 128}`;
      } catch {
        throw new ConfigError(`${name}: "${entry}" is not an IP address or a CIDR range (203.0.113.7, 203.0.113.0/24)`);
      }
    });
}
