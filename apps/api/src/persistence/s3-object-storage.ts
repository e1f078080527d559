import type * as S3Sdk from '@aws-sdk/client-s3';
import type * as S3Presigner from '@aws-sdk/s3-request-presigner';
import type { Readable } from 'node:stream';
import type { ObjectMetadata, ObjectStorage, StoredObject } from '../core/ports';
import { assertChecksum, assertObjectKey } from './object-keys';

/** Where the objects go: any S3-compatible store (AWS S3, MinIO, Ceph radosgw, Cloudflare R2). */
export interface S3StorageConfig {
  /** The store's URL (unset: AWS S3 in `region`). */
  endpoint?: string;
  bucket: string;
  region: string;
  /** Unset: the SDK's default chain (environment, instance or pod role). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /** Path-style URLs (`<endpoint>/<bucket>/<key>`): MinIO and most self-hosted stores need them. */
  forcePathStyle: boolean;
  /** A prefix before every key (several deployments in one bucket); empty for none. */
  prefix: string;
}

type Sdk = typeof S3Sdk & Pick<typeof S3Presigner, 'getSignedUrl'>;

/**
 * The AWS SDK is loaded when an S3 store is made, not with the service: loading its two packages takes about 33 MB of
 * resident memory (measured with `require` in a bare Node 24 process), which a deployment on the PostgreSQL default
 * never uses.
 */
function loadSdk(): Sdk {
  const client = require('@aws-sdk/client-s3') as typeof S3Sdk;
  const { getSignedUrl } = require('@aws-sdk/s3-request-presigner') as typeof S3Presigner;
  return { ...client, getSignedUrl };
}

const notFound = (sdk: Sdk, error: unknown) =>
  error instanceof sdk.S3ServiceException &&
  (error.name === 'NotFound' || error.name === 'NoSuchKey' || error.$metadata.httpStatusCode === 404);

/**
 * The ObjectStorage port on an S3-compatible store through the AWS SDK v3 client. The SHA-256 goes with each put
 * (x-amz-checksum-sha256, which S3 verifies before it stores anything, and the object's metadata, which `get` reads
 * back); presigned GET URLs serve a photo without the API.
 */
export class S3ObjectStorage implements ObjectStorage {
  readonly kind = 's3';
  private readonly sdk = loadSdk();
  private readonly client: S3Sdk.S3Client;

  constructor(private readonly config: S3StorageConfig) {
    this.client = new this.sdk.S3Client({
      endpoint: config.endpoint,
      region: config.region,
      credentials: config.credentials,
      forcePathStyle: config.forcePathStyle,
      // Checksums the caller gives (SHA-256) only: stores that predate the SDK's default CRC32 trailers refuse them.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  private key(key: string): string {
    assertObjectKey(key);
    return `${this.config.prefix}${key}`;
  }

  async put(key: string, bytes: Uint8Array, metadata: ObjectMetadata): Promise<void> {
    const Key = this.key(key);
    assertChecksum(bytes, metadata);
    await this.client.send(
      new this.sdk.PutObjectCommand({
        Bucket: this.config.bucket,
        Key,
        Body: bytes,
        ContentType: metadata.contentType,
        ContentLength: bytes.byteLength,
        ChecksumSHA256: Buffer.from(metadata.sha256, 'hex').toString('base64'),
        Metadata: { sha256: metadata.sha256 },
      }),
    );
  }

  async get(key: string): Promise<StoredObject | undefined> {
    const Key = this.key(key);
    try {
      const answer = await this.client.send(new this.sdk.GetObjectCommand({ Bucket: this.config.bucket, Key }));
      return {
        contentType: answer.ContentType ?? 'application/octet-stream',
        sha256: answer.Metadata?.sha256 ?? '',
        size: answer.ContentLength ?? 0,
        body: answer.Body as Readable,
      };
    } catch (error) {
      if (notFound(this.sdk, error)) return undefined;
      throw error;
    }
  }

  async exists(key: string): Promise<boolean> {
    const Key = this.key(key);
    try {
      await this.client.send(new this.sdk.HeadObjectCommand({ Bucket: this.config.bucket, Key }));
      return true;
    } catch (error) {
      if (notFound(this.sdk, error)) return false;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new this.sdk.DeleteObjectCommand({ Bucket: this.config.bucket, Key: this.key(key) }));
  }

  temporaryUrl(key: string, seconds: number): Promise<string> {
    return this.sdk.getSignedUrl(
      this.client,
      new this.sdk.GetObjectCommand({ Bucket: this.config.bucket, Key: this.key(key) }),
      {
        expiresIn: seconds,
      },
    );
  }

  /** Closes the client's connections (the app's shutdown, a test's end). */
  close(): void {
    this.client.destroy();
  }
}
