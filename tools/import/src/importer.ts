import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';
import pg from 'pg';
import {
  COLLECTIONS,
  mappableFields,
  META_TYPES,
  type Collection,
  type Mapped,
  type Row,
  type Table,
} from './collections';
import { FieldMap } from './field-map';
import { castRecord, CastTally, type DateOrder, type DateRead } from './caster';
import { inputFiles, type SkippedFile } from './input-files';
import { readRecords } from './reader';
import { refusalOf, type Doc, type RefusalCode } from './records';
import { COLLECTION_OF_TABLE, detailOf, readHint, type RefusalDetail } from './refusal-detail';
import { MAX_DISTINCT_PER_FIELD, ValueReader, ValueRefusal, type Unplaced, type ValueMap } from './value-reader';

export interface ImportOptions {
  databaseUrl: string;
  /** Files, or folders read whole: mongoexport files, mongodump folders and archives (see input-files.ts). */
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
  /** Of the imported, those with a value changed to the domain's (by the normaliser or the mapping). */
  importedWithChanges: number;
  /** Records already here (same id): left as they are. */
  unchanged: number;
  /** Records here (from an older copy earlier in the export, or an earlier import) replaced by a newer copy. */
  replaced: number;
  /**
   * Records left out for what they point at (a record refused, or neither in the export nor here), and records left
   * out on purpose: an older copy of a record imported (SUPERSEDED), a record deleted in the original (DELETED).
   */
  skipped: number;
  /** Records left out for what they hold: unreadable, refused by the domain or the mapping, a value taken. */
  refused: number;
  /** Skipped and refused records by reason code. */
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

export type { SkippedFile } from './input-files';

/** A file read, the collection it was taken as, and how the name or the records told. */
export interface FileTaken {
  file: string;
  collection: string;
  by: string;
  read: number;
}

export interface ImportSummary {
  dryRun: boolean;
  collections: Record<string, CollectionSummary>;
  /** Files read, each with the collection it was taken as and why. */
  files: FileTaken[];
  /** Files that name no collection (other collections of the same database, ...): listed, not read. */
  skippedFiles: SkippedFile[];
  /** Each distinct value (folded spelling) no rule or mapping placed, per field, with a count and an example id. */
  unplaced: Unplaced[];
  seconds: number;
  /** Records read over the run's time, and the importer's largest resident memory (MB) by the end. */
  recordsPerSecond: number;
  peakMemoryMb: number;
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
  /** A value of it was changed to the domain's (normaliser or mapping). */
  changed: boolean;
}

/** Reasons a record is skipped rather than refused: nothing in the record itself to correct. */
const LEFT_OUT: ReadonlySet<RefusalCode> = new Set<RefusalCode>(['REFERENCE_MISSING', 'SUPERSEDED', 'DELETED']);

type Skip = (p: Pending, code: RefusalCode, reason: string, detail?: RefusalDetail) => void;

/** Refused records by collection and id, with where they were read: a reference to one names it. */
const MAX_REFUSED_KEPT = 100_000;
class Refused {
  private readonly byCollection = new Map<string, Map<string, string>>();
  add(collection: string, id: string | undefined, where: string): void {
    if (!id) return;
    const ids = this.byCollection.get(collection) ?? new Map<string, string>();
    this.byCollection.set(collection, ids);
    if (ids.size < MAX_REFUSED_KEPT) ids.set(id, where);
  }
  where(collection: string, id: string): string | undefined {
    return this.byCollection.get(collection)?.get(id);
  }
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

/**
 * The database side of an import: reference checks and idempotent, all-or-nothing batch writes. A dry run writes
 * the same batches the same way, in one transaction rolled back at its end (each batch a savepoint): so it finds what
 * the import finds, the database's refusals (a plate another record holds) and copies of one record included, and
 * leaves nothing behind.
 */
class Target {
  private columns = new Map<string, Set<string>>();
  /** Dry run: the one connection, inside the transaction that is rolled back at the end. */
  private held?: pg.PoolClient;

  constructor(
    private readonly pool: pg.Pool,
    private readonly dryRun: boolean,
  ) {}

  private query<T extends pg.QueryResultRow>(sql: string, values?: unknown[]) {
    return (this.held ?? this.pool).query<T>(sql, values);
  }

