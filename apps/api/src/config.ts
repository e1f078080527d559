import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import {
  basePath,
  bool,
  certificateKeys,
  ConfigError,
  countryCodes,
  cron,
  httpUrl,
  int,
  logLevel,
  metricsPort,
  num,
  origins,
  postgresUrl,
  publicUrl,
  quietHours,
  reminderDays,
  serverSecrets,
  trustProxy,
  zone,
  type LogLevel,
} from './config/env-values';
import { hubtelInbound, type HubtelInboundConfig } from './config/hubtel-inbound';
import { objectStorage, type ObjectStorageConfig } from './config/object-storage';
import { productionProblems } from './config/production-problems';

export { ConfigError, LOG_LEVELS, type LogLevel } from './config/env-values';
export type { HubtelInboundConfig } from './config/hubtel-inbound';
export type { ObjectStorageConfig } from './config/object-storage';

/** Every setting the service reads, with its default. The README's configuration table mirrors this file. */
export interface AppConfig {
  host: string;
  port: number;
  /** Unset: the embedded database in `dataDir`. */
  databaseUrl?: string;
  /**
   * The same database without a pooler in between (DATABASE_DIRECT_URL): migrations, their advisory lock and the
   * key-change LISTEN use it. Unset: DATABASE_URL.
   */
  databaseDirectUrl?: string;
  /** A read replica (DATABASE_READ_URL) serving list pages, searches and exports. Unset: DATABASE_URL. */
  databaseReadUrl?: string;
  dataDir: string;
  /**
   * How long a state change's Idempotency-Key answers its replays (IDEMPOTENCY_KEY_HOURS): a phone re-sending a queued
   * inspection within it gets the original answer; after it the key is purged and a request with it is a new one.
   */
  idempotencyKeyHours: number;
  /**
   * The oldest an inspection's madeAt may be when it arrives (INSPECTION_MADE_MAX_AGE_HOURS): one kept on a phone
   * longer is refused (INSPECTION_MADE_TOO_LONG_AGO) and must be made again.
   */
  inspectionMadeMaxAgeHours: number;
  /** Where photos go: PostgreSQL (the default) or an S3-compatible store (OBJECT_STORAGE, S3_*; docs/storage.md). */
  objectStorage: ObjectStorageConfig;
  databasePoolSize: number;
  migrateOnStart: boolean;
  seedDemo: boolean;
  adminApiKey?: string;
  healthTimeoutMs: number;
  /** On SIGTERM: how long readiness reports 503 while requests are still served, before the server closes. */
  shutdownDelayMs: number;
  /** IANA zone in which date-only query values are read. */
  timeZone: string;
  /** Path prefix of the payment routes (the interface's {pay_url}); '' serves them beside the others. */
  paymentBasePath: string;
  /** How the provider reaches this service: the base of the callback URLs (default http://HOST:PORT). */
  publicBaseUrl: string;
  /** Development mode lets merchants' callBackUrl point at loopback and private addresses (local receivers). */
  development: boolean;
  /** NODE_ENV=production: the start refuses settings that only make sense on a developer's machine. */
  production: boolean;
  /** Browser origins allowed to call the API (CORS_ORIGINS, comma-separated); empty: no CORS headers at all. */
  corsOrigins: readonly string[];
  /** Hosts accepted as callBackUrl even when private (e.g. a test receiver). */
  callbackUrlAllowlist: ReadonlySet<string>;
  /** Folder holding package.json, prisma.config.ts and prisma/ (the Prisma CLI runs from there). */
  appRoot: string;
  jobs: JobsConfig;
  provider: ProviderConfig;
  payments: PaymentPolicyConfig;
  /** Where text messages go: an SMS gateway, or (unset) the local outbox table. */
  sms?: { url: string; clientId: string; clientSecret: string; senderId: string; timeoutMs: number };
  /**
   * Express's `trust proxy`: how the client address is found behind load balancers (false: the socket's address;
   * a number: that many proxies; or a list of trusted addresses/subnets). Limits are keyed on this address.
   */
  trustProxy: boolean | number | string;
  activation: ActivationConfig;
  /** pino's level (LOG_LEVEL): fatal, error, warn, info, debug, trace or silent. */
  logLevel: LogLevel;
  /**
   * Which answers get an access-log line (core/observability/access-log.ts): ACCESS_LOG_READ_SAMPLE, the share of
   * successful reads answered faster than ACCESS_LOG_SLOW_MS that are logged (1: all); every other answer always is.
   */
  accessLog: { readSample: number; slowMs: number };
  /** The Prometheus scrape endpoint's own port (METRICS_PORT; undefined: off), on METRICS_HOST (default 127.0.0.1). */
  metrics: { port?: number; host: string };
  /** Node's HTTP server limits: a whole request, its headers, and an idle keep-alive connection. */
  http: { requestTimeoutMs: number; headersTimeoutMs: number; keepAliveTimeoutMs: number };
  /** How long a query waits for a pooled connection, and how long one statement may run (PostgreSQL only). */
  databaseTimeouts: { poolWaitMs: number; statementMs: number };
  /** The global limit, shared by every instance: requests per minute per API key, and per address without one (0: off). */
  rateLimit: { perKeyPerMinute: number; perAddressPerMinute: number };
  /**
   * How long an instance keeps a key it authenticated before reading it again (0: read on every request). A key
   * revoked on another instance, or moved with its user, is seen within this time.
   */
  apiKeyCacheSeconds: number;
  people: PeopleConfig;
  reminders: RemindersConfig;
  certificates: CertificateConfig;
  messaging: MessagingConfig;
  hubtel: HubtelInboundConfig;
}

