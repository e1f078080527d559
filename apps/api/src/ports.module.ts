import { Global, Module, type DynamicModule } from '@nestjs/common';
import { CryptoRandomSource, HmacSecretHasher, SystemClock } from '@transport/domain/node';
import { ObjectIdGenerator, type Clock } from '@transport/domain';
import type { AppConfig } from './config';
import { CallbackUrlPolicy } from './payments/callback-url-policy';
import { HttpPaymentProvider } from './payments/http-payment-provider';
import { HttpWebhookSender } from './payments/http-webhook-sender';
import { SimulatedPaymentProvider } from './payments/simulated-payment-provider';
import type { Database } from './persistence/database';
import { DatabaseModule } from './persistence/database.module';
import { PgBossJobQueue } from './persistence/pg-boss-job-queue';
import {
  PrismaApiKeyRegistry,
  PrismaAuditTrail,
  PrismaMerchantRegistry,
  PrismaPaymentMetrics,
} from './persistence/prisma-admin-stores';
import { ApiKeyStore } from './persistence/prisma-api-key.store';
import { PrismaPeopleDirectory } from './persistence/prisma-people.store';
import { PostgresRegistrySearch } from './persistence/postgres-registry-search';
import { PrismaPublicRegistry } from './persistence/prisma-public-registry';
import { PrismaAssemblyMerchants } from './persistence/prisma-assembly-merchants';
import { PrismaEnforcementStore } from './persistence/prisma-enforcement.store';
import { prismaStores, PrismaUnitOfWork } from './persistence/prisma-unit-of-work';
import { PrismaAuditLog } from './persistence/prisma-audit-log';
import { PrismaReminderStore } from './persistence/prisma-reminder.store';
import { PrismaStaleRegistrations } from './persistence/prisma-stale-registrations';
import { PrismaIdempotencyRecords } from './persistence/prisma-idempotency.store';
import { PostgresObjectStorage } from './persistence/postgres-object-storage';
import { S3ObjectStorage } from './persistence/s3-object-storage';
import { PrismaInspectionPhotos } from './persistence/prisma-inspection-photos';
import { PrismaFraudFlags } from './persistence/prisma-fraud-flags';
import { PrismaNoticePhotos, PrismaOfficerRecords } from './persistence/prisma-officer-records';
import type { MessageSender, ObjectStorage, RateLimitRule, TextingPolicy } from './core/ports';
import { PostgresRateLimits } from './persistence/postgres-rate-limits';
import { OutboxMessageSender } from './persistence/outbox-message-sender';
import { HubtelSmsSender } from './core/platform/hubtel-sms-sender';
import { GuardedMessageSender } from './core/platform/guarded-message-sender';
import { MeteredEventLog } from './core/observability/event-log';
import { Metrics, type DatabaseProbes } from './core/observability/metrics';
import { withTimeout } from './core/platform/with-timeout';
import { randomToken } from './core/platform/secrets';
import { Ed25519CertificateSigner } from './core/platform/certificate-signer';
import { newCertificateKey } from './core/platform/server-secrets';
import {
  API_KEY_AUTHENTICATOR,
  API_KEYS,
  APP_CONFIG,
  AUDIT_TRAIL,
  CALLBACK_URL_CHECK,
  CERTIFICATE_SIGNER,
  CLOCK,
  DATABASE_HEALTH,
  EVENT_LOG,
  ID_GENERATOR,
  JOB_WORKERS,
  MERCHANTS,
  PAYMENT_PROVIDER,
  PEOPLE,
  REMINDERS,
  RANDOM_SOURCE,
  MESSAGE_SENDER,
  RATE_LIMITS,
  IDEMPOTENCY_RECORDS,
  INSPECTION_PHOTOS,
  FRAUD_FLAGS,
  NOTICE_PHOTOS,
  OFFICER_RECORDS,
  OBJECT_STORAGE,
  REGISTRY_SEARCH,
  PUBLIC_REGISTRY,
  ENFORCEMENT_STORE,
  ASSEMBLY_MERCHANTS,
  SECRET_HASHER,
  STALE_REGISTRATIONS,
  STORES,
  TEXTING_POLICY,
  UNIT_OF_WORK,
  WEBHOOK_SENDER,
} from './core/tokens';

