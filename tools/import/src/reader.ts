import { Decimal128, EJSON, Long, ObjectId } from 'bson';
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import type { ReadStream } from 'node:fs';
import { parser } from 'stream-json';
import { streamArray } from 'stream-json/streamers/StreamArray';
import type { Doc } from './records';

/**
 * Plain values from what BSON's Extended JSON reader gives: an ObjectId as its 24 hex digits, a Decimal128 or a Long
 * as a number; dates stay dates. Nested objects and lists are walked.
 */
export function plain(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || value instanceof Date) return value;
  if (value instanceof ObjectId) return value.toHexString();
  if (value instanceof Decimal128) return Number(value.toString());
  if (value instanceof Long) return value.toNumber();
  if (Array.isArray(value)) return value.map(plain);
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) out[key] = plain(inner);
  return out;
}

/** One record read: the document, or why it could not be read (with its line or position for the report). */
export type ReadItem = { doc: Doc; position: string } | { error: string; position: string };

/** The file's first character that is not white space: `[` for a JSON array, otherwise JSON lines. */
async function firstCharacter(path: string): Promise<string | undefined> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(4096);
    for (let offset = 0; ; offset += buffer.length) {
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, offset);
      if (bytesRead === 0) return undefined;
      const found = buffer.subarray(0, bytesRead).toString('utf8').trimStart();
      if (found.length > 0) return found[0];
    }
  } finally {
    await handle.close();
  }
}

function toDoc(raw: unknown): Doc {
  // Canonical and relaxed Extended JSON alike ($oid, $date, $numberLong, $numberDecimal, ...).
  const value = plain(EJSON.deserialize(raw as Record<string, unknown>, { relaxed: true }));
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new Error('not a JSON object');
  return value as Doc;
}

/**
 * The records of a `mongoexport` file, streamed: JSON lines (the default) or one JSON array (`--jsonArray`), read
 * with backpressure so a file of any size is held one record at a time. `stream` is the file stream, for progress.
 */
export async function readRecords(path: string): Promise<{ stream: ReadStream; records: AsyncIterable<ReadItem> }> {
  const stream = createReadStream(path, { highWaterMark: 256 * 1024 });
  if ((await firstCharacter(path)) === '[') {
    const items = stream.pipe(parser()).pipe(streamArray());
    return {
      stream,
      records: (async function* () {
        for await (const { key, value } of items as AsyncIterable<{ key: number; value: unknown }>) {
          const position = `element ${key + 1}`;
          try {
            yield { doc: toDoc(value), position };
          } catch (error) {
            yield { error: (error as Error).message, position };
          }
        }
      })(),
    };
  }
  const lines = createInterface({ input: stream, crlfDelay: Infinity });
  return {
    stream,
    records: (async function* () {
      let n = 0;
      for await (const line of lines) {
        n += 1;
        if (line.trim() === '') continue;
        const position = `line ${n}`;
        try {
          yield { doc: toDoc(JSON.parse(line)), position };
        } catch (error) {
          yield { error: (error as Error).message, position };
        }
      }
    })(),
  };
}
