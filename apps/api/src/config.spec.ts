import { generateKeyPairSync } from 'node:crypto';
import { ConfigError, loadConfig } from './config';

const production = {
  NODE_ENV: 'production',
  DATABASE_URL: 'postgresql://app@db.internal:5432/transport',
  PAYMENT_PROVIDER_URL: 'https://rmp.hubtel.com',
  PUBLIC_BASE_URL: 'https://api.transport.example.com',
  ACTIVATION_KEY_SECRETS: 'a-production-secret-of-forty-characters-0001',
  CERTIFICATE_SIGNING_KEYS: 'MC4CAQAwBQYDK2VwBCIEIGh9hVA79+roDUAQxEeygekMO+YR+MdWDeyjUO86C/B9',
  SMS_GATEWAY_URL: 'https://sms.hubtel.com/v1/messages/send',
};

const refusal = (env: NodeJS.ProcessEnv): string => {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('expected loadConfig to refuse');
};

describe('a production start', () => {
  it('starts with a real database, a real provider, an SMS gateway and an https public URL, and no demo data', () => {
    expect(loadConfig(production)).toMatchObject({ production: true, seedDemo: false });
  });

  it('refuses every setting that only makes sense on a developer machine, naming each at once', () => {
    const message = refusal({ NODE_ENV: 'production', SEED_DEMO: 'true' });
    expect(message).toMatch(/^Refusing to start with NODE_ENV=production/);
    for (const setting of [
      'DATABASE_URL is unset',
      'SEED_DEMO=true',
      'PAYMENT_PROVIDER_URL is unset',
      'PUBLIC_BASE_URL must be https',
      'ACTIVATION_KEY_SECRETS is unset',
      'SMS_GATEWAY_URL is unset',
      'CERTIFICATE_SIGNING_KEYS is unset',
    ])
      expect(message).toContain(setting);
  });

  it.each([
    [{ DATABASE_URL: '' }, 'DATABASE_URL'],
    [{ SEED_DEMO: 'true' }, 'SEED_DEMO'],
    [{ PAYMENT_PROVIDER_URL: '' }, 'PAYMENT_PROVIDER_URL'],
    [{ PUBLIC_BASE_URL: 'http://api.transport.example.com' }, 'PUBLIC_BASE_URL'],
    [{ ACTIVATION_KEY_SECRETS: '' }, 'ACTIVATION_KEY_SECRETS'],
    [{ CERTIFICATE_SIGNING_KEYS: '' }, 'CERTIFICATE_SIGNING_KEYS'],
    [{ TRUST_PROXY: 'true' }, 'TRUST_PROXY'],
    [{ SMS_GATEWAY_URL: '' }, 'SMS_GATEWAY_URL is unset'],
    [{ SMS_GATEWAY_URL: 'http://sms.internal:8080/send' }, 'SMS_GATEWAY_URL must be https'],
  ])('refuses %j alone, naming %s', (override, setting) => {
    const message = refusal({ ...production, ...override });
    expect(message.split('\n')).toHaveLength(2);
    expect(message.split('\n')[1]).toContain(setting);
  });

  it("refuses a provider that is not https (the local stack's simulator), naming it", () => {
    const message = refusal({ ...production, PAYMENT_PROVIDER_URL: 'http://simulator:3100' });
    expect(message.split('\n').slice(1)).toEqual([expect.stringContaining('PAYMENT_PROVIDER_URL must be https')]);
  });

  it('trusts X-Forwarded-For only from a counted number of proxies or from named addresses', () => {
    expect(loadConfig({ ...production, TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ ...production, TRUST_PROXY: '10.0.0.0/8' }).trustProxy).toBe('10.0.0.0/8');
    expect(refusal({ ...production, TRUST_PROXY: 'true' })).toContain(
      'TRUST_PROXY=true would let any client choose its address with X-Forwarded-For',
    );
  });

  it('leaves development and test starts as they are', () => {
    expect(loadConfig({}).production).toBe(false);
    expect(loadConfig({ NODE_ENV: 'development' }).production).toBe(false);
  });
});

describe('ACTIVATION_KEY_SECRETS', () => {
  it('reads a comma-separated list, first first, and refuses a secret shorter than 32 characters', () => {
    const [a, b] = ['a'.repeat(32), 'b'.repeat(40)];
    expect(loadConfig({ ACTIVATION_KEY_SECRETS: ` ${a} , ${b} ` }).activation.secrets).toEqual([a, b]);
    expect(loadConfig({}).activation.secrets).toEqual([]);
    expect(() => loadConfig({ ACTIVATION_KEY_SECRETS: `${a},short` })).toThrow(/at least 32 characters/);
  });
});

