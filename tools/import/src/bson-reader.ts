import { BSON, Long } from 'bson';
import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { createGunzip, gunzipSync } from 'node:zlib';
import { Crc64 } from './crc64';
import { ARCHIVE_MAGIC } from './dump';
import { plain, unreadable, type ReadItem, type Records } from './reader';
import type { Doc } from './records';

/**
 * mongodump's backups, read as streams one document at a time: a collection's `.bson` file (documents one after
 * another, each led by its length), gzipped or not, and one collection of an `--archive` (mongo-tools'
 * common/archive/spec.md: magic number, header, the collections' metadata, a terminator, then segments of documents
 * per collection, interleaved, each collection closed by a header with the CRC-64 of its documents).
 */

/** A BSON document's largest size with room to spare (MongoDB's is 16 MiB): a larger length is not a document. */
const MAX_DOCUMENT = 48 * 1024 * 1024;

type Frame =
  | { bytes: Buffer; offset: number }
  /** The archive's terminator (-1 where a length would be). */
  | { end: true; offset: number }
  | { bad: string; offset: number };

/** Length-led frames of a BSON stream: documents, and an archive's terminators; `skip` bytes first (the magic). */
async function* frames(input: AsyncIterable<Buffer>, skip = 0): AsyncGenerator<Frame> {
  let buffer: Buffer = Buffer.alloc(0);
  let pos = 0;
  let offset = 0; // of buffer[pos] in the stream
  let skipping = skip;
  for await (let chunk of input as AsyncIterable<Buffer>) {
    if (skipping > 0) {
      const dropped = Math.min(skipping, chunk.length);
      chunk = chunk.subarray(dropped);
      skipping -= dropped;
      offset += dropped;
    }
    buffer = pos < buffer.length ? Buffer.concat([buffer.subarray(pos), chunk]) : chunk;
    pos = 0;
    while (buffer.length - pos >= 4) {
      const length = buffer.readInt32LE(pos);
      if (length === -1) {
        yield { end: true, offset };
        pos += 4;
        offset += 4;
        continue;
      }
      if (length < 5 || length > MAX_DOCUMENT) {
        yield { bad: `${length} is not the length of a BSON document`, offset };
        return;
      }
      if (buffer.length - pos < length) break;
      yield { bytes: buffer.subarray(pos, pos + length), offset };
      pos += length;
      offset += length;
    }
  }
  if (buffer.length - pos > 0) yield { bad: 'cut short', offset };
}

const toDoc = (bytes: Buffer): Doc => plain(BSON.deserialize(bytes)) as Doc;

function fileStream(path: string, gzip: boolean) {
  const stream = createReadStream(path, { highWaterMark: 256 * 1024 });
  return { stream, input: (gzip ? stream.pipe(createGunzip()) : stream) as AsyncIterable<Buffer> };
}

/** Whether a stream error is a gzip file ending early: the file was cut short. */
const endedEarly = (error: unknown) => (error as { code?: string }).code === 'Z_BUF_ERROR';

function cutShort(n: number, offset: number, total: number | undefined, what: string): ReadItem {
  const of = total === undefined ? '' : ` of ${total}`;
  return {
    error: `the export was cut short at document ${n} (byte ${offset}${of}): ${what}`,
    code: 'CUT_SHORT',
    position: `document ${n}`,
  };
}

/** The documents of a collection's `.bson` (or `.bson.gz`) file. */
export async function readBson(path: string, gzip: boolean): Promise<Records> {
  const { stream, input } = fileStream(path, gzip);
  const total = gzip ? undefined : (await stat(path)).size;
  return {
    bytesRead: () => stream.bytesRead,
    records: (async function* (): AsyncGenerator<ReadItem> {
      let n = 0;
      try {
        for await (const frame of frames(input)) {
          n += 1;
          const position = `document ${n}`;
          if ('end' in frame || 'bad' in frame) {
            const why = 'bad' in frame && frame.bad !== 'cut short' ? frame.bad : 'the file ends inside it';
            yield cutShort(n, frame.offset, total, `${why} (dump the collection again)`);
            return;
          }
          try {
            yield { doc: toDoc(frame.bytes), position };
          } catch (error) {
            yield unreadable(error, position);
          }
        }
      } catch (error) {
        if (!endedEarly(error)) throw error;
        yield cutShort(n + 1, 0, total, 'the gzip file ends early (dump the collection again)');
      } finally {
        stream.destroy();
      }
    })(),
  };
}

