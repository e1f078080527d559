import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { isObjectId } from '@transport/domain';
import { DATE_ORDERS, type DateOrder } from './caster';
import { openEmbeddedDatabase, type EmbeddedTarget } from './embedded';
import { runImport, type ImportSummary, type Progress } from './importer';
import { writeDumpArchive, writeDumpFolder } from './dump';
import { documents, SAMPLE_100K, writeSample, type SampleSizes } from './sample';
import { readValueMap, writeValueMap, type ValueMap } from './value-reader';

const USAGE = `Imports the original service's mongoexport files (JSON lines or a JSON array, Extended JSON) and
mongodump backups (a dump folder of .bson files, gzipped or not, or an --archive file, gzipped or not).

  npm run import -- [options] <file or folder>...
  npm run import -- sample <folder> [--scale 1] [--trips N]     writes a sample export in the original's shapes
      [--format json|dump|archive] [--gzip]                   ... or the same records as mongodump writes them

Options:
  --dry-run                 validate and report; write nothing
  --report <file>           the report, JSON lines (default: import-report.jsonl)
  --merchant <old>=<new>    the merchant here of the original's merchant <old> (repeatable)
  --batch <n>               records per transaction (default 500)
  --database-url <url>      PostgreSQL (default: DATABASE_URL; neither: the embedded database in DATA_DIR,
                            the one npm start serves, with the migrations applied; not while the service runs)
  --map <file>              values here for the original's values people typed (JSON or YAML:
                            field -> original value -> value here); overrides and extends the normaliser;
                            its fields section renames fields: collection.oldName (or oldName) -> name here
  --write-map <file>        write the values no rule placed to this mapping file, to fill in (.yaml with notes)
  --summary <file>          the summary as JSON (default: beside the report, <report>.summary.json)
  --strict                  refuse a JSON file that names no collection (otherwise skipped, listed)
  --date-order dmy|mdy      how dates written with slashes (05/03/2027) are read: day first (default) or
                            month first; each one read is in the report with the date stored

Files are matched to collections by name (regions, assemblies, assemblyusers, transportunions, stations,
vehicleowners, drivers, vehicles, trips, transactions; parts such as trips-2023.json too) or by their records, and
imported in that order; other files are skipped and listed. See docs/importing.md.`;

/** A progress line: how far, how fast, how long to go (by bytes of the files read). */
export function progressLine(p: Progress, now = Date.now()): string {
  const seconds = Math.max((now - p.startedAt) / 1000, 0.001);
  const fraction = p.bytesTotal === 0 ? 1 : p.bytesRead / p.bytesTotal;
  const rate = Math.round(p.records / seconds);
  const eta = fraction > 0 ? Math.max(0, Math.round(seconds / fraction - seconds)) : undefined;
  const clock = (s: number) => `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
  return (
    `[import] ${p.collection}: ${(fraction * 100).toFixed(1)}%, ${p.records.toLocaleString('en')} records, ` +
    `${rate.toLocaleString('en')}/s, ETA ${eta === undefined ? '?' : clock(eta)}`
  );
}

export function summaryTable(summary: ImportSummary): string {
  const head = [
    'collection',
    'read',
    summary.dryRun ? 'would import' : 'imported',
    'with changes',
    'already here',
    'skipped',
    'refused',
    'reasons',
  ];
  const rows = Object.entries(summary.collections).map(([name, c]) => [
    name,
    String(c.read),
    String(c.imported),
    String(c.importedWithChanges),
    String(c.unchanged),
    String(c.skipped),
    String(c.refused),
    Object.entries(c.reasons)
      .map(([code, n]) => `${code} ${n}`)
      .join(', '),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => cell.padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  const changed = Object.values(summary.collections).reduce((n, c) => n + c.imported + c.replaced, 0);
  const cast = Object.entries(summary.collections).flatMap(([name, c]) =>
    Object.entries(c.cast).map(([field, n]) => `${name}.${field} ${n}`),
  );
  const replaced = Object.entries(summary.collections)
    .filter(([, c]) => c.replaced > 0)
    .map(([name, c]) => `${name} ${c.replaced}`);
  const folded = Object.entries(summary.collections).flatMap(([name, c]) =>
    Object.entries(c.folded).map(([field, n]) => `${name}.${field} ${n}`),
  );
  return [
    ...summary.files.map((f) => `${f.file} read as ${f.collection} ${f.by}: ${f.read} records`),
    line(head),
    ...rows.map(line),
    ...(folded.length > 0 ? [`values folded to the domain's (see the report): ${folded.join(', ')}`] : []),
    ...(cast.length > 0 ? [`values cast as the original's schema cast them (see the report): ${cast.join(', ')}`] : []),
    ...(replaced.length > 0
      ? [`older copies here replaced by newer ones (see the report): ${replaced.join(', ')}`]
      : []),
    ...summary.skippedFiles.map((f) => `skipped ${f.file}: ${f.reason}`),
    summary.dryRun
      ? `dry run: nothing written (${summary.seconds.toFixed(1)} s)`
      : changed === 0
        ? `nothing changed: every record read is already here or skipped (${summary.seconds.toFixed(1)} s)`
        : `${changed} record${changed === 1 ? '' : 's'} imported in ${summary.seconds.toFixed(1)} s`,
    `${summary.recordsPerSecond.toLocaleString('en')} records/s, peak memory ${summary.peakMemoryMb} MB`,
    ...unplacedTable(summary),
  ].join('\n');
}

