import { readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { archiveCollections, sniffArchive } from './bson-reader';
import { COLLECTIONS, type Collection } from './collections';
import { readRecords, type Source } from './reader';
import type { Doc } from './records';

/**
 * Which files of an export hold which collection. Operators hand over what their tools made: `mongoexport` files
 * named for the collection, or for a part of it (`trips-2023.json`, `trips_2023.json`, `<db>.trips.json`,
 * `Trips (2).json`), files named for nothing (`export-7.json`), and mongodump backups (a `dump/<db>/` folder of
 * `.bson` files, gzipped or not, or an `--archive`). A file is taken by its name when a word of it names a collection
 * and the rest of the name is a part's number or date; when the rest is a word (`transport.trips`, `driver_locations`)
 * or nothing is named, by its records: their fields must be the collection's. Each file taken says how; each one not
 * taken says why; an input that yields nothing refuses the import.
 */

/** A file (or an archive's collection) of the export and the collection it holds. */
export interface InputFile {
  source: Source;
  /** The path, or `<archive>#<db>.<collection>`, as the report names it. */
  name: string;
  collection: Collection;
  /** Its bytes, for progress (an archive's collection: its documents' bytes). */
  bytes: number;
  /** How it was matched to its collection: by its name (and which part of it), or by its records. */
  by: string;
}

/** A file of the input that was not read, and why. */
export interface SkippedFile {
  file: string;
  reason: string;
}

const META = new Set(['_id', 'createdAt', 'updatedAt', '__v']);
/** Records looked at to match a file by its records. */
const PEEK = 5;
/** The share of a file's fields a collection must know for the file to be taken as that collection by its records. */
const FIT = 0.9;

const compact = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, '');

/** The collection a word (or adjacent words) of the name names, the words, and the rest of the name in pieces. */
export function nameMatch(stem: string): { collection: Collection; span: string; rest: string[] } | undefined {
  const tokens = [...stem.matchAll(/[a-z]+|[0-9]+/gi)].map((m) => ({
    text: m[0].toLowerCase(),
    start: m.index,
    end: m.index + m[0].length,
  }));
  // The longest run of words that names a collection: `vehicle-owners` is vehicleowners, not vehicles.
  for (let length = tokens.length; length >= 1; length--) {
    const found: { collection: Collection; start: number; end: number }[] = [];
    for (let i = 0; i + length <= tokens.length; i++) {
      const key = tokens
        .slice(i, i + length)
        .map((t) => t.text)
        .join('');
      const collection = COLLECTIONS.find((c) => c.files.some((f) => compact(f) === key));
      if (collection) found.push({ collection, start: tokens[i].start, end: tokens[i + length - 1].end });
    }
    if (found.length === 0) continue;
    if (new Set(found.map((f) => f.collection)).size > 1) return undefined; // `drivers_vehicles`: says two things
    const { collection, start, end } = found[0];
    const rest = `${stem.slice(0, start)} ${stem.slice(end)}`
      .split(/[\s._()[\]]+/)
      .map((piece) => piece.replace(/^-+|-+$/g, ''))
      .filter((piece) => piece !== '');
    return { collection, span: stem.slice(start, end), rest };
  }
  return undefined;
}

/** The fields of a file's first records (without `_id`, times, `__v`), and those a collection knows. */
function fieldsOf(docs: readonly Doc[]): string[] {
  return [...new Set(docs.flatMap((d) => Object.keys(d)).filter((k) => !META.has(k)))].sort();
}
const knownTo = (collection: Collection, fields: readonly string[]) =>
  fields.filter((f) => collection.known.includes(f) || collection.notCarried?.[f] !== undefined);

async function peek(source: Source): Promise<Doc[]> {
  const docs: Doc[] = [];
  let seen = 0;
  for await (const item of (await readRecords(source)).records) {
    if ('doc' in item) docs.push(item.doc);
    if (++seen >= PEEK) break;
  }
  return docs;
}

type Match = { collection: Collection; by: string } | { reason: string };

