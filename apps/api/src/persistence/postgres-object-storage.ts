import { Readable } from 'node:stream';
import type { ObjectMetadata, ObjectStorage, StoredObject } from '../core/ports';
import type { PrismaClient } from '../generated/prisma/client';
import { assertChecksum, assertObjectKey } from './object-keys';

/**
 * The ObjectStorage port in PostgreSQL: one `stored_objects` row per key, the bytes in a bytea column. The default
 * (OBJECT_STORAGE=postgresql): it needs nothing beyond the database, works on the embedded one `npm start` uses, and
 * the database's backups hold the files. It makes no URLs: the API streams what it reads.
 */
export class PostgresObjectStorage implements ObjectStorage {
  readonly kind = 'postgresql';

  constructor(
    private readonly prisma: PrismaClient,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async put(key: string, bytes: Uint8Array, metadata: ObjectMetadata): Promise<void> {
    assertObjectKey(key);
    assertChecksum(bytes, metadata);
    const row = {
      contentType: metadata.contentType,
      sha256: metadata.sha256,
      size: bytes.byteLength,
      bytes: Uint8Array.from(bytes),
      createdAt: this.now(),
    };
    await this.prisma.storedObject.upsert({ where: { key }, create: { key, ...row }, update: row });
  }

  async get(key: string): Promise<StoredObject | undefined> {
    assertObjectKey(key);
    const row = await this.prisma.storedObject.findUnique({ where: { key } });
    if (!row) return undefined;
    return {
      contentType: row.contentType,
      sha256: row.sha256,
      size: row.size,
      body: Readable.from([Buffer.from(row.bytes)]),
    };
  }

  async exists(key: string): Promise<boolean> {
    assertObjectKey(key);
    return (await this.prisma.storedObject.count({ where: { key } })) > 0;
  }

  async delete(key: string): Promise<void> {
    assertObjectKey(key);
    await this.prisma.storedObject.deleteMany({ where: { key } });
  }

  temporaryUrl(key: string): Promise<string | undefined> {
    assertObjectKey(key);
    return Promise.resolve(undefined);
  }
}