describe('Hubtel inbound requests (USSD, SMS)', () => {
  it('reads the Basic password and the allowed addresses, and refuses a short password or a bad address', () => {
    const config = loadConfig({
      HUBTEL_INBOUND_PASSWORD: 'p'.repeat(16),
      HUBTEL_INBOUND_ADDRESSES: ' 203.0.113.7 , 198.51.100.0/24,2001:db8::/32',
    }).hubtel;
    expect(config).toMatchObject({ username: 'hubtel', password: 'p'.repeat(16) });
    expect(config.allowedAddresses).toEqual(['203.0.113.7/32', '198.51.100.0/24', '2001:db8::/32']);
    expect(loadConfig({}).hubtel).toMatchObject({ password: undefined, allowedAddresses: [] });
    expect(() => loadConfig({ HUBTEL_INBOUND_PASSWORD: 'short' })).toThrow(/HUBTEL_INBOUND_PASSWORD.*16 characters/);
    expect(() => loadConfig({ HUBTEL_INBOUND_ADDRESSES: '203.0.113.7,hubtel.com' })).toThrow(/"hubtel.com" is not/);
  });
});

describe('CERTIFICATE_SIGNING_KEYS', () => {
  it('reads a comma-separated list of Ed25519 keys, first first, and refuses anything else naming the key', () => {
    const other = 'MC4CAQAwBQYDK2VwBCIEIEKu3mlDIC52HGvEOGAHvpJmuTX3Vv58Kq1egeZO1xUY';
    expect(
      loadConfig({ CERTIFICATE_SIGNING_KEYS: ` ${other} , ${production.CERTIFICATE_SIGNING_KEYS} ` }).certificates
        .signingKeys,
    ).toEqual([other, production.CERTIFICATE_SIGNING_KEYS]);
    expect(loadConfig({}).certificates.signingKeys).toEqual([]);
    expect(() => loadConfig({ CERTIFICATE_SIGNING_KEYS: `${other},bm90IGEga2V5` })).toThrow(
      /key 2 is not an Ed25519 private key/,
    );
    // An RSA key is a key, but not one the certificates are signed with.
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 })
      .privateKey.export({ format: 'der', type: 'pkcs8' })
      .toString('base64');
    expect(() => loadConfig({ CERTIFICATE_SIGNING_KEYS: rsa })).toThrow(/key 1 is not an Ed25519 private key/);
  });
});

describe('DATABASE_DIRECT_URL and DATABASE_READ_URL', () => {
  it('are other ways to the database of DATABASE_URL: postgresql:// URLs, and only beside it', () => {
    const urls = {
      DATABASE_URL: 'postgresql://app@pgbouncer:6432/transport',
      DATABASE_DIRECT_URL: 'postgresql://app@db:5432/transport',
      DATABASE_READ_URL: 'postgres://app@replica:5432/transport?sslmode=verify-full',
    };
    expect(loadConfig(urls)).toMatchObject({
      databaseUrl: urls.DATABASE_URL,
      databaseDirectUrl: urls.DATABASE_DIRECT_URL,
      databaseReadUrl: urls.DATABASE_READ_URL,
    });
    expect(() => loadConfig({ ...urls, DATABASE_READ_URL: 'mysql://replica/transport' })).toThrow(
      'DATABASE_READ_URL must be a postgresql:// URL',
    );
    expect(() => loadConfig({ DATABASE_DIRECT_URL: urls.DATABASE_DIRECT_URL })).toThrow(/need DATABASE_URL/);
  });
});

describe('CORS_ORIGINS', () => {
  it('lists origins exactly, and refuses anything that is not one', () => {
    expect(loadConfig({}).corsOrigins).toEqual([]);
    expect(loadConfig({ CORS_ORIGINS: 'https://a.example.com, http://localhost:5173' }).corsOrigins).toEqual([
      'https://a.example.com',
      'http://localhost:5173',
    ]);
    for (const bad of ['*', 'a.example.com', 'https://a.example.com/path'])
      expect(() => loadConfig({ CORS_ORIGINS: bad })).toThrow(ConfigError);
  });
});

describe('METRICS_HOST', () => {
  it('keeps the scrape endpoint on loopback unless told, even when the API serves other machines', () => {
    expect(loadConfig({}).metrics.host).toBe('127.0.0.1');
    expect(loadConfig({ HOST: '0.0.0.0' }).metrics.host).toBe('127.0.0.1');
    expect(loadConfig({ HOST: '0.0.0.0', METRICS_HOST: '0.0.0.0' }).metrics.host).toBe('0.0.0.0');
  });
});