async function match(source: Source, stem: string): Promise<Match> {
  const named = nameMatch(stem);
  const part = (pieces: string[]) => pieces.map((p) => `"${p}"`).join(', ');
  if (named && named.rest.every((piece) => /\d/.test(piece)))
    return {
      collection: named.collection,
      by:
        named.rest.length === 0
          ? `by its name ("${named.span}")`
          : `by its name ("${named.span}"; ${part(named.rest)} read as a part of it)`,
    };
  const docs = await peek(source);
  const fields = fieldsOf(docs);
  if (named) {
    const c = named.collection;
    const foreign = fields.filter((f) => !knownTo(c, [f]).length);
    if (docs.length > 0 && knownTo(c, fields).length >= FIT * fields.length)
      return {
        collection: c,
        by: `by its name ("${named.span}") and its records (the rest, ${part(named.rest)}, names nothing)`,
      };
    return {
      reason:
        docs.length === 0
          ? `its name says ${c.name} ("${named.span}") beside ${part(named.rest)}, and it holds no records to tell`
          : `its name says ${c.name} ("${named.span}"), but its records are not ${c.name}' (their fields ` +
            `${foreign.join(', ')} are not ${c.name}'): rename it to ${c.name}.json to take it as ${c.name}`,
    };
  }
  if (docs.length === 0) return { reason: 'names no collection imported here, and holds no records' };
  const ranked = COLLECTIONS.map((c) => ({ c, known: knownTo(c, fields).length })).sort((a, b) => b.known - a.known);
  const [best, second] = ranked;
  if (fields.length >= 3 && best.known >= FIT * fields.length && best.known > (second?.known ?? 0))
    return {
      collection: best.c,
      by: `by its records (${best.known} of ${fields.length} fields are ${best.c.name}')`,
    };
  return {
    reason: `names no collection imported here, and its records are not of one (fields: ${fields.join(', ')})`,
  };
}

const EXPORT = /\.(json|jsonl|ndjson)$/i;
const BSON_FILE = /\.bson(\.gz)?$/i;
const METADATA = /\.metadata\.json(\.gz)?$/i;

/** Every file under a path (a folder's, at any depth, in name order; hidden ones left out). */
function walk(path: string): string[] {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path)
    .filter((name) => !name.startsWith('.'))
    .sort()
    .flatMap((name) => walk(join(path, name)));
}

/**
 * The files to read, in the order references need (a collection's parts in name order), and those not read with
 * why. With `strict`, a JSON file that names no collection refuses the import instead. An input (a folder or a file)
 * from which nothing is to be read refuses the import, with each file's reason.
 */
export async function inputFiles(
  inputs: readonly string[],
  strict = false,
): Promise<{ files: InputFile[]; skipped: SkippedFile[] }> {
  const files: InputFile[] = [];
  const skipped: SkippedFile[] = [];
  const expected = `expected one of ${COLLECTIONS.map((c) => c.name).join(', ')} (as mongoexport names them, e.g. vehicles.json)`;
  for (const input of inputs) {
    const before = { files: files.length, skipped: skipped.length };
    const skip = (file: string, reason: string) => skipped.push({ file, reason });
    const take = async (source: Source, name: string, stem: string, bytes: number) => {
      const found = await match(source, stem);
      if ('collection' in found) files.push({ source, name, collection: found.collection, bytes, by: found.by });
      else if (strict && source.kind === 'json')
        throw new Error(`${name}: the file name names no collection; ${expected} (--strict): ${found.reason}`);
      else skip(name, found.reason);
    };
    const paths = walk(input);
    for (const path of paths) {
      const name = basename(path);
      if (METADATA.test(name)) skip(path, "mongodump's collection metadata (indexes), not records");
      else if (name === 'prelude.json') skip(path, "mongodump's description of the dump (versions), not records");
      else if (EXPORT.test(name))
        await take({ kind: 'json', path }, path, name.replace(EXPORT, ''), statSync(path).size);
      else if (BSON_FILE.test(name))
        await take(
          { kind: 'bson', path, gzip: /\.gz$/i.test(name) },
          path,
          name.replace(BSON_FILE, ''),
          statSync(path).size,
        );
      else if ((await sniffArchive(path)).archive) {
        const { gzip, collections } = await archiveCollections(path);
        for (const c of collections)
          await take(
            { kind: 'archive', path, gzip, db: c.db, collection: c.collection },
            `${path}#${c.db}.${c.collection}`,
            c.collection,
            c.size,
          );
      } else skip(path, 'not an export file (.json, .jsonl or .ndjson) or a mongodump backup (.bson, --archive)');
    }
    if (files.length === before.files) {
      const own = skipped.slice(before.skipped);
      const why =
        paths.length === 0
          ? 'the folder is empty'
          : own.map((s) => (s.file === input ? s.reason : `${s.file}: ${s.reason}`)).join('; ');
      throw new Error(`${input}: nothing to import: ${why}`);
    }
  }
  files.sort((a, b) => COLLECTIONS.indexOf(a.collection) - COLLECTIONS.indexOf(b.collection));
  return { files, skipped };
}