/** Who may be texted, and how many texts may go out (docs/security.md, "SMS: what it costs and who may be texted"). */
export interface MessagingConfig {
  /** PHONE_COUNTRY_CODES: the country calling codes a phone number may have (anywhere we would text it). */
  countryCodes: readonly string[];
  /** SMS_BUDGET_PER_HOUR: outgoing SMS per hour across every instance; past it a message is not sent (alerted). */
  perHour: number;
  /** ACTIVATION_SMS_WINDOW_MINUTES: at most one activation key SMS to one number in this many minutes. */
  activationWindowMinutes: number;
  /** UNACTIVATED_DRIVER_DAYS: a registration not activated within this many days is deleted. */
  unactivatedDays: number;
  /** UNACTIVATED_PURGE_CRON: when the deletion of stale registrations runs (pg-boss cron, once across all instances). */
  purgeCron: string;
}

/** SMS reminders to owners and drivers before a roadworthy certificate, an insurance or a licence lapses. */
export interface RemindersConfig {
  /** REMINDERS_ENABLED: off, no reminder is claimed or sent (those already queued are cancelled when they run). */
  enabled: boolean;
  /** Days before expiry a reminder goes out (0: the day it lapses), largest first. */
  thresholds: readonly number[];
  /** No message from `fromHour`:00 until `untilHour`:00 on the zone's clock (held until then). */
  quietHours: { fromHour: number; untilHour: number };
  /** The IANA zone where days begin and quiet hours are read. */
  timeZone: string;
  /** How often the scan for due reminders runs (pg-boss cron, once across all instances). */
  scanCron: string;
  /** Retries of a message the gateway refused, and the first delay between them (doubling). */
  retries: number;
  retrySeconds: number;
}

/** Vehicle certificates: the keys their QR codes are signed with, and the public check at GET /v/{token}. */
export interface CertificateConfig {
  /**
   * Ed25519 private keys (CERTIFICATE_SIGNING_KEYS, comma-separated, each the base64 of a PKCS#8 DER key): the first
   * signs new certificates, every one verifies (and is published in the JWKS); a retired key is removed. Empty: one
   * made and kept in DATA_DIR (core/platform/certificate-signer.ts; refused in production).
   */
  signingKeys: readonly string[];
  /** Checks of certificates (GET /v/{token}) per client address per minute. */
  checksPerAddressPerMinute: number;
  /** How long browsers and shared caches may keep a check's answer (seconds). */
  checkCacheSeconds: number;
}

/** Drivers' activation keys, and the limits on anonymous registrations and on activation attempts. */
export interface ActivationConfig {
  /** How long a key works; the longest delay after wrong keys from one address. */
  keyHours: number;
  maxDelaySeconds: number;
  /** Activation tries per driver from one client address, and per client address for every driver, per 15 minutes. */
  perDriver: number;
  perAddress: number;
  /**
   * The server secrets activation keys are hashed with (ACTIVATION_KEY_SECRETS, comma-separated; the first makes new
   * hashes, all verify). Empty: one made and kept in DATA_DIR (core/platform/server-secrets.ts; refused in production).
   */
  secrets: readonly string[];
  /** Registrations without an API key per client address per hour, and per phone number per day. */
  registrationsPerAddress: number;
  registrationsPerPhone: number;
  /** Registrations without an API key one instance works on at once, and how many more wait (past that, 429). */
  registrationConcurrency: number;
  /** Registrations without an API key one instance admits a second, in bursts of one second's worth (past that, 429). */
  registrationRatePerSecond: number;
}

