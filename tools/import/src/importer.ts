import { once } from 'node:events';
import { createWriteStream, readdirSync, statSync, type WriteStream } from 'node:fs';
import { basename, join } from 'node:path';
import pg from 'pg';
import {
  COLLECTIONS,
  collectionOfFile,
  mappableFields,
  type Collection,
  type Mapped,
  type Row,
  type Table,
} from './collections';
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
  unchanged: number;
  skipped: number;
  /** Skipped records by reason code. */
  reasons: Partial<Record<RefusalCode, number>>;
  /** Fields of the original that nothing here maps, with how many records had each. */
  unknownFields: Record<string, number>;
  /** Fields read and deliberately not kept (see the collection's notCarried), with how many records had each. */
  notCarried: Record<string, number>;
  /** Values people typed that were changed to the domain's (by the normaliser or the mapping), per field. */
  folded: Record<string, number>;
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

/** The database side of an import: reference checks and idempotent, all-or-nothing batch writes. */
class Target {
  private columns = new Map<string, Set<string>>();
  /** Dry run: ids this run would have written, for references between collections. */
  private readonly wouldWrite = new Map<Table, Set<string>>();

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
    const { rows } = await this.pool.query<{ id: string }>(
      `SELECT id FROM ${quote(table)} WHERE id = ANY($1::bpchar[])`,
      [ids],
    );
    const found = new Set(rows.map((r) => r.id));
    for (const id of ids) if (this.wouldWrite.get(table)?.has(id)) found.add(id);
    return found;
  }

  /** The records' rows, written in one transaction; the ids actually inserted (an id already present is left). */
  async write(records: readonly Mapped[]): Promise<Set<string>> {
    if (this.dryRun) {
      const table = records[0].rows[0].table;
      const present = await this.existing(
        table,
        records.map((r) => r.id),
      );
      const set = this.wouldWrite.get(table) ?? new Set<string>();
      this.wouldWrite.set(table, set);
      const fresh = records.filter((r) => !present.has(r.id)).map((r) => r.id);
      for (const id of fresh) set.add(id);
      return new Set(fresh);
    }
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const inserted = await this.insert(
        client,
        records.map((r) => r.rows[0]),
      );
      // Rows that belong to a record (a trip's service) follow it only when the record itself was inserted.
      const dependents = records.filter((r) => inserted.has(r.id)).flatMap((r) => r.rows.slice(1));
      const byTable = new Map<Table, Row[]>();
      for (const row of dependents) byTable.set(row.table, [...(byTable.get(row.table) ?? []), row]);
      for (const rows of byTable.values()) await this.insert(client, rows);
      await client.query('COMMIT');
      return inserted;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
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
  skipped: 0,
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
  const { files, skipped: skippedFiles } = inputFiles(options.inputs, options.strict === true);
  const values = new ValueReader(options.valueMap, mappableFields());
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
        await writeBatch(target, batch, counts, skip);
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
    report.line({ summary });
    return summary;
  } finally {
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
  skip: (p: Pending, code: RefusalCode, reason: string) => void,
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

async function writeBatch(
  target: Target,
  batch: readonly Ready[],
  counts: CollectionSummary,
  skip: (p: Pending, code: RefusalCode, reason: string) => void,
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
    if (missing)
      skip(
        p,
        'REFERENCE_MISSING',
        missing.table === 'merchants'
          ? `merchant ${missing.id} is not a merchant here: map it with --merchant ${missing.id}=<merchant id here>`
          : `${missing.field} ${missing.id} names no ${missing.table} record (not in the export, skipped, or not here)`,
      );
    else ready.push(p);
  }
  if (ready.length === 0) return;
  const count = (inserted: Set<string>, written: readonly Ready[]) => {
    for (const p of written) {
      if (inserted.has(p.mapped.id)) counts.imported += 1;
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
        skip(p, refusal.code, refusal.reason);
      }
    }
  }
}