/** What the head of a file says it is: a mongodump archive (gzipped or not), or something else. */
export async function sniffArchive(path: string): Promise<{ archive: boolean; gzip: boolean }> {
  const handle = await open(path, 'r');
  try {
    const head = Buffer.alloc(4096);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    let bytes = head.subarray(0, bytesRead);
    const gzip = bytes[0] === 0x1f && bytes[1] === 0x8b;
    if (gzip) {
      try {
        bytes = gunzipSync(bytes, { finishFlush: 2 /* Z_SYNC_FLUSH: a head of a longer file */ });
      } catch {
        return { archive: false, gzip };
      }
    }
    return { archive: bytes.length >= 4 && bytes.readUInt32LE(0) === ARCHIVE_MAGIC, gzip };
  } finally {
    await handle.close();
  }
}

export interface ArchiveCollection {
  db: string;
  collection: string;
  /** Bytes of its documents, as the archive's metadata says. */
  size: number;
}

/** The collections an archive holds, from its metadata (read up to the terminator after it, not further). */
export async function archiveCollections(path: string): Promise<{ gzip: boolean; collections: ArchiveCollection[] }> {
  const { gzip } = await sniffArchive(path);
  const { stream, input } = fileStream(path, gzip);
  const collections: ArchiveCollection[] = [];
  try {
    let header = true;
    for await (const frame of frames(input, 4)) {
      if ('bad' in frame) throw new Error(`${path}: not a mongodump archive (at byte ${frame.offset}: ${frame.bad})`);
      if ('end' in frame) break;
      if (header) {
        header = false;
        continue;
      }
      const meta = BSON.deserialize(frame.bytes) as { db: string; collection: string; size?: number };
      collections.push({ db: meta.db, collection: meta.collection, size: Number(meta.size ?? 0) });
    }
  } finally {
    stream.destroy();
  }
  return { gzip, collections };
}

/** One collection's documents out of an archive, its CRC checked at the collection's end. */
export async function readArchive(path: string, gzip: boolean, db: string, collection: string): Promise<Records> {
  const { stream, input } = fileStream(path, gzip);
  let read = 0;
  return {
    bytesRead: () => read,
    records: (async function* (): AsyncGenerator<ReadItem> {
      let n = 0;
      let at = 0;
      // Past the header and the metadata (up to the first terminator), then namespace headers and their documents.
      let state: 'header' | 'metadata' | 'namespace' | 'body' = 'header';
      let ours = false;
      const crc = new Crc64();
      try {
        for await (const frame of frames(input, 4)) {
          at = frame.offset;
          if ('bad' in frame) {
            const why = frame.bad === 'cut short' ? 'the archive ends inside it' : frame.bad;
            yield cutShort(n + 1, frame.offset, undefined, `${why} (make the archive again)`);
            return;
          }
          if (state === 'header') state = 'metadata';
          else if (state === 'metadata') {
            if ('end' in frame) state = 'namespace';
          } else if (state === 'namespace') {
            if ('end' in frame) continue; // the terminator after an end-of-collection header
            const header = BSON.deserialize(frame.bytes, { promoteLongs: false }) as {
              db: string;
              collection: string;
              EOF?: boolean;
              CRC?: Long | number;
            };
            ours = header.db === db && header.collection === collection;
            if (!ours) state = header.EOF ? 'namespace' : 'body';
            else if (!header.EOF) state = 'body';
            else {
              const expected = BigInt.asUintN(64, BigInt(header.CRC?.toString() ?? '0'));
              if (expected !== crc.value())
                yield {
                  error:
                    `the archive's ${n} documents of ${db}.${collection} do not sum to its CRC (${expected.toString(16)}, ` +
                    `read ${crc.value().toString(16)}): the archive is damaged; make it again`,
                  code: 'DAMAGED',
                  position: `document ${n}`,
                };
              return;
            }
          } else if ('end' in frame) state = 'namespace';
          else if (ours) {
            n += 1;
            read += frame.bytes.length;
            crc.update(frame.bytes);
            try {
              yield { doc: toDoc(frame.bytes), position: `document ${n}` };
            } catch (error) {
              yield unreadable(error, `document ${n}`);
            }
          }
        }
        yield cutShort(
          n + 1,
          at,
          undefined,
          `the archive ends before ${db}.${collection} does (make the archive again)`,
        );
      } catch (error) {
        if (!endedEarly(error)) throw error;
        yield cutShort(n + 1, at, undefined, 'the gzip file ends early (make the archive again)');
      } finally {
        stream.destroy();
      }
    })(),
  };
}
