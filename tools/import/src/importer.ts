import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';
import pg from 'pg';
import { COLLECTIONS, mappableFields, type Collection, type Mapped, type Row, type Table } from './collections';
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
  /** Refuse the whole import when a file names no collection (otherwise it is skipped and listed). */
  strict?: boolean;
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
  /** Records left out for what they point at: a record refused, or neither in the export nor here. */
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

/**
 * The database side of an import: reference checks and idempotent, all-or-nothing batch writes. A dry run writes
 * the same batches the same way, in one transaction rolled back at its end (each batch a savepoint): so it finds what
 * the import finds, the database's refusals (a plate another record holds) included, and leaves nothing behind.
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

  /** The records' rows, written in one transaction; the ids actually inserted (an id already present is left). */
  async write(records: readonly Mapped[]): Promise<Set<string>> {
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
      // Rows that belong to a record (a trip's service) follow it only when the record itself was inserted.
      const dependents = records.filter((r) => inserted.has(r.id)).flatMap((r) => r.rows.slice(1));
      const byTable = new Map<Table, Row[]>();
      for (const row of dependents) byTable.set(row.table, [...(byTable.get(row.table) ?? []), row]);
      for (const rows of byTable.values()) await this.insert(client, rows);
      await client.query(commit);
      return inserted;
    } catch (error) {
      await client.query(rollback).catch(() => undefined);
      throw error;
    } finally {
      if (!this.held) client.release();
    }
  }

  private async insert(client: pg.PoolClient, rows: readonly Row[]): Promise<Set<string>> {
    if (rows.length === 0) return new Set();
    const table = rows[0].table;
    const known = this.columns.get(table);
    const names = [...new Set(rows.flatMap((r) => Object.keys(r.values)))];
    const unknown = names.filter((n) => !known?.has(n));
    if (unknown.length > 0) throw new Error(`the import maps to columns ${table} does not have: ${unknown.join(', ')}`);
    const list = names.map(quote).join(', ');
    const { rows: inserted } = await client.query<{ id: string }>(
      `INSERT INTO ${quote(table)} (${list}) SELECT ${list} FROM json_populate_recordset(NULL::${quote(table)}, $1::json)
       ON CONFLICT (id) DO NOTHING RETURNING id`,
      [JSON.stringify(rows.map((r) => r.values))],
    );
    return new Set(inserted.map((r) => r.id));
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
  skipped: 0,
  refused: 0,
  reasons: {},
  unknownFields: {},
  notCarried: {},
  folded: {},
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
        if (code === 'REFERENCE_MISSING') counts.skipped += 1;
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
        await writeBatch(target, batch, counts, skip, refused);
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
        const pending = mapRecord(collection, item.doc, item.position, mapOptions, values, counts, examples, skip);
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

function mapRecord(
  collection: Collection,
  doc: Doc,
  position: string,
  options: Parameters<Collection['map']>[1],
  values: ValueReader,
  counts: CollectionSummary,
  examples: Map<string, string>,
  skip: Skip,
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
    const folded: Record<string, { original: string; normalised: string }> = {};
    const read = collection.values ? values.read(collection.name, doc, collection.values, id, folded) : doc;
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

async function writeBatch(
  target: Target,
  batch: readonly Ready[],
  counts: CollectionSummary,
  skip: Skip,
  refused: Refused,
): Promise<void> {
  if (batch.length === 0) return;
  // References: every record pointed at must be here already (imported earlier in this run, or before).
  const wanted = new Map<Table, Set<string>>();
  for (const p of batch)
    for (const r of p.mapped.references) wanted.set(r.table, (wanted.get(r.table) ?? new Set()).add(r.id));
  const found = new Map<Table, Set<string>>();
  for (const [table, ids] of wanted) found.set(table, await target.existing(table, [...ids]));
  const ready: Ready[] = [];
  for (const p of batch) {
    const missing = p.mapped.references.find((r) => !found.get(r.table)?.has(r.id));
    if (!missing) {
      ready.push(p);
      continue;
    }
    const pointed = COLLECTION_OF_TABLE[missing.table];
    const where = refused.where(pointed, missing.id);
    skip(
      p,
      'REFERENCE_MISSING',
      missing.table === 'merchants'
        ? `merchant ${missing.id} is not a merchant here`
        : where
          ? `${missing.field} ${missing.id} names a ${pointed} record this import refused (${where})`
          : `${missing.field} ${missing.id} names no ${pointed} record: neither in the export nor here`,
      {
        field: missing.field,
        value: missing.id,
        hint:
          missing.table === 'merchants'
            ? `map it with --merchant ${missing.id}=<merchant id here>`
            : where
              ? `correct the ${pointed} record at ${where} and run the import again: this record follows it`
              : `add the ${pointed} export to the import (or import it first), then run the import again`,
      },
    );
  }
  if (ready.length === 0) return;
  const count = (inserted: Set<string>, written: readonly Ready[]) => {
    for (const p of written) {
      if (!inserted.has(p.mapped.id)) counts.unchanged += 1;
      else {
        counts.imported += 1;
        if (p.changed) counts.importedWithChanges += 1;
      }
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
        skip(p, refusal.code, refusal.reason, {
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
