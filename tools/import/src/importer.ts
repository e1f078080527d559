import { once } from 'node:events';
import { createWriteStream, readdirSync, statSync, type WriteStream } from 'node:fs';
import { basename, join } from 'node:path';
import pg from 'pg';
import {
  COLLECTIONS,
  collectionOfFile,
  mappableFields,
  META_TYPES,
  type Collection,
  type Mapped,
  type Row,
  type Table,
} from './collections';
import { FieldMap } from './field-map';
import { castRecord, CastTally, type DateOrder, type DateRead } from './caster';
import { readRecords } from './reader';
import { refusalOf, type Doc, type RefusalCode } from './records';
import { MAX_DISTINCT_PER_FIELD, ValueReader, ValueRefusal, type Unplaced, type ValueMap } from './value-reader';

export interface ImportOptions {
  databaseUrl: string;
  /** Files, or folders whose `.json`, `.jsonl` and `.ndjson` files are read. */
  inputs: readonly string[];
  /** Where the report (JSON lines) is written. */
  reportPath: string;
  /** Validate and report, write nothing. */
  dryRun?: boolean;
  /** Original merchant id -> merchant id here. */
  merchants?: ReadonlyMap<string, string>;
  /** Records written per transaction. */
  batchSize?: number;
  /** Connections to the database (default 2; the embedded database: 1). */
  connections?: number;
  /** The operator's mapping of values people typed (`--map`): `collection.field` or `field` -> original -> here. */
  valueMap?: ValueMap;
  /** The mapping file's `fields` section: `collection.oldName` or `oldName` -> the name here (field-map.ts). */
  fieldMap?: Readonly<Record<string, unknown>>;
  /** Refuse the whole import when a file names no collection (otherwise it is skipped and listed). */
  strict?: boolean;
  /** How dates written with slashes are read (`--date-order`): day first (the default, as Ghana writes them) or month first. */
  dateOrder?: DateOrder;
  /** Called after every batch. */
  onProgress?: (progress: Progress) => void;
}

export interface Progress {
  collection: string;
  file: string;
  bytesRead: number;
  bytesTotal: number;
  records: number;
  startedAt: number;
}

export interface CollectionSummary {
  read: number;
  imported: number;
  unchanged: number;
  /** Records here (from an older copy earlier in the export, or an earlier import) replaced by a newer copy. */
  replaced: number;
  skipped: number;
  /** Skipped records by reason code. */
  reasons: Partial<Record<RefusalCode, number>>;
  /** Fields of the original that nothing here maps, with how many records had each. */
  unknownFields: Record<string, number>;
  /** Fields read and deliberately not kept (see the collection's notCarried), with how many records had each. */
  notCarried: Record<string, number>;
  /** Values people typed that were changed to the domain's (by the normaliser or the mapping), per field. */
  folded: Record<string, number>;
  /** Values cast as the original's Mongoose schema cast them (`"4"` -> 4, `""` -> absent, a date from text), per field. */
  cast: Record<string, number>;
}

/** A file of the input that was not read, and why. */
export interface SkippedFile {
  file: string;
  reason: string;
}

export interface ImportSummary {
  dryRun: boolean;
  collections: Record<string, CollectionSummary>;
  /** Files that name no collection (other collections of the same database, ...): listed, not read. */
  skippedFiles: SkippedFile[];
  /** Each distinct value (folded spelling) no rule or mapping placed, per field, with a count and an example id. */
  unplaced: Unplaced[];
  seconds: number;
}

/** A file of the export and the collection its name says it holds. */
export interface InputFile {
  path: string;
  collection: Collection;
  bytes: number;
}

const EXTENSIONS = /\.(json|jsonl|ndjson)$/i;

/**
 * The files to read, in the order references need, and those not read with why: a folder's other files, and files
 * whose name names no collection here (an export of the whole database holds `sessions`, `merchants`, ...). With
 * `strict`, a JSON file naming no collection refuses the import instead.
 */