/** Every shared rate limit, by name, from the configuration. */
export function rateLimitRules(config: AppConfig): Record<string, RateLimitRule> {
  return {
    'requests-per-key': {
      points: config.rateLimit.perKeyPerMinute,
      seconds: 60,
      message: 'Too many requests with this API key',
    },
    'requests-per-address': {
      points: config.rateLimit.perAddressPerMinute,
      seconds: 60,
      message: 'Too many requests from this address',
    },
    // A notice's payment prompts (issue 47): the public page is open to whoever has its link, and every prompt costs
    // money and rings a phone; at most one is open per notice at a time besides (docs/enforcement.md).
    'notice-pay-notice': { points: 3, seconds: 3600, message: 'Too many payment prompts for this notice' },
    'notice-pay-phone': { points: 3, seconds: 3600, message: 'Too many payment prompts to this phone number' },
    'notice-pay-address': { points: 30, seconds: 3600, message: 'Too many payment prompts from this address' },
    'payment-merchant': {
      points: config.payments.perMerchantPerMinute,
      seconds: 60,
      message: 'Too many payment requests for this merchant',
    },
    'activation-driver': {
      points: config.activation.perDriver,
      seconds: 15 * 60,
      message: 'Too many activation attempts for this driver from this address',
    },
    'registration-address': {
      points: config.activation.registrationsPerAddress,
      seconds: 3600,
      message: 'Too many driver registrations from this address',
    },
    'registration-phone': {
      points: config.activation.registrationsPerPhone,
      seconds: 24 * 3600,
      message: 'Too many driver registrations for this phone number',
    },
    'activation-address': {
      points: config.activation.perAddress,
      seconds: 15 * 60,
      message: 'Too many activation attempts from this address',
    },
    'sign-in-account': {
      points: config.people.signInPerAccount,
      seconds: 15 * 60,
      message: 'Too many failed sign-ins for this account from this address',
    },
    'sign-in-account-all-addresses': {
      points: config.people.signInPerAccountAllAddresses,
      seconds: 15 * 60,
      message: 'Too many sign-ins for this account from addresses it has not signed in from',
    },
    'sign-in-address': {
      points: config.people.signInPerAddress,
      seconds: 15 * 60,
      message: 'Too many sign-in attempts from this address',
    },
    'password-link': {
      points: 5,
      seconds: 60 * 60,
      message: 'Too many password links asked for this account',
    },
    // The account's own person (a session of theirs, or an address they signed in from): a budget strangers never use.
    'password-link-proven': {
      points: 5,
      seconds: 60 * 60,
      message: 'Too many password links asked for your account',
    },
    'callback-stray-address': {
      points: config.payments.strayCallbacksPerAddressPerHour,
      seconds: 3600,
      message: 'Too many callbacks to unknown or expired callback URLs from this address',
    },
    'notice-contest-address': {
      points: 20,
      seconds: 3600,
      message: 'Too many contests from this address',
    },
    'certificate-check-address': {
      points: config.certificates.checksPerAddressPerMinute,
      seconds: 60,
      message: 'Too many certificate checks from this address',
    },
    'ussd-phone': {
      points: config.hubtel.ussdStepsPerPhonePerHour,
      seconds: 3600,
      message: 'Too many USSD steps from this phone number',
    },
    'sms-reply-phone': {
      points: config.hubtel.smsRepliesPerPhonePerHour,
      seconds: 3600,
      message: 'Too many SMS replies to this phone number',
    },
    'vehicle-report-phone': {
      points: config.hubtel.reportsPerPhonePerDay,
      seconds: 24 * 3600,
      message: 'Too many vehicle reports from this phone number',
    },
    'sms-budget': {
      points: config.messaging.perHour,
      seconds: 3600,
      message: 'The hourly budget of text messages is used up',
    },
    'activation-sms-phone': {
      points: 1,
      seconds: config.messaging.activationWindowMinutes * 60,
      message: 'An activation key was sent to this phone number a short while ago',
    },
    'payment-phone': {
      points: config.payments.perPhonePerHour,
      seconds: 3600,
      message: 'Too many payment prompts from this merchant to this customer phone',
    },
  };
}

