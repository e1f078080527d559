import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import { openDatabase, type Database } from '../src/persistence/database';
import { PostgresObjectStorage } from '../src/persistence/postgres-object-storage';
import { S3ObjectStorage } from '../src/persistence/s3-object-storage';
import { objectStorageContract } from './support/object-storage-contract';
import { describeOnEachTier, openTierStore, type TierStore } from './support/test-app';

// The ObjectStorage port's contract on every adapter: PostgreSQL on both database tiers (after the real migrations),
// and S3 against s3rver, a real S3-compatible server (the S3 REST API over HTTP) this file starts on a free port.
describeOnEachTier('PostgreSQL object storage', (tier) => {
  let store: TierStore;
  let database: Database;

  beforeAll(async () => {
    store = await openTierStore(tier);
    database = await openDatabase(store.config());
  });

  afterAll(async () => {
    await database?.close();
    await store?.dispose();
  });

  objectStorageContract(`PostgreSQL on ${tier}`, async () => {
    await database.prisma.storedObject.deleteMany();
    return new PostgresObjectStorage(database.prisma);
  });
});

describe('S3 object storage (s3rver)', () => {
  let server: S3rver;
  let directory: string;
  let endpoint: string;
  const made: S3ObjectStorage[] = [];
  let run = 0;

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 's3rver-'));
    server = new S3rver({
      address: '127.0.0.1',
      port: 0,
      silent: true,
      directory,
      configureBuckets: [{ name: 'photos' }],
    });
    const { port } = await server.run();
    endpoint = `http://127.0.0.1:${port}`;
  });

  afterAll(async () => {
    for (const storage of made) storage.close();
    await server?.close();
    await rm(directory, { recursive: true, force: true });
  });

  objectStorageContract('S3 (s3rver)', () => {
    // Each test its own prefix in the bucket: an empty store, as the contract expects.
    run += 1;
    const storage = new S3ObjectStorage({
      endpoint,
      bucket: 'photos',
      region: 'us-east-1',
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
      forcePathStyle: true,
      prefix: `run-${run}/`,
    });
    made.push(storage);
    return Promise.resolve(storage);
  });

  it('presigns GET URLs that last the seconds asked for, and a URL for another key serves nothing', async () => {
    const storage = new S3ObjectStorage({
      endpoint,
      bucket: 'photos',
      region: 'us-east-1',
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
      forcePathStyle: true,
      prefix: 'presign/',
    });
    made.push(storage);
    const url = new URL(await storage.temporaryUrl('photos/x', 120));
    expect(url.searchParams.get('X-Amz-Expires')).toBe('120');
    expect(url.pathname).toBe('/photos/presign/photos/x');
    expect((await fetch(url)).status).toBe(404);
  });

  it('refuses a bucket that does not exist (a misconfigured S3_BUCKET fails the put, storing nothing)', async () => {
    const storage = new S3ObjectStorage({
      endpoint,
      bucket: 'no-such-bucket',
      region: 'us-east-1',
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
      forcePathStyle: true,
      prefix: '',
    });
    made.push(storage);
    const bytes = Buffer.from('x');
    await expect(
      storage.put('photos/y', bytes, {
        contentType: 'image/jpeg',
        sha256: '2d711642b726b04401627ca9fbac32f5c8530fb1903cc4db02258717921a4881',
      }),
    ).rejects.toThrow();
  });
});