  async open(): Promise<void> {
    if (this.dryRun) {
      this.held = await this.pool.connect();
      await this.held.query('BEGIN');
    }
    const { rows } = await this.query<{ table_name: string; column_name: string }>(
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

  /** Ends a dry run's transaction, undoing everything it wrote. */
  async close(): Promise<void> {
    if (!this.held) return;
    await this.held.query('ROLLBACK').catch(() => undefined);
    this.held.release();
    this.held = undefined;
  }

  /** Of the given ids of a table, those that exist (in a dry run, written by this run's transaction too). */
  async existing(table: Table, ids: readonly string[]): Promise<Set<string>> {
    const { rows } = await this.query<{ id: string }>(`SELECT id FROM ${quote(table)} WHERE id = ANY($1::bpchar[])`, [
      ids,
    ]);
    return new Set(rows.map((r) => r.id));
  }

  /** The id of the record of a table whose column holds a value (the one a duplicate collides with), if any. */
  async holder(table: Table, column: string, value: string): Promise<string | undefined> {
    const known = this.columns.get(table);
    if (!known?.has(column)) return undefined;
    const { rows } = await this.query<{ id: string }>(
      `SELECT id FROM ${quote(table)} WHERE ${quote(column)}::text = $1 LIMIT 1`,
      [value],
    );
    return rows[0]?.id;
  }

  /**
   * The records' rows, written in one transaction (a dry run: one savepoint): an id not here is inserted; a copy newer
   * (`updatedAt`, then `__v`) than the one here replaces it, its dependent rows with it; a copy as new or older is left.
   */
  async write(records: readonly Mapped[]): Promise<Written> {
    const table = records[0].rows[0].table;
    const client = this.held ?? (await this.pool.connect());
    const [begin, commit, rollback] = this.held
      ? ['SAVEPOINT batch', 'RELEASE SAVEPOINT batch', 'ROLLBACK TO SAVEPOINT batch; RELEASE SAVEPOINT batch']
      : ['BEGIN', 'COMMIT', 'ROLLBACK'];
    try {
      await client.query(begin);
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
      await client.query(commit);
      return written;
    } catch (error) {
      await client.query(rollback).catch(() => undefined);
      throw error;
    } finally {
      if (!this.held) client.release();
    }
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
function databaseRefusal(error: unknown): { code: RefusalCode; reason: string; column?: string; value?: string } {
  const e = error as { code?: string; constraint?: string; detail?: string; message?: string };
  if (e.code === '23505') {
    // PostgreSQL's words: Key ("registrationNumber")=(GR 1001-24) already exists.
    const key = /^Key \((.+?)\)=\((.*)\) already exists/.exec(e.detail ?? '');
    const column = key && /^"?[A-Za-z_][A-Za-z0-9_]*"?$/.test(key[1]) ? key[1].replace(/"/g, '') : undefined;
    return {
      code: 'DUPLICATE_VALUE',
      reason: `another record already has this value (${e.constraint}): ${e.detail}`,
      column,
      value: key?.[2],
    };
  }
  if (e.code === '23503') return { code: 'REFERENCE_MISSING', reason: `${e.detail ?? e.message}` };
  if (typeof e.code === 'string' && /^2[23]/.test(e.code))
    return { code: 'DATABASE_REFUSED', reason: `${e.message} (${e.code})` };
  throw error;
}

const emptySummary = (): CollectionSummary => ({
  read: 0,
  imported: 0,
  importedWithChanges: 0,
  unchanged: 0,
  replaced: 0,
  skipped: 0,
  refused: 0,
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
  const { files, skipped: skippedFiles } = await inputFiles(options.inputs, options.strict === true);
  const values = new ValueReader(options.valueMap, mappableFields());
  const fields = new FieldMap(COLLECTIONS, options.fieldMap);
  const bytesTotal = files.reduce((sum, f) => sum + f.bytes, 0);
  const batchSize = options.batchSize ?? 500;
  const mapOptions = { merchants: options.merchants ?? new Map<string, string>() };
  const summary: ImportSummary = {
    dryRun: options.dryRun === true,
    collections: {},
    files: [],
    skippedFiles,
    unplaced: [],
    seconds: 0,
    recordsPerSecond: 0,
    peakMemoryMb: 0,
  };
  const refused = new Refused();
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
      const taken: FileTaken = { file: file.name, collection: collection.name, by: file.by, read: 0 };
      summary.files.push(taken);
      report.line({ file: file.name, takenAs: collection.name, by: file.by });
      const skip: Skip = (p, code, reason, detail = {}) => {
        // Left out for what it points at, or on purpose (an older copy, a record deleted in the original): skipped.
        if (LEFT_OUT.has(code)) counts.skipped += 1;
        else {
          counts.refused += 1;
          refused.add(collection.name, p.id, `${file.name} ${p.position} (${code})`);
        }
        counts.reasons[code] = (counts.reasons[code] ?? 0) + 1;
        report.line({
          collection: collection.name,
          file: file.name,
          position: p.position,
          id: p.id,
          code,
          reason,
          ...detail,
        });
      };
      const flush = async (batch: Ready[]) => {
        await writeBatch(target, batch, counts, skip, refused, (p, entry) =>
          report.line({ collection: collection.name, file: file.name, position: p.position, id: p.id, ...entry }),
        );
        options.onProgress?.({
          collection: collection.name,
          file: file.name,
          bytesRead: bytesDone + Math.min(reading.bytesRead(), file.bytes),
          bytesTotal,
          records,
          startedAt: started,
        });
      };
      const reading = await readRecords(file.source);
      let batch: Ready[] = [];
      for await (const item of reading.records) {
        counts.read += 1;
        taken.read += 1;
        records += 1;
        if (records % 1000 === 0) await report.caughtUp();
        if ('error' in item) {
          skip({ position: item.position }, item.code, item.error, { hint: readHint(item.code) });
          continue;
        }
        const reading: Reading = {
          dateOrder: options.dateOrder ?? 'dmy',
          casts,
          // Each date read from text, with the record: the operator checks the day and the month were read as meant.
          dateRead: (id, d) =>
            report.line({
              collection: collection.name,
              file: file.name,
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
    summary.recordsPerSecond = Math.round(records / Math.max(summary.seconds, 0.001));
    summary.peakMemoryMb = Math.round(process.resourceUsage().maxRSS / 1024);
    report.line({ summary });
    return summary;
  } finally {
    await target.close();
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
  skip: Skip,
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
    // here (docs/importing.md: soft-deleted records), so it is not imported, and never holds a plate a live record needs.
    if (typed.deleted === true) {
      const at = typed.deletedAt instanceof Date ? `at ${typed.deletedAt.toISOString()}` : 'with no deletedAt';
      skip({ position, id }, 'DELETED', `deleted in the original (deleted: true, ${at}): not imported`);
      return undefined;
    }
    const folded: Record<string, { original: string; normalised: string }> = {};
    const read = collection.values ? values.read(collection.name, typed, collection.values, id, folded) : typed;
    return { position, id, mapped: collection.map(read, options, folded), changed: Object.keys(folded).length > 0 };
  } catch (error) {
    if (error instanceof ValueRefusal) {
      skip({ position, id }, 'INVALID_VALUE', error.message, detailOf(error, 'INVALID_VALUE', collection.name, doc));
      return undefined;
    }
    const refusal = refusalOf(error);
    if (!refusal) throw error;
    skip({ position, id }, refusal.code, refusal.message, detailOf(error, refusal.code, collection.name, doc));
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
  skip: Skip,
  refused: Refused,
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
    if (!required) {
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
      for (const w of p.mapped.without ?? [])
        line(p, { without: w.field, ...(w.value !== undefined && { value: w.value }), reason: w.reason });
      ready.push(p);
      continue;
    }
    const pointed = COLLECTION_OF_TABLE[required.table];
    const where = refused.where(pointed, required.id);
    skip(
      p,
      'REFERENCE_MISSING',
      required.table === 'merchants'
        ? `merchant ${required.id} is not a merchant here`
        : where
          ? `${required.field} ${required.id} names a ${pointed} record this import refused (${where})`
          : `${required.field} ${required.id} names no ${pointed} record: neither in the export (or skipped there) nor here`,
      {
        field: required.field,
        value: required.id,
        hint:
          required.table === 'merchants'
            ? `map it with --merchant ${required.id}=<merchant id here>`
            : where
              ? `correct the ${pointed} record at ${where} and run the import again: this record follows it`
              : `add the ${pointed} export to the import (or import it first), then run the import again`,
      },
    );
  }
  if (ready.length === 0) return;
  const count = (written: Written, records: readonly Ready[]) => {
    for (const p of records) {
      const id = p.mapped.id;
      if (written.inserted.has(id)) {
        counts.imported += 1;
        if (p.changed) counts.importedWithChanges += 1;
      } else if (written.replaced.has(id)) {
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
        const table = p.mapped.rows[0].table;
        const holder =
          refusal.column !== undefined && refusal.value !== undefined
            ? await target.holder(table, refusal.column, refusal.value)
            : undefined;
        skip(p, refusal.code, holder ? `${refusal.reason}: held by ${holder}` : refusal.reason, {
          field: refusal.column,
          value: refusal.value,
          hint: holder
            ? `record ${holder} already holds this ${refusal.column}: correct one of the two in the original and ` +
              'export again (the one here is kept)'
            : 'correct the record in the original and export again',
        });
      }
    }
  }
}
