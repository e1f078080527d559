import { Decimal128, EJSON, Long, ObjectId } from 'bson';
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { Transform } from 'node:stream';
import { arrayElements } from './array-reader';
import { readArchive, readBson } from './bson-reader';
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

/**
 * Why a record could not be read at all: not a JSON object, a line too long, a field that is not data, the file
 * ending inside a record (an export cut short), or a backup whose checksum does not hold (damaged).
 */
export type ReadFailureCode = 'UNREADABLE' | 'LINE_TOO_LONG' | 'UNSAFE_FIELD' | 'CUT_SHORT' | 'DAMAGED';

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

export function unreadable(error: unknown, position: string): ReadItem {
  const code = error instanceof Unreadable ? error.code : 'UNREADABLE';
  return { error: (error as Error).message, code, position };
}

/** A JSON-lines file's lines, numbered from 1, with a line longer than `maxBytes` given as its length only. */
export async function* cappedLines(
  input: AsyncIterable<Buffer>,
  maxBytes: number,
): AsyncGenerator<{ n: number; line: string; last?: true } | { n: number; tooLong: number }> {
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
  // A last line without its line end: the file may have been cut short inside it (the reader decides by parsing).
  if (length > 0) yield { ...end(), last: true };
}

export function toDoc(raw: unknown): Doc {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw new Error('not a JSON object');
  // Canonical and relaxed Extended JSON alike ($oid, $date, $numberLong, $numberDecimal, ...).
  const value = plain(EJSON.deserialize(raw as Record<string, unknown>, { relaxed: true }));
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new Error('not a JSON object');
  return value as Doc;
}

/** Where a file's records are: an export file (JSON lines or array), a mongodump `.bson` file, or one collection of
 * a mongodump archive. */
export type Source =
  | { kind: 'json'; path: string }
  | { kind: 'bson'; path: string; gzip: boolean }
  | { kind: 'archive'; path: string; gzip: boolean; db: string; collection: string };

/** The records read from a source, and how many bytes of its file have been read so far (for progress). */
export interface Records {
  bytesRead(): number;
  records: AsyncIterable<ReadItem>;
}

/** How the text of a file is encoded, by its byte-order mark (Windows tools write one): its length and encoding. */
function byteOrderMark(head: Buffer): { skip: number; encoding: 'utf8' | 'utf-16le' | 'utf-16be' } {
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return { skip: 3, encoding: 'utf8' };
  if (head[0] === 0xff && head[1] === 0xfe) return { skip: 2, encoding: 'utf-16le' };
  if (head[0] === 0xfe && head[1] === 0xff) return { skip: 2, encoding: 'utf-16be' };
  return { skip: 0, encoding: 'utf8' };
}

/** UTF-16 text as UTF-8, streamed: what PowerShell's `Out-File` and Notepad's "Unicode" write. */
function fromUtf16(encoding: 'utf-16le' | 'utf-16be'): Transform {
  const decoder = new TextDecoder(encoding);
  return new Transform({
    transform(chunk: Buffer, _, done) {
      done(null, Buffer.from(decoder.decode(chunk, { stream: true }), 'utf8'));
    },
    flush(done) {
      done(null, Buffer.from(decoder.decode(), 'utf8'));
    },
  });
}

/** A text export's bytes as UTF-8 without its byte-order mark, the first character that is not white space. */
async function openText(path: string): Promise<{ input: AsyncIterable<Buffer>; bytesRead(): number; first?: string }> {
  const handle = await open(path, 'r');
  let head: Buffer;
  try {
    const buffer = Buffer.alloc(64 * 1024);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    head = buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
  const bom = byteOrderMark(head);
  const stream = createReadStream(path, { highWaterMark: 256 * 1024, start: bom.skip });
  const input = bom.encoding === 'utf8' ? stream : stream.pipe(fromUtf16(bom.encoding));
  const text = new TextDecoder(bom.encoding).decode(head.subarray(bom.skip));
  // A record longer than the first 64 KiB of white space is not an export; JSON lines then, reported line by line.
  const first = text.trimStart()[0];
  return { input: input as AsyncIterable<Buffer>, bytesRead: () => bom.skip + stream.bytesRead, first };
}

const cutShort = (line: number, what: string, todo: string): ReadItem => ({
  error: `the export was cut short at line ${line}: the file ends inside ${what} (${todo})`,
  code: 'CUT_SHORT',
  position: `line ${line}`,
});

/**
 * The records of an export, streamed with backpressure so a file of any size is held one record at a time:
 * `mongoexport` JSON lines (the default) or one JSON array (`--jsonArray`), in UTF-8 or, with its byte-order mark,
 * UTF-16, with LF or CRLF line ends; a mongodump `.bson` file (gzipped or not); or one collection of a mongodump
 * archive. A path alone is an export file.
 */
export async function readRecords(source: string | Source, maxLineBytes = MAX_LINE_BYTES): Promise<Records> {
  const at = typeof source === 'string' ? ({ kind: 'json', path: source } as const) : source;
  if (at.kind === 'bson') return readBson(at.path, at.gzip);
  if (at.kind === 'archive') return readArchive(at.path, at.gzip, at.db, at.collection);
  const text = await openText(at.path);
  if (text.first === '[') return { bytesRead: text.bytesRead, records: arrayRecords(text.input, maxLineBytes) };
  return { bytesRead: text.bytesRead, records: lineRecords(text.input, maxLineBytes) };
}

async function* arrayRecords(input: AsyncIterable<Buffer>, maxBytes: number): AsyncGenerator<ReadItem> {
  for await (const read of arrayElements(input, maxBytes)) {
    if ('cutShort' in read) {
      yield cutShort(read.line, `element ${read.n} of the array`, 'export the collection again');
      continue;
    }
    const position = read.n === 0 ? `line ${read.line}` : `element ${read.n}`;
    if ('error' in read) {
      yield { error: read.error, code: 'UNREADABLE', position };
      continue;
    }
    if ('tooLong' in read) {
      const message = `element ${read.n} is ${read.tooLong} bytes, longer than the ${maxBytes} bytes a record may be`;
      yield { error: message, code: 'LINE_TOO_LONG', position };
      continue;
    }
    try {
      yield { doc: toDoc(parseJsonLine(read.text)), position };
    } catch (error) {
      yield unreadable(error, position);
    }
  }
}

async function* lineRecords(input: AsyncIterable<Buffer>, maxBytes: number): AsyncGenerator<ReadItem> {
  for await (const read of cappedLines(input, maxBytes)) {
    const position = `line ${read.n}`;
    if ('tooLong' in read) {
      const message = `line ${read.n} is ${read.tooLong} bytes, longer than the ${maxBytes} bytes a record may be`;
      yield { error: message, code: 'LINE_TOO_LONG', position };
      continue;
    }
    if (read.line.trim() === '') continue;
    let raw: unknown;
    try {
      raw = parseJsonLine(read.line);
    } catch (error) {
      // The last line, without its line end, that does not parse: the file stops inside it.
      yield read.last
        ? cutShort(
            read.n,
            'a record',
            'export the collection again, or remove the partial last line to import the rest',
          )
        : unreadable(error, position);
      continue;
    }
    try {
      yield { doc: toDoc(raw), position };
    } catch (error) {
      yield unreadable(error, position);
    }
  }
}
