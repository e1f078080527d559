import { bool, ConfigError, httpUrl, int } from './env-values';

/** Where photos and other files go (OBJECT_STORAGE; docs/storage.md). */
export type ObjectStorageConfig =
  | { kind: 'postgresql'; urlSeconds: number }
  | {
      kind: 's3';
      /** How long a presigned GET URL works (S3_URL_SECONDS). */
      urlSeconds: number;
      endpoint?: string;
      bucket: string;
      region: string;
      credentials?: { accessKeyId: string; secretAccessKey: string };
      forcePathStyle: boolean;
      prefix: string;
    };

/** An S3 bucket name as S3 takes it: 3-63 lower-case letters, digits, dots and hyphens, a letter or digit at each end. */
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
const REGION = /^[a-z0-9-]{2,40}$/;
const PREFIX = /^([A-Za-z0-9._-]+\/)*$/;

/** OBJECT_STORAGE and the S3_* settings, each checked (ConfigError names what is wrong). */
export function objectStorage(env: NodeJS.ProcessEnv): ObjectStorageConfig {
  const kind = env.OBJECT_STORAGE || 'postgresql';
  const urlSeconds = int(env, 'S3_URL_SECONDS', 300, 10, 3600);
  const s3Settings = Object.keys(env).filter((name) => name.startsWith('S3_') && env[name]);
  if (kind === 'postgresql') {
    if (s3Settings.length > 0)
      throw new ConfigError(
        `${s3Settings.join(', ')} set but OBJECT_STORAGE is postgresql: set OBJECT_STORAGE=s3 to use the S3 store, or unset them`,
      );
    return { kind, urlSeconds };
  }
  if (kind !== 's3') throw new ConfigError(`OBJECT_STORAGE must be postgresql or s3, got "${kind}"`);
  const bucket = env.S3_BUCKET ?? '';
  if (!BUCKET.test(bucket) || bucket.includes('..'))
    throw new ConfigError(
      `S3_BUCKET must be an S3 bucket name (3-63 lower-case letters, digits, dots, hyphens), got "${bucket}"`,
    );
  const region = env.S3_REGION || 'us-east-1';
  if (!REGION.test(region)) throw new ConfigError(`S3_REGION must be a region name (us-east-1, auto), got "${region}"`);
  const accessKeyId = env.S3_ACCESS_KEY_ID || '';
  const secretAccessKey = env.S3_SECRET_ACCESS_KEY || '';
  if (Boolean(accessKeyId) !== Boolean(secretAccessKey))
    throw new ConfigError(
      'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together: set both, or neither (the SDK then finds credentials in its default chain: AWS_* variables, an instance or pod role)',
    );
  const prefix = env.S3_PREFIX ?? '';
  if (!PREFIX.test(prefix))
    throw new ConfigError(
      `S3_PREFIX must be empty or folder names each ending in "/" (e.g. transport/), got "${prefix}"`,
    );
  return {
    kind,
    urlSeconds,
    endpoint: httpUrl(env, 'S3_ENDPOINT'),
    bucket,
    region,
    credentials: accessKeyId ? { accessKeyId, secretAccessKey } : undefined,
    forcePathStyle: bool(env, 'S3_FORCE_PATH_STYLE', false),
    prefix,
  };
}