describe('the reminder settings', () => {
  it('default to 30, 7, 1 and 0 days before expiry, quiet from 20:00 to 07:00 in Africa/Accra', () => {
    expect(loadConfig({}).reminders).toEqual({
      enabled: true,
      thresholds: [30, 7, 1, 0],
      quietHours: { fromHour: 20, untilHour: 7 },
      timeZone: 'Africa/Accra',
      scanCron: '*/15 * * * *',
      retries: 3,
      retrySeconds: 300,
    });
  });

  it('read days, quiet hours, zone and schedule, and refuse what they cannot mean', () => {
    const reminders = loadConfig({
      REMINDERS_ENABLED: 'false',
      REMINDER_DAYS: '1, 14,0',
      REMINDER_QUIET_HOURS: 'none',
      REMINDER_TIME_ZONE: 'Africa/Lagos',
      REMINDER_SCAN_CRON: '5 * * * *',
    }).reminders;
    expect(reminders).toMatchObject({
      enabled: false,
      thresholds: [14, 1, 0],
      quietHours: { fromHour: 0, untilHour: 0 },
      timeZone: 'Africa/Lagos',
      scanCron: '5 * * * *',
    });
    for (const [name, value] of [
      ['REMINDER_DAYS', '30,7,7'],
      ['REMINDER_DAYS', '-1'],
      ['REMINDER_DAYS', 'weekly'],
      ['REMINDER_QUIET_HOURS', '20:00-07:00'],
      ['REMINDER_QUIET_HOURS', '24-7'],
      ['REMINDER_TIME_ZONE', 'Mars/Olympus'],
      ['REMINDER_SCAN_CRON', 'every minute'],
    ])
      expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(name));
  });
});

describe('SMS settings', () => {
  it('default to Ghana, 500 SMS an hour, one activation key per number an hour, registrations kept 7 days', () => {
    expect(loadConfig({}).messaging).toEqual({
      countryCodes: ['233'],
      perHour: 500,
      activationWindowMinutes: 60,
      unactivatedDays: 7,
      purgeCron: '23 * * * *',
    });
  });

  it('read the country calling codes with or without "+", and refuse what is not one', () => {
    expect(loadConfig({ PHONE_COUNTRY_CODES: '233, +228,233' }).messaging.countryCodes).toEqual(['233', '228']);
    for (const [name, value] of [
      ['PHONE_COUNTRY_CODES', 'GH'],
      ['PHONE_COUNTRY_CODES', '0233'],
      ['PHONE_COUNTRY_CODES', '2331'],
      ['SMS_BUDGET_PER_HOUR', '0'],
      ['ACTIVATION_SMS_WINDOW_MINUTES', 'hourly'],
      ['UNACTIVATED_DRIVER_DAYS', '0'],
      ['UNACTIVATED_PURGE_CRON', 'hourly'],
    ])
      expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(name));
  });
});

describe('IDEMPOTENCY_KEY_HOURS', () => {
  it('keeps idempotency keys a week by default, reads 1 to 2160 hours, and refuses anything else', () => {
    expect(loadConfig({}).idempotencyKeyHours).toBe(168);
    expect(loadConfig({ IDEMPOTENCY_KEY_HOURS: '24' }).idempotencyKeyHours).toBe(24);
    for (const bad of ['0', '2161', '1.5', 'week'])
      expect(() => loadConfig({ IDEMPOTENCY_KEY_HOURS: bad })).toThrow(/IDEMPOTENCY_KEY_HOURS must be an integer/);
  });
});

describe('INSPECTION_MADE_MAX_AGE_HOURS', () => {
  it('accepts inspections made up to 72 hours before they arrive by default, reads 1 to 720, and refuses anything else', () => {
    expect(loadConfig({}).inspectionMadeMaxAgeHours).toBe(72);
    expect(loadConfig({ INSPECTION_MADE_MAX_AGE_HOURS: '12' }).inspectionMadeMaxAgeHours).toBe(12);
    for (const bad of ['0', '721', 'soon'])
      expect(() => loadConfig({ INSPECTION_MADE_MAX_AGE_HOURS: bad })).toThrow(
        /INSPECTION_MADE_MAX_AGE_HOURS must be an integer/,
      );
  });
});

describe('the sign-in limits', () => {
  it('count attempts per account across the addresses it never signed in from, 30 per 15 minutes unless told', () => {
    expect(loadConfig({}).people.signInPerAccountAllAddresses).toBe(30);
    expect(loadConfig({ SIGN_IN_LIMIT_PER_ACCOUNT_ALL_ADDRESSES: '200' }).people.signInPerAccountAllAddresses).toBe(
      200,
    );
    expect(() => loadConfig({ SIGN_IN_LIMIT_PER_ACCOUNT_ALL_ADDRESSES: '0' })).toThrow(
      /SIGN_IN_LIMIT_PER_ACCOUNT_ALL_ADDRESSES/,
    );
  });
});

