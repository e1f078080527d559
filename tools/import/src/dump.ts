import { BSON, EJSON, Long, type Document } from 'bson';
import { once } from 'node:events';
import { createWriteStream, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createGzip } from 'node:zlib';
import { Crc64 } from './crc64';

/**
 * Writes documents as `mongodump` does, byte for byte in its structure, for the sample and the tests (no mongodump
 * binary is needed to try the importer on a backup): a folder `<db>/<collection>.bson` with `.metadata.json` beside
 * each (`.bson.gz` and `.metadata.json.gz` with `--gzip`, and `prelude.json` at the top), or one `--archive` file in
 * mongo-tools' archive format (common/archive/spec.md): magic number, header, each collection's metadata, a
 * terminator, then the collections' documents in interleaved segments (mongodump dumps four collections at once),
 * each collection closed by an end header carrying the CRC-64 of its documents. With `--gzip` the whole archive is
 * gzipped, as mongodump does.
 */
export const ARCHIVE_MAGIC = 0x8199e26d;
export const TERMINATOR = Buffer.from([0xff, 0xff, 0xff, 0xff]);

/** Collections by name, each a list of documents in Extended JSON (canonical or relaxed) as the sample makes them. */
export type DumpCollections = Record<string, Iterable<object>>;

export interface DumpOptions {
  db?: string;
  gzip?: boolean;
  /** Documents per archive segment before mongodump turns to another collection (its buffer fills). */
  segment?: number;
}

/** A document's BSON bytes, with the types its Extended JSON names (Int32, Int64, Double, Decimal128, Date, ObjectId). */
export const toBson = (doc: object): Buffer =>
  Buffer.from(BSON.serialize(EJSON.deserialize(doc as Document, { relaxed: false }) as Document));

/** What mongodump writes as a collection's metadata: its options, its indexes (the `_id` index) and its type. */
function metadata(collection: string, n: number): string {
  const uuid = (0x1000 + n).toString(16).padStart(32, 'a');
  return JSON.stringify({
    indexes: [{ v: { $numberInt: '2' }, key: { _id: { $numberInt: '1' } }, name: '_id_' }],
    uuid,
    collectionName: collection,
    type: 'collection',
  });
}

interface Sink {
  write(bytes: Buffer): Promise<void>;
  end(): Promise<void>;
}

function sink(path: string, gzip: boolean): Sink {
  mkdirSync(dirname(path), { recursive: true });
  const file = createWriteStream(path);
  const zip = gzip ? createGzip() : undefined;
  zip?.pipe(file);
  const head = zip ?? file;
  return {
    async write(bytes) {
      if (!head.write(bytes)) await once(head, 'drain');
    },
    async end() {
      head.end();
      await once(file, 'finish');
    },
  };
}

/** `mongodump --out <folder> [--gzip]`: `<folder>/<db>/<collection>.bson[.gz]` and its metadata. */
export async function writeDumpFolder(
  folder: string,
  collections: DumpCollections,
  options: DumpOptions = {},
): Promise<void> {
  const db = options.db ?? 'transport';
  const gz = options.gzip ? '.gz' : '';
  mkdirSync(join(folder, db), { recursive: true });
  const prelude = sink(join(folder, 'prelude.json'), false);
  await prelude.write(Buffer.from(JSON.stringify({ ServerVersion: '6.0.14', ToolVersion: '100.9.4' })));
  await prelude.end();
  let n = 0;
  for (const [name, docs] of Object.entries(collections)) {
    const meta = sink(join(folder, db, `${name}.metadata.json${gz}`), options.gzip === true);
    await meta.write(Buffer.from(metadata(name, n++)));
    await meta.end();
    const out = sink(join(folder, db, `${name}.bson${gz}`), options.gzip === true);
    for (const doc of docs) await out.write(toBson(doc));
    await out.end();
  }
}

/** `mongodump --archive=<file> [--gzip]`: one file in the archive format. */
export async function writeDumpArchive(
  path: string,
  collections: DumpCollections,
  options: DumpOptions = {},
): Promise<void> {
  const db = options.db ?? 'transport';
  const segment = options.segment ?? 100;
  const out = sink(path, options.gzip === true);
  const magic = Buffer.alloc(4);
  magic.writeUInt32LE(ARCHIVE_MAGIC);
  await out.write(magic);
  await out.write(
    Buffer.from(
      BSON.serialize({
        concurrent_collections: new BSON.Int32(4),
        version: '0.1',
        server_version: '6.0.14',
        tool_version: '100.9.4',
      }),
    ),
  );
  const names = Object.keys(collections);
  // The archive's documents are written once, in order, so each collection's are held as BSON only for the sizes the
  // metadata announces; the sample's collections are small enough for that.
  const bodies = names.map((name) => [...collections[name]].map(toBson));
  for (const [i, name] of names.entries())
    await out.write(
      Buffer.from(
        BSON.serialize({
          db,
          collection: name,
          metadata: metadata(name, i),
          size: new BSON.Int32(bodies[i].reduce((sum, b) => sum + b.length, 0)),
          type: 'collection',
        }),
      ),
    );
  await out.write(TERMINATOR);
  const header = (collection: string, eof: boolean, crc: bigint) =>
    Buffer.from(BSON.serialize({ db, collection, EOF: eof, CRC: Long.fromBigInt(BigInt.asIntN(64, crc)) }));
  const next = names.map(() => 0);
  const sums = names.map(() => new Crc64());
  const open = new Set(names.map((_, i) => i));
  // Round robin, as mongodump's parallel collections share the archive: a segment of one, then of the next.
  while (open.size > 0) {
    for (const i of [...open]) {
      const docs = bodies[i].slice(next[i], next[i] + segment);
      if (docs.length > 0) {
        await out.write(header(names[i], false, 0n));
        for (const doc of docs) {
          sums[i].update(doc);
          await out.write(doc);
        }
        await out.write(TERMINATOR);
        next[i] += docs.length;
      }
      if (next[i] >= bodies[i].length) {
        await out.write(header(names[i], true, sums[i].value()));
        await out.write(TERMINATOR);
        open.delete(i);
      }
    }
  }
  await out.end();
}