/** What the database gauges ask, each bounded by HEALTH_TIMEOUT_MS. */
function databaseProbes(database: Database, timeoutMs: number): DatabaseProbes {
  const bounded = <T>(work: () => Promise<T>) => withTimeout(work(), timeoutMs);
  return {
    primary: () => bounded(() => database.ping()),
    ...(database.replicaLagSeconds && {
      replicaLagSeconds: () => bounded(() => (database.replicaLagSeconds as () => Promise<number>).call(database)),
    }),
  };
}

/** Adapters a test puts in place of the real ones (a clock it moves). */
export interface PortOverrides {
  clock?: Clock;
  /** Text messages (a sender that records them, or fails like a gateway that is down). */
  messages?: MessageSender;
  /** Where files go (a test's S3 store). */
  objects?: ObjectStorage;
}

/** The object store OBJECT_STORAGE names: the database's own table, or an S3-compatible store. */
function objectStorageOf(config: AppConfig, database: Database, now: () => Date): ObjectStorage {
  const storage = config.objectStorage;
  return storage.kind === 's3' ? new S3ObjectStorage(storage) : new PostgresObjectStorage(database.prisma, now);
}

/** The adapters behind every port, bound once for all features: the only place that chooses technologies. */
@Global()
@Module({})
export class PortsModule {
  static register(config: AppConfig, database: Database, overrides: PortOverrides = {}): DynamicModule {
    const clock = overrides.clock ?? new SystemClock();
    const random = new CryptoRandomSource();
    const jobs = new PgBossJobQueue(database.pool, {
      pollSeconds: config.jobs.pollSeconds,
      workers: config.jobs.workers,
    });
    const provider = config.provider.url
      ? new HttpPaymentProvider({ ...config.provider, url: config.provider.url })
      : new SimulatedPaymentProvider();
    const metrics = new Metrics({
      payments: new PrismaPaymentMetrics(database.prisma),
      jobs,
      now: () => clock.now(),
      database: databaseProbes(database, config.healthTimeoutMs),
    });
    const callbackUrls = new CallbackUrlPolicy(config.development, config.callbackUrlAllowlist);
    const webhooks = new HttpWebhookSender({
      timeoutMs: config.jobs.notifyTimeoutMs,
      allowPrivate: config.development,
      allowlist: config.callbackUrlAllowlist,
    });
    const apiKeys = new ApiKeyStore(
      database.prisma,
      () => clock.now(),
      config.apiKeyCacheSeconds * 1000,
      database.keyChanges,
    );
    const limits = new PostgresRateLimits(database.pool, rateLimitRules(config));
    const events = new MeteredEventLog(metrics);
    const providers = [
      { provide: APP_CONFIG, useValue: config },
      { provide: CLOCK, useValue: clock },
      { provide: Metrics, useValue: metrics },
      { provide: EVENT_LOG, useValue: events },
      { provide: RANDOM_SOURCE, useValue: random },
      { provide: ID_GENERATOR, useValue: new ObjectIdGenerator(clock, random) },
      {
        provide: SECRET_HASHER,
        // createApp resolves the secrets first; only the OpenAPI preview (nothing hashed) builds this without one.
        useValue: new HmacSecretHasher(
          config.activation.secrets.length > 0 ? config.activation.secrets : [randomToken()],
        ),
      },
      {
        provide: CERTIFICATE_SIGNER,
        // createApp resolves the keys first; only the OpenAPI preview (nothing signed) builds this without one.
        useValue: new Ed25519CertificateSigner(
          config.certificates.signingKeys.length > 0 ? config.certificates.signingKeys : [newCertificateKey()],
        ),
      },
      {
        provide: UNIT_OF_WORK,
        useValue: new PrismaUnitOfWork(database.prisma, (db) => new PrismaAuditLog(db), jobs),
      },
      { provide: STORES, useValue: prismaStores(database.prisma, jobs, database.lists) },
      { provide: PAYMENT_PROVIDER, useValue: provider },
      { provide: JOB_WORKERS, useValue: jobs },
      { provide: WEBHOOK_SENDER, useValue: webhooks },
      { provide: CALLBACK_URL_CHECK, useValue: (url: string) => callbackUrls.check(url) },
      { provide: API_KEYS, useValue: new PrismaApiKeyRegistry(database.prisma, () => apiKeys.forgetAll()) },
      { provide: MERCHANTS, useValue: new PrismaMerchantRegistry(database.prisma) },
      { provide: AUDIT_TRAIL, useValue: new PrismaAuditTrail(database.prisma) },
      { provide: PEOPLE, useValue: new PrismaPeopleDirectory(database.prisma) },
      // A search reads where list pages do (the read replica, when there is one).
      { provide: REGISTRY_SEARCH, useValue: new PostgresRegistrySearch(database.lists) },
      { provide: PUBLIC_REGISTRY, useValue: new PrismaPublicRegistry(database.prisma) },
      { provide: ENFORCEMENT_STORE, useValue: new PrismaEnforcementStore(database.prisma) },
      { provide: ASSEMBLY_MERCHANTS, useValue: new PrismaAssemblyMerchants(database.prisma) },
      { provide: ApiKeyStore, useValue: apiKeys },
      { provide: API_KEY_AUTHENTICATOR, useValue: apiKeys },
      { provide: DATABASE_HEALTH, useValue: database },
      { provide: RATE_LIMITS, useValue: limits },
      {
        provide: TEXTING_POLICY,
        useValue: {
          countryCodes: config.messaging.countryCodes,
          quietHours: config.reminders.quietHours,
          timeZone: config.reminders.timeZone,
        } satisfies TextingPolicy,
      },
      {
        provide: MESSAGE_SENDER,
        // Guarded whatever sends (a test's sender too): who may be texted and the hourly budget hold for every message.
        useValue: new GuardedMessageSender(
          overrides.messages ??
            (config.sms
              ? new HubtelSmsSender(config.sms)
              : new OutboxMessageSender(database.prisma, () => clock.now())),
          limits,
          events,
          config.messaging.countryCodes,
          (parts) => metrics.countSmsParts(parts.encoding, parts.parts),
        ),
      },
      { provide: REMINDERS, useValue: new PrismaReminderStore(database.prisma, jobs) },
      { provide: STALE_REGISTRATIONS, useValue: new PrismaStaleRegistrations(database.prisma) },
      { provide: IDEMPOTENCY_RECORDS, useValue: new PrismaIdempotencyRecords(database.prisma) },
      { provide: OBJECT_STORAGE, useValue: overrides.objects ?? objectStorageOf(config, database, () => clock.now()) },
      { provide: INSPECTION_PHOTOS, useValue: new PrismaInspectionPhotos(database.prisma) },
      { provide: FRAUD_FLAGS, useValue: new PrismaFraudFlags(database.prisma) },
      { provide: NOTICE_PHOTOS, useValue: new PrismaNoticePhotos(database.prisma) },
      { provide: OFFICER_RECORDS, useValue: new PrismaOfficerRecords(database.prisma) },
    ];
    return {
      module: PortsModule,
      imports: [DatabaseModule.forDatabase(database)],
      providers,
      exports: [...providers.map((p) => p.provide), DatabaseModule],
    };
  }
}