describe('the access log settings', () => {
  it('log every answer by default, slow past 1 s, and read a sample share from 0 to 1 and a threshold in ms', () => {
    expect(loadConfig({}).accessLog).toEqual({ readSample: 1, slowMs: 1000 });
    expect(loadConfig({ ACCESS_LOG_READ_SAMPLE: '0.05', ACCESS_LOG_SLOW_MS: '250' }).accessLog).toEqual({
      readSample: 0.05,
      slowMs: 250,
    });
    expect(loadConfig({ ACCESS_LOG_READ_SAMPLE: '0' }).accessLog.readSample).toBe(0);
  });

  it('refuse a share outside 0 to 1 or a threshold that is not whole milliseconds, naming the setting', () => {
    for (const bad of ['1.5', '-0.1', '10%', 'half'])
      expect(refusal({ ACCESS_LOG_READ_SAMPLE: bad })).toMatch(/ACCESS_LOG_READ_SAMPLE must be a number from 0 to 1/);
    for (const bad of ['-1', '0.5', '600001', 'fast'])
      expect(refusal({ ACCESS_LOG_SLOW_MS: bad })).toMatch(/ACCESS_LOG_SLOW_MS must be an integer from 0 to 600000/);
  });
});

describe('object storage settings (OBJECT_STORAGE, S3_*)', () => {
  const s3 = { OBJECT_STORAGE: 's3', S3_BUCKET: 'transport-photos' };

  it('keep photos in PostgreSQL by default, with nothing else to set', () => {
    expect(loadConfig({}).objectStorage).toEqual({ kind: 'postgresql', urlSeconds: 300 });
  });

  it('read an S3-compatible store: endpoint, bucket, region, credentials, path-style, prefix, URL lifetime', () => {
    expect(
      loadConfig({
        ...s3,
        S3_ENDPOINT: 'https://minio.internal:9000/',
        S3_REGION: 'auto',
        S3_ACCESS_KEY_ID: 'key-id',
        S3_SECRET_ACCESS_KEY: 'secret',
        S3_FORCE_PATH_STYLE: 'true',
        S3_PREFIX: 'accra/',
        S3_URL_SECONDS: '60',
      }).objectStorage,
    ).toEqual({
      kind: 's3',
      urlSeconds: 60,
      endpoint: 'https://minio.internal:9000',
      bucket: 'transport-photos',
      region: 'auto',
      credentials: { accessKeyId: 'key-id', secretAccessKey: 'secret' },
      forcePathStyle: true,
      prefix: 'accra/',
    });
    expect(loadConfig(s3).objectStorage).toEqual({
      kind: 's3',
      urlSeconds: 300,
      endpoint: undefined,
      bucket: 'transport-photos',
      region: 'us-east-1',
      credentials: undefined,
      forcePathStyle: false,
      prefix: '',
    });
  });

  it.each([
    [{ OBJECT_STORAGE: 'disk' }, 'OBJECT_STORAGE must be postgresql or s3'],
    [{ OBJECT_STORAGE: 's3' }, 'S3_BUCKET must be an S3 bucket name'],
    [{ ...s3, S3_BUCKET: 'Photos_Bucket' }, 'S3_BUCKET must be an S3 bucket name'],
    [{ ...s3, S3_BUCKET: 'p' }, 'S3_BUCKET must be an S3 bucket name'],
    [{ ...s3, S3_ACCESS_KEY_ID: 'key-id' }, 'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together'],
    [{ ...s3, S3_SECRET_ACCESS_KEY: 'secret' }, 'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together'],
    [{ ...s3, S3_ENDPOINT: 'minio:9000' }, 'S3_ENDPOINT must be an http(s) URL'],
    [{ ...s3, S3_REGION: 'US East' }, 'S3_REGION must be a region name'],
    [{ ...s3, S3_PREFIX: 'no-slash' }, 'S3_PREFIX must be empty or folder names'],
    [{ ...s3, S3_URL_SECONDS: '86400' }, 'S3_URL_SECONDS'],
    [{ S3_BUCKET: 'transport-photos' }, 'S3_BUCKET set but OBJECT_STORAGE is postgresql'],
  ])('refuse %j, naming what is wrong', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('refuse, in production, an S3 endpoint over plain http', () => {
    const message = refusal({ ...production, ...s3, S3_ENDPOINT: 'http://minio.internal:9000' });
    expect(message.split('\n').slice(1)).toEqual([expect.stringContaining('S3_ENDPOINT must be https')]);
    expect(loadConfig({ ...production, ...s3, S3_ENDPOINT: 'https://minio.internal:9000' }).objectStorage.kind).toBe(
      's3',
    );
  });
});