/** Where the summary's machine-readable copy goes by default: beside the report (`x.jsonl` -> `x.summary.json`). */
export const summaryPathFor = (reportPath: string) => `${reportPath.replace(/\.jsonl?$/i, '')}.summary.json`;

/** Each distinct value no rule or mapping placed, per field, with its count and an example id. */
export function unplacedTable(summary: ImportSummary): string[] {
  if (summary.unplaced.length === 0) return [];
  const head = ['field', 'value', 'records', 'example id'];
  const rows = summary.unplaced.map((u) => [u.field, JSON.stringify(u.value), String(u.records), u.example ?? '']);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => cell.padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  return [
    '',
    `values not placed (${summary.unplaced.length}): map them with --map (--write-map writes a file to fill in)`,
    line(head),
    ...rows.map(line),
  ];
}

async function sample(args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      scale: { type: 'string' },
      trips: { type: 'string' },
      format: { type: 'string' },
      gzip: { type: 'boolean' },
    },
  });
  if (positionals.length !== 1) throw new Error('sample takes one folder (or, with --format archive, one file)');
  const format = values.format ?? 'json';
  if (!['json', 'dump', 'archive'].includes(format)) throw new Error('--format must be json, dump or archive');
  if (values.gzip && format === 'json') throw new Error('--gzip is for --format dump or archive');
  const scale = Number(values.scale ?? 1);
  const sizes = Object.fromEntries(
    Object.entries(SAMPLE_100K).map(([k, v]) => [k, Math.max(1, Math.round(v * scale))]),
  ) as unknown as SampleSizes;
  if (values.trips !== undefined) sizes.trips = Number(values.trips);
  if (format === 'json') {
    const n = await writeSample(positionals[0], sizes);
    console.log(`[import] sample export of ${n} records written to ${positionals[0]}`);
    return;
  }
  const collections = Object.fromEntries(
    (Object.keys(sizes) as Array<keyof SampleSizes>).map((c) => [c, documents(c, sizes)]),
  );
  const options = { gzip: values.gzip === true };
  if (format === 'dump') await writeDumpFolder(positionals[0], collections, options);
  else await writeDumpArchive(positionals[0], collections, options);
  const n = Object.values(sizes).reduce((sum: number, k: number) => sum + k, 0);
  console.log(
    `[import] sample of ${n} records written to ${positionals[0]} as mongodump ${format === 'dump' ? '--out' : '--archive'}${options.gzip ? ' --gzip' : ''} would`,
  );
}