/** Assembly staff signing in to the dashboard as people (sessions in cookies). */
export interface PeopleConfig {
  /** A session ends after this long without a request (idle expiry). */
  sessionIdleMinutes: number;
  /** And after this long whatever the activity. */
  sessionMaxHours: number;
  /** An invitation link works this long; a reset link `resetMinutes`. */
  invitationHours: number;
  resetMinutes: number;
  /** Failed sign-ins per account and address, and all sign-in attempts per address, each per 15 minutes. */
  signInPerAccount: number;
  signInPerAddress: number;
  /**
   * Sign-in attempts per account from all addresses together, per 15 minutes, counted and enforced only for addresses
   * the account has not signed in from (so guesses spread over many addresses cannot lock its person out).
   */
  signInPerAccountAllAddresses: number;
  /** The session cookie's Secure attribute (COOKIE_SECURE; browsers treat http://localhost as secure). */
  cookieSecure: boolean;
}

/** What the payment pipeline allows and keeps (limits are shared by every instance through the database). */
export interface PaymentPolicyConfig {
  /** Payment requests per merchant per minute. */
  perMerchantPerMinute: number;
  /** Payment prompts by one merchant to one customer phone per hour (each merchant counts on its own). */
  perPhonePerHour: number;
  /** A callback token opens nothing this long after its transaction's final state. */
  tokenGraceHours: number;
  /** Callbacks kept per transaction; past it a token's callbacks are refused (429) and not stored. */
  maxCallbacksPerTransaction: number;
  /** Callbacks to unknown or expired tokens accepted from one client address per hour (each one is dead-lettered). */
  strayCallbacksPerAddressPerHour: number;
  /** Dead-lettered callbacks are deleted this many days after they arrived. */
  deadLetterRetentionDays: number;
  /** A merchant whose notifications have failed for this long is paused (resumed by an operator). */
  notifyPauseAfterHours: number;
  /** The backstop scan asks the provider about open transactions unchanged for this long. */
  backstopAfterMinutes: number;
  /** The provider's "Unpaid" is read as failed once a payment is this old (Hubtel: status checks after 5 minutes). */
  unpaidFinalAfterSeconds: number;
}

/** Background work (pg-boss queues in the same database). Seconds unless named otherwise. */
export interface JobsConfig {
  /** Whether this instance runs the workers; every instance can enqueue. */
  workers: boolean;
  pollSeconds: number;
  /** A pending transaction with no final callback is checked against the provider's status API after this long. */
  reconcileAfterSeconds: number;
  /** First delay between status checks of a transaction that stays pending; doubles up to reconcileMaxDelaySeconds. */
  reconcileRetrySeconds: number;
  reconcileMaxDelaySeconds: number;
  /** How long status checks go on before a transaction is left for an operator. */
  reconcileForHours: number;
  /** Status checks one instance runs at once. */
  reconcileConcurrency: number;
  /** First delay between merchant notification attempts; doubles up to notifyMaxDelaySeconds. */
  notifyRetrySeconds: number;
  notifyMaxDelaySeconds: number;
  /** Notifications are retried at least this long before they are marked failed. */
  notifyForHours: number;
  notifyTimeoutMs: number;
  notifyConcurrency: number;
  /** Deliveries running at once for one merchant, in each instance (one slow endpoint cannot hold them all). */
  notifyPerMerchant: number;
  /** A stored callback still unapplied after this long (its request died mid-way) is applied by the recovery sweep. */
  callbackSweepAfterSeconds: number;
}

/** The payment provider: unset url means the in-process stand-in (accepts every request, sends no callback). */
export interface ProviderConfig {
  /** Base URL of the provider's receive-money API, e.g. https://rmp.hubtel.com (or the simulator). */
  url?: string;
  /** Base URL of the provider's transaction status API (defaults to url). */
  statusUrl?: string;
  /** The merchant account (POS sales id) the service collects into. */
  account: string;
  clientId: string;
  clientSecret: string;
  timeoutMs: number;
  /** Retries of a provider call that failed before any answer (connection refused, reset, timed out). */
  retries: number;
  /** When set, provider callbacks must carry X-Provider-Signature: sha256=<HMAC-SHA256 of the raw body, hex>. */
  callbackSecret?: string;
}