export function inputFiles(inputs: readonly string[], strict = false): { files: InputFile[]; skipped: SkippedFile[] } {
  const skipped: SkippedFile[] = [];
  const paths = inputs.flatMap((input) => {
    if (!statSync(input).isDirectory()) return [input];
    const names = readdirSync(input)
      .filter((name) => !name.startsWith('.'))
      .sort();
    for (const name of names.filter((n) => !EXTENSIONS.test(n)))
      skipped.push({ file: join(input, name), reason: 'not an export file (.json, .jsonl or .ndjson)' });
    return names.filter((name) => EXTENSIONS.test(name)).map((name) => join(input, name));
  });
  const expected = `expected one of ${COLLECTIONS.map((c) => c.name).join(', ')} (as mongoexport names them, e.g. vehicles.json)`;
  const files: InputFile[] = [];
  for (const path of paths) {
    if (/\.metadata\.json$/i.test(path)) {
      skipped.push({ file: path, reason: "mongodump's collection metadata (indexes), not records" });
      continue;
    }
    const collection = collectionOfFile(basename(path));
    if (collection) files.push({ path, collection, bytes: statSync(path).size });
    else if (strict) throw new Error(`${path}: the file name names no collection; ${expected} (--strict)`);
    else skipped.push({ file: path, reason: 'names no collection imported here' });
  }
  files.sort((a, b) => COLLECTIONS.indexOf(a.collection) - COLLECTIONS.indexOf(b.collection));
  return { files, skipped };
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** One record on its way: where it was read, and what it maps to (or why it is skipped). */
interface Pending {
  position: string;
  id?: string;
}

/** A record that mapped and passed the domain: it waits in a batch for its references and its write. */
interface Ready extends Pending {
  mapped: Mapped;
}

class Report {
  private readonly out: WriteStream;
  constructor(path: string) {
    this.out = createWriteStream(path);
  }
  line(entry: object): void {
    this.out.write(`${JSON.stringify(entry)}\n`);
  }
  /** Waits while the file lags behind: a flood of refusals (a million unreadable lines) never piles up in memory. */
  async caughtUp(): Promise<void> {
    if (this.out.writableNeedDrain) await once(this.out, 'drain');
  }
  close(): Promise<void> {
    return new Promise((resolve, reject) =>
      this.out.end((error?: Error | null) => (error ? reject(error) : resolve())),
    );
  }
}

/** Which of two copies of a record is the newer: `updatedAt`, then `__v`, as the original kept them. */
interface Revision {
  updatedAt: Date;
  version: number;
}

const revisionOf = (m: Mapped): Revision => ({
  updatedAt: new Date(m.rows[0].values.updatedAt as Date | string),
  version: Number(m.rows[0].values.version ?? 0),
});

/** Positive when `a` is the newer copy, negative when `b` is, 0 when they are the same revision. */
const newer = (a: Revision, b: Revision) => a.updatedAt.getTime() - b.updatedAt.getTime() || a.version - b.version;

const shownRevision = (r: Revision) => `updatedAt ${r.updatedAt.toISOString()}, __v ${r.version}`;

/** What a batch write did with each record: inserted, replacing an older copy, or left for a copy here as new or newer. */
interface Written {
  inserted: Set<string>;
  /** Ids whose older copy here was replaced by this newer one, with the revision replaced. */
  replaced: Map<string, Revision>;
  /** Ids whose copy here is newer than this one, with its revision (this copy is superseded). */
  older: Map<string, Revision>;
}

/** The database side of an import: reference checks and idempotent, all-or-nothing batch writes. */
class Target {
  private columns = new Map<string, Set<string>>();
  /** Dry run: ids this run would have written, with their revisions, for references and copies of one record. */
  private readonly wouldWrite = new Map<Table, Map<string, Revision>>();

  constructor(
    private readonly pool: pg.Pool,
    private readonly dryRun: boolean,
  ) {}

  async open(): Promise<void> {
    const { rows } = await this.pool.query<{ table_name: string; column_name: string }>(
      `SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema()`,
    );
    for (const row of rows) {
      const set = this.columns.get(row.table_name) ?? new Set<string>();
      set.add(row.column_name);
      this.columns.set(row.table_name, set);
    }
    if (!this.columns.has('trips'))
      throw new Error('the database has no tables: apply the migrations first (npx prisma migrate deploy)');
  }

  /** Of the given ids of a table, those that exist (or, in a dry run, that this run would have written). */
  async existing(table: Table, ids: readonly string[]): Promise<Set<string>> {
    return new Set((await this.revisions(table, ids)).keys());
  }

  /** The revision of each of the given ids that exists here (or that this dry run would have written). */
  private async revisions(table: Table, ids: readonly string[]): Promise<Map<string, Revision>> {
    const { rows } = await this.pool.query<{ id: string; updatedAt: Date; version: number }>(
      `SELECT id, "updatedAt", version FROM ${quote(table)} WHERE id = ANY($1::bpchar[])`,
      [ids],
    );
    const found = new Map(rows.map((r) => [r.id, { updatedAt: r.updatedAt, version: r.version }]));
    for (const id of ids) {
      const planned = this.wouldWrite.get(table)?.get(id);
      if (planned && (!found.has(id) || newer(planned, found.get(id)!) > 0)) found.set(id, planned);
    }
    return found;
  }

  /**
   * The records' rows, written in one transaction: an id not here is inserted; a copy newer (`updatedAt`, then
   * `__v`) than the one here replaces it, its dependent rows with it; a copy as new or older is left.
   */
  async write(records: readonly Mapped[]): Promise<Written> {
    const table = records[0].rows[0].table;
    if (this.dryRun) {
      const here = await this.revisions(
        table,
        records.map((r) => r.id),
      );
      const planned = this.wouldWrite.get(table) ?? new Map<string, Revision>();
      this.wouldWrite.set(table, planned);
      const written: Written = { inserted: new Set(), replaced: new Map(), older: new Map() };
      for (const r of records) {
        const copy = revisionOf(r);
        const existing = here.get(r.id);
        if (!existing) written.inserted.add(r.id);
        else if (newer(copy, existing) > 0) written.replaced.set(r.id, existing);
        else if (newer(copy, existing) < 0) written.older.set(r.id, existing);
        if (!existing || newer(copy, existing) > 0) planned.set(r.id, copy);
      }
      return written;
    }
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const inserted = await this.insert(
        client,
        records.map((r) => r.rows[0]),
      );
      const written: Written = { inserted, replaced: new Map(), older: new Map() };
      const rest = records.filter((r) => !inserted.has(r.id));
      if (rest.length > 0) {
        const { rows: here } = await client.query<{ id: string; updatedAt: Date; version: number }>(
          `SELECT id, "updatedAt", version FROM ${quote(table)} WHERE id = ANY($1::bpchar[]) FOR UPDATE`,
          [rest.map((r) => r.id)],
        );
        const revisions = new Map(here.map((r) => [r.id, { updatedAt: r.updatedAt, version: r.version }]));
        for (const r of rest) {
          const existing = revisions.get(r.id);
          if (!existing) continue;
          const order = newer(revisionOf(r), existing);
          if (order < 0) written.older.set(r.id, existing);
          if (order <= 0) continue;
          await this.replace(client, r.rows[0]);
          written.replaced.set(r.id, existing);
        }
      }
      // Rows that belong to a record (a trip's service) follow it when the record itself was inserted or replaced.
      const dependents = records
        .filter((r) => inserted.has(r.id) || written.replaced.has(r.id))
        .flatMap((r) => r.rows.slice(1));
      const byTable = new Map<Table, Row[]>();
      for (const row of dependents) byTable.set(row.table, [...(byTable.get(row.table) ?? []), row]);
      for (const rows of byTable.values()) await this.insert(client, rows, true);
      await client.query('COMMIT');
      return written;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  /** The id of the record holding the one-column unique value a refusal names (`Key (col)=(value) already exists`). */
  async holder(table: Table, error: unknown): Promise<string | undefined> {
    const key = /^Key \("?([^",]+?)"?\)=\((.*)\) already exists\.?$/.exec((error as { detail?: string }).detail ?? '');
    if (!key || !this.columns.get(table)?.has(key[1])) return undefined;
    const { rows } = await this.pool.query<{ id: string }>(
      `SELECT id FROM ${quote(table)} WHERE ${quote(key[1])} = $1 LIMIT 1`,
      [key[2]],
    );
    return rows[0]?.id;
  }

  private names(rows: readonly Row[]): string[] {
    const table = rows[0].table;
    const known = this.columns.get(table);
    const names = [...new Set(rows.flatMap((r) => Object.keys(r.values)))];
    const unknown = names.filter((n) => !known?.has(n));
    if (unknown.length > 0) throw new Error(`the import maps to columns ${table} does not have: ${unknown.join(', ')}`);
    return names;
  }

  /** Inserts the rows whose id is not here (`replace`: replaces those that are, for a replaced record's dependents). */
  private async insert(client: pg.PoolClient, rows: readonly Row[], replace = false): Promise<Set<string>> {
    if (rows.length === 0) return new Set();
    const table = rows[0].table;
    const names = this.names(rows);
    const list = names.map(quote).join(', ');
    const onConflict = replace
      ? `DO UPDATE SET (${list}) = (SELECT ${names.map((n) => `EXCLUDED.${quote(n)}`).join(', ')})`
      : 'DO NOTHING';
    const { rows: inserted } = await client.query<{ id: string }>(
      `INSERT INTO ${quote(table)} (${list}) SELECT ${list} FROM json_populate_recordset(NULL::${quote(table)}, $1::json)
       ON CONFLICT (id) ${onConflict} RETURNING id`,
      [JSON.stringify(rows.map((r) => r.values))],
    );
    return new Set(inserted.map((r) => r.id));
  }

  /** A record's row in place of the older copy here: every column it maps (the others keep their values). */
  private async replace(client: pg.PoolClient, row: Row): Promise<void> {
    const names = this.names([row]);
    const list = names.map(quote).join(', ');
    await client.query(
      `UPDATE ${quote(row.table)} SET (${list}) = (SELECT ${list} FROM json_populate_record(NULL::${quote(row.table)}, $1::json))
       WHERE id = $2`,
      [JSON.stringify(row.values), row.values.id],
    );
  }
}

/** The words and code of a database refusal of one record (a unique value taken by another record, ...). */
function databaseRefusal(error: unknown): { code: RefusalCode; reason: string } {
  const e = error as { code?: string; constraint?: string; detail?: string; message?: string };
  if (e.code === '23505')
    return { code: 'DUPLICATE_VALUE', reason: `another record already has this value (${e.constraint}): ${e.detail}` };
  if (e.code === '23503') return { code: 'REFERENCE_MISSING', reason: `${e.detail ?? e.message}` };
  if (typeof e.code === 'string' && /^2[23]/.test(e.code))
    return { code: 'DATABASE_REFUSED', reason: `${e.message} (${e.code})` };
  throw error;
}

const emptySummary = (): CollectionSummary => ({
  read: 0,
  imported: 0,
  unchanged: 0,
  replaced: 0,
  skipped: 0,
  reasons: {},
  unknownFields: {},
  notCarried: {},
  folded: {},
  cast: {},
});

/**
 * Imports the original service's `mongoexport` files: each record read as a stream, mapped and validated through the
 * domain, checked for the records it references, and written in batches, each batch one transaction that inserts
 * only ids not already present. So a second run changes nothing (every record is "unchanged"), and a run stopped
 * anywhere can be run again to complete: what was committed stays, the rest is written.
 */
export async function runImport(options: ImportOptions): Promise<ImportSummary> {
  const started = Date.now();
  const { files, skipped: skippedFiles } = inputFiles(options.inputs, options.strict === true);
  const values = new ValueReader(options.valueMap, mappableFields());
  const fields = new FieldMap(COLLECTIONS, options.fieldMap);
  const bytesTotal = files.reduce((sum, f) => sum + f.bytes, 0);
  const batchSize = options.batchSize ?? 500;
  const mapOptions = { merchants: options.merchants ?? new Map<string, string>() };
  const summary: ImportSummary = {
    dryRun: options.dryRun === true,
    collections: {},
    skippedFiles,
    unplaced: [],
    seconds: 0,
  };
  for (const c of COLLECTIONS) if (files.some((f) => f.collection === c)) summary.collections[c.name] = emptySummary();
  const examples = new Map<string, string>();
  const casts = new CastTally();
  const report = new Report(options.reportPath);
  const pool = new pg.Pool({ connectionString: options.databaseUrl, max: options.connections ?? 2 });
  const target = new Target(pool, options.dryRun === true);
  let bytesDone = 0;
  let records = 0;
  try {
    await target.open();
    for (const file of files) {
      const collection = file.collection;
      const counts = summary.collections[collection.name];
      const skip = (p: Pending, code: RefusalCode, reason: string) => {
        counts.skipped += 1;
        counts.reasons[code] = (counts.reasons[code] ?? 0) + 1;
        report.line({ collection: collection.name, file: file.path, position: p.position, id: p.id, code, reason });
      };
      const flush = async (batch: Ready[]) => {
        await writeBatch(target, batch, counts, skip, (p, entry) =>
          report.line({ collection: collection.name, file: file.path, position: p.position, id: p.id, ...entry }),
        );
        options.onProgress?.({
          collection: collection.name,
          file: file.path,
          bytesRead: bytesDone + stream.bytesRead,
          bytesTotal,
          records,
          startedAt: started,
        });
      };
      const { stream, records: items } = await readRecords(file.path);
      let batch: Ready[] = [];
      for await (const item of items) {
        counts.read += 1;
        records += 1;
        if (records % 1000 === 0) await report.caughtUp();
        if ('error' in item) {
          skip({ position: item.position }, item.code, item.error);
          continue;
        }
        const reading: Reading = {
          dateOrder: options.dateOrder ?? 'dmy',
          casts,
          // Each date read from text, with the record: the operator checks the day and the month were read as meant.
          dateRead: (id, d) =>
            report.line({
              collection: collection.name,
              file: file.path,
              position: item.position,
              id,
              field: d.field,
              dateRead: d.read,
              stored: d.stored,
              dateOrder: options.dateOrder ?? 'dmy',
            }),
        };
        const pending = mapRecord(
          collection,
          fields.read(collection.name, item.doc),
          item.position,
          mapOptions,
          values,
          counts,
          examples,
          skip,
          reading,
        );
        if (pending) batch.push(pending);
        if (batch.length >= batchSize) {
          await flush(batch);
          batch = [];
        }
      }
      await flush(batch);
      bytesDone += file.bytes;
    }
    for (const skipped of skippedFiles) report.line({ skippedFile: skipped.file, reason: skipped.reason });
    // Each value changed once, with its count: what the operator checks the import did to the original's values.
    const split = (field: string) => {
      const [collection, ...path] = field.split('.');
      return { collection, field: path.join('.') };
    };
    for (const [field, n] of values.foldedRecords) {
      const at = split(field);
      summary.collections[at.collection].folded[at.field] = n;
    }
    for (const f of values.foldedValues())
      report.line({
        ...split(f.field),
        folded: f.value,
        to: f.to,
        records: f.records,
        by: f.mapped ? 'mapping' : 'normaliser',
      });
    for (const [field, n] of casts.records) {
      const at = split(field);
      summary.collections[at.collection].cast[at.field] = n;
    }
    for (const r of fields.renamed()) report.line(r);
    for (const c of casts.entries())
      report.line({
        collection: c.collection,
        field: c.field,
        cast: c.read,
        to: c.stored,
        records: c.records,
        example: c.example,
      });
    summary.unplaced = values.unplacedValues();
    for (const u of summary.unplaced)
      report.line({ ...split(u.field), unplaced: u.value, records: u.records, example: u.example });
    for (const over of values.notListed.values())
      report.line({
        ...split(over.field),
        [over.kind === 'folded' ? 'foldedNotListed' : 'unplacedNotListed']: over.records,
        why: `more than ${MAX_DISTINCT_PER_FIELD} distinct values: counted, not listed`,
      });
    for (const [name, counts] of Object.entries(summary.collections)) {
      for (const [field, n] of Object.entries(counts.unknownFields))
        report.line({ collection: name, unknownField: field, records: n, example: examples.get(`${name}.${field}`) });
      const why = COLLECTIONS.find((c) => c.name === name)?.notCarried ?? {};
      for (const [field, n] of Object.entries(counts.notCarried))
        report.line({ collection: name, notCarried: field, records: n, why: why[field] });
    }
    summary.seconds = (Date.now() - started) / 1000;
    report.line({ summary });
    return summary;
  } finally {
    await report.close();
    await pool.end();
  }
}

/** How a record's values are read, and where what was read from another type is told. */
interface Reading {
  dateOrder: DateOrder;
  casts: CastTally;
  dateRead: (id: string | undefined, d: DateRead) => void;
}

function mapRecord(
  collection: Collection,
  doc: Doc,
  position: string,
  options: Parameters<Collection['map']>[1],
  values: ValueReader,
  counts: CollectionSummary,
  examples: Map<string, string>,
  skip: (p: Pending, code: RefusalCode, reason: string) => void,
  reading: Reading,
): Ready | undefined {
  const id = typeof doc._id === 'string' ? doc._id : undefined;
  const unknown = (field: string) => {
    counts.unknownFields[field] = (counts.unknownFields[field] ?? 0) + 1;
    if (id && !examples.has(`${collection.name}.${field}`)) examples.set(`${collection.name}.${field}`, id);
  };
  for (const field of Object.keys(doc)) {
    if (collection.known.includes(field)) continue;
    if (collection.notCarried?.[field]) {
      counts.notCarried[field] = (counts.notCarried[field] ?? 0) + 1;
      continue;
    }
    unknown(field);
  }
  // Inside embedded objects too (a trip's service and its snapshots): a field nothing maps is listed by its path.
  for (const [path, known] of Object.entries(collection.nestedKnown ?? {})) {
    const inner = path.split('.').reduce<unknown>((o, key) => (o as Doc | undefined)?.[key], doc);
    if (inner === null || typeof inner !== 'object' || Array.isArray(inner) || inner instanceof Date) continue;
    for (const field of Object.keys(inner)) if (!known.includes(field)) unknown(`${path}.${field}`);
  }
  try {
    const typed = castRecord(
      doc,
      { ...META_TYPES, ...collection.types },
      reading.dateOrder,
      (d) => reading.dateRead(id, d),
      (c) => reading.casts.add(collection.name, c, id),
    );
    // mongoose-delete's soft delete: the original answered as if the record were gone. There is no deleted state
    // here (README: soft-deleted records), so it is not imported, and never holds a plate a live record needs.
    if (typed.deleted === true) {
      const at = typed.deletedAt instanceof Date ? `at ${typed.deletedAt.toISOString()}` : 'with no deletedAt';
      skip({ position, id }, 'DELETED', `deleted in the original (deleted: true, ${at}): not imported`);
      return undefined;
    }
    const folded: Record<string, { original: string; normalised: string }> = {};
    const read = collection.values ? values.read(collection.name, typed, collection.values, id, folded) : typed;
    return { position, id, mapped: collection.map(read, options, folded) };
  } catch (error) {
    if (error instanceof ValueRefusal) {
      skip({ position, id }, 'INVALID_VALUE', error.message);
      return undefined;
    }
    const refusal = refusalOf(error);
    if (!refusal) throw error;
    skip({ position, id }, refusal.code, refusal.message);
    return undefined;
  }
}

/** Of several copies of one record in a batch, the newest; each other is reported as superseded. */
function newestCopies(batch: readonly Ready[], superseded: (older: Ready, kept: Ready) => void): Ready[] {
  const kept = new Map<string, Ready>();
  for (const p of batch) {
    const other = kept.get(p.mapped.id);
    if (!other) kept.set(p.mapped.id, p);
    else if (newer(revisionOf(p.mapped), revisionOf(other.mapped)) > 0) {
      superseded(other, p);
      kept.set(p.mapped.id, p);
    } else superseded(p, other);
  }
  return [...kept.values()];
}

async function writeBatch(
  target: Target,
  batch: readonly Ready[],
  counts: CollectionSummary,
  skip: (p: Pending, code: RefusalCode, reason: string) => void,
  line: (p: Pending, entry: object) => void,
): Promise<void> {
  if (batch.length === 0) return;
  // The same record twice (an export taken while it changed, two exports merged): the newer copy is the record.
  const copies = newestCopies(batch, (older, kept) =>
    skip(
      older,
      'SUPERSEDED',
      `an older copy of this record (${shownRevision(revisionOf(older.mapped))}): the copy at ${kept.position} (${shownRevision(revisionOf(kept.mapped))}) is imported`,
    ),
  );
  // References: every record pointed at must be here already (imported earlier in this run, or before).
  const wanted = new Map<Table, Set<string>>();
  for (const p of copies)
    for (const r of p.mapped.references) wanted.set(r.table, (wanted.get(r.table) ?? new Set()).add(r.id));
  const found = new Map<Table, Set<string>>();
  for (const [table, ids] of wanted) found.set(table, await target.existing(table, [...ids]));
  const ready: Ready[] = [];
  for (const p of copies) {
    const missing = p.mapped.references.filter((r) => !found.get(r.table)?.has(r.id));
    const required = missing.find((r) => r.unlink === undefined);
    if (required)
      skip(
        p,
        'REFERENCE_MISSING',
        required.table === 'merchants'
          ? `merchant ${required.id} is not a merchant here: map it with --merchant ${required.id}=<merchant id here>`
          : `${required.field} ${required.id} names no ${required.table} record (not in the export, skipped, or not here)`,
      );
    else {
      // A link the record can live without, to a record deleted in the original (or skipped): imported unlinked.
      for (const r of missing) {
        p.mapped.rows[0].values[r.unlink!] = null;
        line(p, {
          unlinked: r.field,
          reference: r.id,
          reason: `${r.field} ${r.id} names no ${r.table} record (deleted in the original, not in the export, or skipped): imported without the link`,
        });
      }
      // A value the rules for new records require and the original's record lacks: imported without it.
      for (const w of p.mapped.without ?? []) line(p, { without: w.field, reason: w.reason });
      ready.push(p);
    }
  }
  if (ready.length === 0) return;
  const count = (written: Written, records: readonly Ready[]) => {
    for (const p of records) {
      const id = p.mapped.id;
      if (written.inserted.has(id)) counts.imported += 1;
      else if (written.replaced.has(id)) {
        counts.replaced += 1;
        line(p, {
          code: 'SUPERSEDED',
          reason: `the copy here (${shownRevision(written.replaced.get(id)!)}) is older than this one (${shownRevision(revisionOf(p.mapped))}): replaced by it`,
        });
      } else if (written.older.has(id))
        skip(
          p,
          'SUPERSEDED',
          `an older copy of this record (${shownRevision(revisionOf(p.mapped))}): the copy here (${shownRevision(written.older.get(id)!)}) is kept`,
        );
      else counts.unchanged += 1;
    }
  };
  try {
    count(await target.write(ready.map((p) => p.mapped)), ready);
  } catch (error) {
    databaseRefusal(error); // rethrows what is not a refusal of some record's values
    // One record of the batch is refused (a unique value taken by another id): each alone, to name it.
    for (const p of ready) {
      try {
        count(await target.write([p.mapped]), [p]);
      } catch (single) {
        const refusal = databaseRefusal(single);
        const holder =
          refusal.code === 'DUPLICATE_VALUE' ? await target.holder(p.mapped.rows[0].table, single) : undefined;
        skip(p, refusal.code, holder ? `${refusal.reason}: held by ${holder}` : refusal.reason);
      }
    }
  }
}