async function main(argv: string[]): Promise<number> {
  if (argv[0] === 'sample') {
    await sample(argv.slice(1));
    return 0;
  }
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      'dry-run': { type: 'boolean' },
      report: { type: 'string' },
      merchant: { type: 'string', multiple: true },
      batch: { type: 'string' },
      'database-url': { type: 'string' },
      map: { type: 'string' },
      'write-map': { type: 'string' },
      summary: { type: 'string' },
      strict: { type: 'boolean' },
      'date-order': { type: 'string' },
      help: { type: 'boolean' },
    },
  });
  if (values.help || positionals.length === 0) {
    console.log(USAGE);
    return values.help ? 0 : 2;
  }
  const given = values['database-url'] || process.env.DATABASE_URL || undefined;
  const merchants = new Map<string, string>();
  for (const pair of values.merchant ?? []) {
    const [from, to] = pair.split('=');
    if (!isObjectId(from) || !isObjectId(to))
      throw new Error(`--merchant ${pair}: expected <original id>=<merchant id here>, both 24 hex digits`);
    merchants.set(from, to);
  }
  const batchSize = values.batch === undefined ? undefined : Number(values.batch);
  if (batchSize !== undefined && !(Number.isInteger(batchSize) && batchSize >= 1 && batchSize <= 10_000))
    throw new Error('--batch must be a whole number from 1 to 10000');
  const dateOrder = (values['date-order'] ?? 'dmy') as DateOrder;
  if (!DATE_ORDERS.includes(dateOrder))
    throw new Error(`--date-order ${values['date-order']}: expected dmy (day first, 05/03/2027 is 5 March) or mdy`);
  const reportPath = values.report ?? 'import-report.jsonl';
  // The mapping file's `fields` section renames fields (field-map.ts); every other key maps values.
  const { fields: fieldMap, ...valueMap }: ValueMap = values.map === undefined ? {} : readValueMap(values.map);
  if (fieldMap !== undefined && (fieldMap === null || typeof fieldMap !== 'object' || Array.isArray(fieldMap)))
    throw new Error(`--map ${values.map}: fields must map an original field name to the name here`);
  // On a terminal one line, rewritten on stdout; otherwise (a log, CI) a plain line on stderr every five seconds.
  const tty = process.stdout.isTTY === true;
  const progress = tty ? process.stdout : process.stderr;
  // The first line after a first interval: a rate and an ETA from the first small batch would mislead.
  let last = Date.now();
  // Opened after every argument is checked: a mistyped option must not wait for the embedded database to start.
  let databaseUrl = given;
  let embedded: EmbeddedTarget | undefined;
  if (!databaseUrl) {
    embedded = await openEmbeddedDatabase();
    databaseUrl = embedded.url;
    console.error(`[import] into the embedded database in ${embedded.dataDir}`);
  }
  let summary: ImportSummary;
  try {
    summary = await runImport({
      databaseUrl,
      // The embedded server serves one session: one connection, so no two statements of ours ever interleave.
      connections: embedded ? 1 : 2,
      inputs: positionals,
      reportPath,
      dryRun: values['dry-run'] === true,
      merchants,
      batchSize,
      valueMap,
      fieldMap,
      strict: values.strict === true,
      dateOrder,
      onProgress: (p) => {
        const now = Date.now();
        if (now - last < (tty ? 200 : 5000)) return;
        last = now;
        progress.write(tty ? `\r${progressLine(p, now)}\x1b[K` : `${progressLine(p, now)}\n`);
      },
    });
  } finally {
    await embedded?.close();
  }
  if (tty) process.stdout.write('\r\x1b[K');
  console.log(summaryTable(summary));
  console.log(`[import] report: ${reportPath}`);
  const summaryPath = values.summary ?? summaryPathFor(reportPath);
  writeFileSync(summaryPath, `${JSON.stringify(summary, null, 2)}\n`);
  console.log(`[import] summary (JSON): ${summaryPath}`);
  if (values['write-map'] !== undefined) {
    writeValueMap(values['write-map'], summary.unplaced, fieldMap ? { fields: fieldMap, ...valueMap } : valueMap);
    console.log(
      `[import] mapping file: ${values['write-map']} (${summary.unplaced.length} value${summary.unplaced.length === 1 ? '' : 's'} to fill in)`,
    );
  }
  const read = Object.values(summary.collections).reduce((n, c) => n + c.read, 0);
  if (read === 0) {
    const files = summary.files.map((f) => f.file).join(', ');
    console.error(`[import] nothing to import: no records in ${files}; every file taken is empty`);
    return 1;
  }
  return 0;
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: Error) => {
      console.error(`[import] ${error.message}`);
      process.exit(1);
    },
  );
}