/**
 * The configuration from the environment. With NODE_ENV=production it refuses, naming every problem at once, the
 * settings that are right on a developer's machine and wrong in production.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const config = readConfig(env);
  const problems = productionProblems(config);
  if (problems.length > 0) {
    throw new ConfigError(`Refusing to start with NODE_ENV=production:\n- ${problems.join('\n- ')}`);
  }
  return config;
}

/**
 * Where package.json, prisma.config and prisma/ are: APP_ROOT, else the runtime bundle's folder when the started
 * script sits in one (so `node /srv/transport/main.js` works from any folder), else the working directory.
 */
function appRootOf(env: NodeJS.ProcessEnv): string {
  if (env.APP_ROOT) return resolve(env.APP_ROOT);
  const script = process.argv[1] ? dirname(resolve(process.argv[1])) : undefined;
  if (script && existsSync(join(script, 'prisma', 'schema.prisma'))) return script;
  return process.cwd();
}

function readConfig(env: NodeJS.ProcessEnv): AppConfig {
  const appRoot = appRootOf(env);
  const databaseUrl = postgresUrl(env, 'DATABASE_URL');
  const databaseDirectUrl = postgresUrl(env, 'DATABASE_DIRECT_URL');
  const databaseReadUrl = postgresUrl(env, 'DATABASE_READ_URL');
  if (!databaseUrl && (databaseDirectUrl || databaseReadUrl))
    throw new ConfigError('DATABASE_DIRECT_URL and DATABASE_READ_URL need DATABASE_URL (they are other ways to it)');
  return {
    host: env.HOST || '127.0.0.1',
    port: int(env, 'PORT', 3000, 0, 65535),
    databaseUrl,
    databaseDirectUrl,
    databaseReadUrl,
    dataDir: resolve(appRoot, env.DATA_DIR || '.data'),
    databasePoolSize: int(env, 'DATABASE_POOL_SIZE', 10, 1, 100),
    idempotencyKeyHours: int(env, 'IDEMPOTENCY_KEY_HOURS', 168, 1, 2160),
    inspectionMadeMaxAgeHours: int(env, 'INSPECTION_MADE_MAX_AGE_HOURS', 72, 1, 720),
    objectStorage: objectStorage(env),
    migrateOnStart: bool(env, 'MIGRATE_ON_START', true),
    seedDemo: bool(env, 'SEED_DEMO', false),
    adminApiKey: env.ADMIN_API_KEY || undefined,
    healthTimeoutMs: int(env, 'HEALTH_TIMEOUT_MS', 2000, 50, 60000),
    shutdownDelayMs: int(env, 'SHUTDOWN_DELAY_MS', 5000, 0, 120_000),
    timeZone: zone(env.TZ_DEFAULT || 'Africa/Accra'),
    paymentBasePath: basePath(env.PAYMENT_BASE_PATH ?? ''),
    development: (env.NODE_ENV ?? '') === 'development',
    production: (env.NODE_ENV ?? '') === 'production',
    corsOrigins: origins(env.CORS_ORIGINS),
    callbackUrlAllowlist: new Set(
      (env.CALLBACK_URL_ALLOWLIST ?? '')
        .split(',')
        .map((h) => h.trim().toLowerCase())
        .filter(Boolean),
    ),
    publicBaseUrl: publicUrl(env.PUBLIC_BASE_URL, env.HOST || '127.0.0.1', env.PORT || '3000'),
    appRoot,
    jobs: {
      workers: bool(env, 'JOB_WORKERS', true),
      pollSeconds: num(env, 'JOB_POLL_SECONDS', 1, 0.5, 60),
      reconcileAfterSeconds: int(env, 'RECONCILE_AFTER_SECONDS', 300, 1, 86_400),
      reconcileRetrySeconds: int(env, 'RECONCILE_RETRY_SECONDS', 60, 1, 3600),
      reconcileMaxDelaySeconds: int(env, 'RECONCILE_MAX_DELAY_SECONDS', 3600, 1, 86_400),
      reconcileForHours: int(env, 'RECONCILE_FOR_HOURS', 72, 1, 720),
      reconcileConcurrency: int(env, 'RECONCILE_CONCURRENCY', 8, 1, 100),
      notifyRetrySeconds: int(env, 'NOTIFY_RETRY_SECONDS', 30, 1, 3600),
      notifyMaxDelaySeconds: int(env, 'NOTIFY_MAX_DELAY_SECONDS', 3600, 1, 86_400),
      notifyForHours: int(env, 'NOTIFY_FOR_HOURS', 24, 1, 720),
      notifyTimeoutMs: int(env, 'NOTIFY_TIMEOUT_MS', 10_000, 100, 120_000),
      notifyConcurrency: int(env, 'NOTIFY_CONCURRENCY', 8, 1, 100),
      notifyPerMerchant: int(env, 'NOTIFY_PER_MERCHANT', 2, 1, 100),
      callbackSweepAfterSeconds: int(env, 'CALLBACK_SWEEP_AFTER_SECONDS', 60, 1, 86_400),
    },
    provider: {
      url: httpUrl(env, 'PAYMENT_PROVIDER_URL'),
      statusUrl: httpUrl(env, 'PAYMENT_PROVIDER_STATUS_URL'),
      account: env.PAYMENT_PROVIDER_ACCOUNT || 'demo-account',
      clientId: env.PAYMENT_PROVIDER_CLIENT_ID || '',
      clientSecret: env.PAYMENT_PROVIDER_CLIENT_SECRET || '',
      timeoutMs: int(env, 'PAYMENT_PROVIDER_TIMEOUT_MS', 15_000, 100, 120_000),
      retries: int(env, 'PAYMENT_PROVIDER_RETRIES', 2, 0, 10),
      callbackSecret: env.PAYMENT_PROVIDER_CALLBACK_SECRET || undefined,
    },
    sms: httpUrl(env, 'SMS_GATEWAY_URL')
      ? {
          url: httpUrl(env, 'SMS_GATEWAY_URL') as string,
          clientId: env.SMS_CLIENT_ID || '',
          clientSecret: env.SMS_CLIENT_SECRET || '',
          senderId: env.SMS_SENDER_ID || 'Transport',
          timeoutMs: int(env, 'SMS_TIMEOUT_MS', 10_000, 100, 60_000),
        }
      : undefined,
    trustProxy: trustProxy(env.TRUST_PROXY),
    activation: {
      keyHours: int(env, 'ACTIVATION_KEY_HOURS', 24, 1, 720),
      maxDelaySeconds: int(env, 'ACTIVATION_MAX_DELAY_SECONDS', 900, 1, 86_400),
      perDriver: int(env, 'ACTIVATION_LIMIT_PER_DRIVER', 10, 1, 10_000),
      perAddress: int(env, 'ACTIVATION_LIMIT_PER_ADDRESS', 30, 1, 100_000),
      secrets: serverSecrets(env, 'ACTIVATION_KEY_SECRETS'),
      registrationsPerAddress: int(env, 'REGISTRATION_LIMIT_PER_ADDRESS', 20, 1, 100_000),
      registrationsPerPhone: int(env, 'REGISTRATION_LIMIT_PER_PHONE', 3, 1, 1000),
      registrationConcurrency: int(env, 'REGISTRATION_CONCURRENCY', 2, 1, 1000),
      registrationRatePerSecond: int(env, 'REGISTRATION_RATE_PER_SECOND', 5, 1, 100_000),
    },
    logLevel: logLevel(env.LOG_LEVEL),
    accessLog: {
      readSample: num(env, 'ACCESS_LOG_READ_SAMPLE', 1, 0, 1),
      slowMs: int(env, 'ACCESS_LOG_SLOW_MS', 1000, 0, 600_000),
    },
    // Loopback unless told: the scrape endpoint has no key, and HOST=0.0.0.0 (serving the API) must not publish it too.
    metrics: { port: metricsPort(env), host: env.METRICS_HOST || '127.0.0.1' },
    http: {
      requestTimeoutMs: int(env, 'HTTP_REQUEST_TIMEOUT_MS', 30_000, 1000, 600_000),
      headersTimeoutMs: int(env, 'HTTP_HEADERS_TIMEOUT_MS', 10_000, 1000, 120_000),
      keepAliveTimeoutMs: int(env, 'HTTP_KEEP_ALIVE_TIMEOUT_MS', 65_000, 1000, 600_000),
    },
    databaseTimeouts: {
      poolWaitMs: int(env, 'DATABASE_POOL_WAIT_MS', 5000, 100, 120_000),
      statementMs: int(env, 'DATABASE_STATEMENT_TIMEOUT_MS', 15_000, 100, 600_000),
    },
    apiKeyCacheSeconds: int(env, 'API_KEY_CACHE_SECONDS', 5, 0, 300),
    rateLimit: {
      perKeyPerMinute: int(env, 'RATE_LIMIT_PER_KEY_PER_MINUTE', 3000, 0, 10_000_000),
      perAddressPerMinute: int(env, 'RATE_LIMIT_PER_ADDRESS_PER_MINUTE', 600, 0, 10_000_000),
    },
    people: {
      sessionIdleMinutes: int(env, 'SESSION_IDLE_MINUTES', 30, 1, 24 * 60),
      sessionMaxHours: int(env, 'SESSION_MAX_HOURS', 12, 1, 24 * 30),
      invitationHours: int(env, 'INVITATION_HOURS', 72, 1, 24 * 30),
      resetMinutes: int(env, 'PASSWORD_RESET_MINUTES', 60, 5, 24 * 60),
      signInPerAccount: int(env, 'SIGN_IN_LIMIT_PER_ACCOUNT', 10, 1, 10_000),
      signInPerAddress: int(env, 'SIGN_IN_LIMIT_PER_ADDRESS', 50, 1, 100_000),
      signInPerAccountAllAddresses: int(env, 'SIGN_IN_LIMIT_PER_ACCOUNT_ALL_ADDRESSES', 30, 1, 100_000),
      cookieSecure: bool(env, 'COOKIE_SECURE', true),
    },
    reminders: {
      enabled: bool(env, 'REMINDERS_ENABLED', true),
      thresholds: reminderDays(env.REMINDER_DAYS),
      quietHours: quietHours(env.REMINDER_QUIET_HOURS),
      timeZone: zone(env.REMINDER_TIME_ZONE || 'Africa/Accra', 'REMINDER_TIME_ZONE'),
      scanCron: cron(env, 'REMINDER_SCAN_CRON', '*/15 * * * *'),
      retries: int(env, 'REMINDER_RETRIES', 3, 0, 20),
      retrySeconds: int(env, 'REMINDER_RETRY_SECONDS', 300, 1, 86_400),
    },
    messaging: {
      countryCodes: countryCodes(env.PHONE_COUNTRY_CODES),
      perHour: int(env, 'SMS_BUDGET_PER_HOUR', 500, 1, 1_000_000),
      activationWindowMinutes: int(env, 'ACTIVATION_SMS_WINDOW_MINUTES', 60, 1, 7 * 24 * 60),
      unactivatedDays: int(env, 'UNACTIVATED_DRIVER_DAYS', 7, 1, 365),
      purgeCron: cron(env, 'UNACTIVATED_PURGE_CRON', '23 * * * *'),
    },
    hubtel: hubtelInbound(env),
    certificates: {
      signingKeys: certificateKeys(env, 'CERTIFICATE_SIGNING_KEYS'),
      checksPerAddressPerMinute: int(env, 'CERTIFICATE_CHECKS_PER_ADDRESS_PER_MINUTE', 120, 1, 1_000_000),
      checkCacheSeconds: int(env, 'CERTIFICATE_CHECK_CACHE_SECONDS', 60, 0, 3600),
    },
    payments: {
      perMerchantPerMinute: int(env, 'PAYMENT_LIMIT_PER_MERCHANT_PER_MINUTE', 300, 1, 1_000_000),
      perPhonePerHour: int(env, 'PAYMENT_LIMIT_PER_PHONE_PER_HOUR', 10, 1, 1_000_000),
      tokenGraceHours: int(env, 'CALLBACK_TOKEN_GRACE_HOURS', 168, 1, 8760),
      maxCallbacksPerTransaction: int(env, 'CALLBACKS_PER_TRANSACTION', 20, 1, 1000),
      strayCallbacksPerAddressPerHour: int(env, 'STRAY_CALLBACK_LIMIT_PER_ADDRESS_PER_HOUR', 60, 1, 1_000_000),
      deadLetterRetentionDays: int(env, 'DEAD_LETTER_RETENTION_DAYS', 7, 1, 3650),
      notifyPauseAfterHours: int(env, 'NOTIFY_PAUSE_AFTER_HOURS', 12, 1, 720),
      backstopAfterMinutes: int(env, 'PAYMENT_BACKSTOP_AFTER_MINUTES', 30, 1, 10_080),
      unpaidFinalAfterSeconds: int(env, 'UNPAID_FINAL_AFTER_SECONDS', 900, 0, 86_400),
    },
  };
}
