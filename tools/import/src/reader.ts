import { Decimal128, EJSON, Long, ObjectId } from 'bson';
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import type { ReadStream } from 'node:fs';
import { parser } from 'stream-json';
import { streamArray } from 'stream-json/streamers/StreamArray';
import { parseJsonLine } from './json-line';
import type { Doc } from './records';

/**
 * The longest line of a JSON-lines file that is read (bytes, line end excluded): MongoDB's largest document is 16 MiB
 * of BSON, which its Extended JSON can about double. A longer line is reported (LINE_TOO_LONG) and skipped without
 * being held in memory, so a file without line ends cannot exhaust the importer.
 */
export const MAX_LINE_BYTES = 32 * 1024 * 1024;

/**
 * Keys that are not data: assigned to a plain object, `__proto__` replaces its prototype, and `constructor` or
 * `prototype` shadow what code expects of every object. A record holding one, at any depth, is refused by name.
 */
const UNSAFE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** Why a record could not be read at all. */
export type ReadFailureCode = 'UNREADABLE' | 'LINE_TOO_LONG' | 'UNSAFE_FIELD';

/** Why a record could not be read, with a stable code for the report. */
export class Unreadable extends Error {
  constructor(
    readonly code: ReadFailureCode,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Plain values from what BSON's Extended JSON reader gives: an ObjectId as its 24 hex digits, a Decimal128 or a Long
 * as a number; dates stay dates. Nested objects and lists are walked; a key that is not data is refused.
 */
export function plain(value: unknown, path = ''): unknown {
  if (value === null || typeof value !== 'object' || value instanceof Date) return value;
  if (value instanceof ObjectId) return value.toHexString();
  if (value instanceof Decimal128) return Number(value.toString());
  if (value instanceof Long) return value.toNumber();
  if (Array.isArray(value)) return value.map((inner, i) => plain(inner, `${path}[${i}]`));
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    const at = path === '' ? key : `${path}.${key}`;
    if (UNSAFE_KEYS.has(key))
      throw new Unreadable('UNSAFE_FIELD', `field ${at} is refused: "${key}" is not a data field name`);
    out[key] = plain(inner, at);
  }
  return out;
}

/** One record read: the document, or why it could not be read (with its line or position for the report). */
export type ReadItem = { doc: Doc; position: string } | { error: string; code: Unreadable['code']; position: string };

function unreadable(error: unknown, position: string): ReadItem {
  const code = error instanceof Unreadable ? error.code : 'UNREADABLE';
  return { error: (error as Error).message, code, position };
}

/** A JSON-lines file's lines, numbered from 1, with a line longer than `maxBytes` given as its length only. */
export async function* cappedLines(
  input: AsyncIterable<Buffer>,
  maxBytes: number,
): AsyncGenerator<{ n: number; line: string } | { n: number; tooLong: number }> {
  let n = 0;
  let parts: Buffer[] = [];
  let length = 0; // bytes of the current line so far; past the cap, its bytes are counted and dropped
  const end = (): { n: number; line: string } | { n: number; tooLong: number } => {
    n += 1;
    const result = length > maxBytes ? { n, tooLong: length } : { n, line: Buffer.concat(parts).toString('utf8') };
    parts = [];
    length = 0;
    return result;
  };
  const take = (piece: Buffer): void => {
    length += piece.length;
    if (length > maxBytes) parts = [];
    else parts.push(piece);
  };
  for await (const chunk of input) {
    let start = 0;
    for (let at = chunk.indexOf(0x0a, start); at !== -1; at = chunk.indexOf(0x0a, start)) {
      take(chunk.subarray(start, at > start && chunk[at - 1] === 0x0d ? at - 1 : at));
      yield end();
      start = at + 1;
    }
    if (start < chunk.length) take(chunk.subarray(start));
  }
  if (length > 0) yield end();
}

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
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw new Error('not a JSON object');
  // Canonical and relaxed Extended JSON alike ($oid, $date, $numberLong, $numberDecimal, ...).
  const value = plain(EJSON.deserialize(raw as Record<string, unknown>, { relaxed: true }));
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new Error('not a JSON object');
  return value as Doc;
}

/**
 * The records of a `mongoexport` file, streamed: JSON lines (the default) or one JSON array (`--jsonArray`), read
 * with backpressure so a file of any size is held one record at a time. `stream` is the file stream, for progress.
 */
export async function readRecords(
  path: string,
  maxLineBytes = MAX_LINE_BYTES,
): Promise<{ stream: ReadStream; records: AsyncIterable<ReadItem> }> {
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
            yield unreadable(error, position);
          }
        }
      })(),
    };
  }
  return {
    stream,
    records: (async function* () {
      for await (const read of cappedLines(stream as AsyncIterable<Buffer>, maxLineBytes)) {
        const position = `line ${read.n}`;
        if ('tooLong' in read) {
          const message = `line ${read.n} is ${read.tooLong} bytes, longer than the ${maxLineBytes} bytes a record may be`;
          yield { error: message, code: 'LINE_TOO_LONG', position };
          continue;
        }
        if (read.line.trim() === '') continue;
        try {
          yield { doc: toDoc(parseJsonLine(read.line)), position };
        } catch (error) {
          yield unreadable(error, position);
        }
      }
    })(),
  };
}
