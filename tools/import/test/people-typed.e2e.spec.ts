import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseDocument } from 'yaml';
import { documents, relaxed, SAMPLE_MERCHANT, sampleId, writeSample, type SampleSizes } from '../src/sample';
import { admin, fingerprint, migratedDatabase, query, reportLines, runImport, spawnImport } from './support';

// A small export in the original's shapes whose enumerated values were typed by people: the sample's own spellings
// (which the normaliser places), a few the normaliser cannot place (which the operator maps), other collections'
// files beside it, and records in relaxed Extended JSON among canonical ones.
const SIZES: SampleSizes = {
  regions: 2,
  assemblies: 6,
  assemblyusers: 6,
  transportunions: 4,
  stations: 4,
  vehicleowners: 15,
  drivers: 12,
  vehicles: 13,
  trips: 12,
  transactions: 8,
};

/** The next records of a collection after the sample's (new ids, references into the sample), as given. */
function more(collection: keyof SampleSizes, changes: object[]): object[] {
  const all = [...documents(collection, { ...SIZES, [collection]: SIZES[collection] + changes.length })];
  // Relaxed Extended JSON ({"$date": "<ISO>"}, plain numbers) in files otherwise canonical.
  return all.slice(SIZES[collection]).map((doc, i) => relaxed({ ...doc, ...changes[i] }) as object);
}

/** Spellings no rule places: each needs the operator's word. */
const TYPED = {
  assemblies: more('assemblies', [{ type: 'Zonal Council' }]),
  vehicleowners: more('vehicleowners', [{ idType: 'Votr Crd' }, { idType: 'VOTR-CRD' }]),
  drivers: more('drivers', [{ gender: 'Fmale', licenseClass: 'Kat B' }]),
  vehicles: more('vehicles', [{ color: 'Sky-ish', type: 'Kantanka' }]),
  trips: more('trips', [{ paymentMethod: 'Hubtel Pay' }]),
  transactions: more('transactions', [{ status: 'Settled' }]),
};
const ID = {
  assembly: sampleId(2, SIZES.assemblies),
  owner: sampleId(6, SIZES.vehicleowners),
  driver: sampleId(7, SIZES.drivers),
  vehicle: sampleId(8, SIZES.vehicles),
  trip: sampleId(9, SIZES.trips),
  transaction: sampleId(10, SIZES.transactions),
};

/** What the operator writes into the mapping file. */
const ANSWERS: Record<string, Record<string, string>> = {
  'assemblies.type': { 'Zonal Council': 'district' },
  'vehicleowners.idType': { 'Votr Crd': 'voter_id' },
  'drivers.gender': { Fmale: 'female' },
  'drivers.licenseClass': { 'Kat B': 'B' },
  'vehicles.color': { 'Sky-ish': '#87CEEB' },
  'vehicles.type': { Kantanka: 'other' },
  'trips.paymentMethod': { 'Hubtel Pay': 'momo' },
  'transactions.status': { Settled: 'success' },
};

interface Summary {
  collections: Record<
    string,
    { read: number; imported: number; skipped: number; refused: number; folded: Record<string, number> }
  >;
  skippedFiles: { file: string; reason: string }[];
  unplaced: { field: string; value: string; records: number; example: string }[];
}
const summaryOf = (report: string) => (reportLines(report).at(-1) as { summary: Summary }).summary;

describe('importing an export whose values people typed', () => {
  const name = `import_typed_${process.pid}`;
  const folder = mkdtempSync(join(tmpdir(), 'transport-typed-export-'));
  const work = mkdtempSync(join(tmpdir(), 'transport-typed-work-'));
  const merchant = 'abc000000000000000000001';
  let url: string;
  let total: number;

  beforeAll(async () => {
    url = await migratedDatabase(name);
    await query(url, `INSERT INTO merchants (id, name, "signingSecret", "updatedAt") VALUES ($1, 'M', 's', now())`, [
      merchant,
    ]);
    total = await writeSample(folder, SIZES, TYPED);
    // Other collections of the same database, mongodump's metadata and a note: not this import's.
    writeFileSync(join(folder, 'merchants.json'), '{"_id":{"$oid":"5a0000000000000000000001"},"name":"Rides"}\n');
    writeFileSync(join(folder, 'sessions.jsonl'), '{"_id":"x","expires":{"$date":"2024-01-01T00:00:00Z"}}\n');
    writeFileSync(join(folder, 'vehicles.metadata.json'), '{"indexes":[]}\n');
    writeFileSync(join(folder, 'README.txt'), 'exported 2024-06-01\n');
  });

  afterAll(async () => {
    await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    rmSync(folder, { recursive: true, force: true });
    rmSync(work, { recursive: true, force: true });
  });

  const args = (...more: string[]) => ['--merchant', `${SAMPLE_MERCHANT}=${merchant}`, ...more, folder];

  it('refuses other collections’ files with --strict, naming the file', () => {
    const result = spawnImport(['--strict', ...args('--dry-run', '--report', join(work, 'strict.jsonl'))], {
      DATABASE_URL: url,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/merchants\.json: the file name names no collection.*\(--strict\)/);
  });

  it('lists what it cannot place after one dry run, and writes a mapping file to fill in', () => {
    const report = join(work, 'first.jsonl');
    const out = runImport(args('--dry-run', '--report', report, '--write-map', join(work, 'map.yaml')), url);
    const summary = summaryOf(report);
    expect(summary.unplaced.map((u) => [u.field, u.value, u.records, u.example])).toEqual(
      expect.arrayContaining([
        ['assemblies.type', 'Zonal Council', 1, ID.assembly],
        ['vehicleowners.idType', 'Votr Crd', 2, ID.owner],
        ['drivers.gender', 'Fmale', 1, ID.driver],
        ['drivers.licenseClass', 'Kat B', 1, ID.driver],
        ['vehicles.color', 'Sky-ish', 1, ID.vehicle],
        ['vehicles.type', 'Kantanka', 1, ID.vehicle],
        ['trips.paymentMethod', 'Hubtel Pay', 1, ID.trip],
        ['transactions.status', 'Settled', 1, ID.transaction],
      ]),
    );
    expect(summary.unplaced).toHaveLength(8);
    // The table ends the output; each refused record is in the report with its line, field and value.
    expect(out).toMatch(/values not placed \(8\)[\s\S]*vehicleowners\.idType\s+"Votr Crd"\s+2\s+/);
    expect(reportLines(report)).toContainEqual(
      expect.objectContaining({
        collection: 'vehicleowners',
        id: sampleId(6, SIZES.vehicleowners + 1),
        position: `line ${SIZES.vehicleowners + 2}`,
        code: 'INVALID_VALUE',
        reason: expect.stringContaining('idType "VOTR-CRD" is none of ghana_card'),
      }),
    );
    // Only the records with such a value are refused; the people's spellings the normaliser knows pass.
    expect(summary.collections.vehicleowners).toMatchObject({ read: SIZES.vehicleowners + 2, refused: 2 });
    expect(summary.collections.drivers.folded).toMatchObject({
      gender: expect.any(Number),
      idType: expect.any(Number),
    });
    expect(summary.skippedFiles.map((f) => f.file.slice(folder.length + 1))).toEqual([
      'README.txt',
      'merchants.json',
      'sessions.jsonl',
      'vehicles.metadata.json',
    ]);
    expect(out).toMatch(/skipped .*merchants\.json: names no collection imported here/);
  });

  it('places everything on a second dry run with the mapping filled in, then imports every record', async () => {
    // The operator fills in the written file (YAML with notes), keeping its notes.
    const file = join(work, 'map.yaml');
    const document = parseDocument(readFileSync(file, 'utf8'));
    for (const [field, entries] of Object.entries(ANSWERS))
      for (const [original, here] of Object.entries(entries)) {
        expect([field, original, document.getIn([field, original])]).toEqual([field, original, '']);
        document.setIn([field, original], here);
      }
    writeFileSync(file, document.toString());

    const dry = join(work, 'second.jsonl');
    const out = runImport(args('--dry-run', '--report', dry, '--map', file), url);
    expect(out).not.toContain('values not placed');
    expect(summaryOf(dry).unplaced).toEqual([]);
    for (const [collection, c] of Object.entries(summaryOf(dry).collections))
      expect([collection, c.skipped, c.refused]).toEqual([collection, 0, 0]);

    const report = join(work, 'import.jsonl');
    runImport(args('--report', report, '--map', file), url);
    const summary = summaryOf(report);
    for (const [collection, size] of Object.entries(SIZES)) {
      const typed = TYPED[collection as keyof typeof TYPED]?.length ?? 0;
      expect([collection, summary.collections[collection].imported]).toEqual([collection, size + typed]);
    }
    expect(total).toBe(Object.values(SIZES).reduce((a, b) => a + b, 0) + Object.values(TYPED).flat().length);

    // Stored as the domain's values: the operator's answers and the normaliser's.
    const one = async (sql: string, id: string) => (await query<Record<string, unknown>>(url, sql, [id]))[0];
    expect(await one('SELECT "idType" FROM vehicle_owners WHERE id = $1', ID.owner)).toEqual({ idType: 'voter_id' });
    expect(await one('SELECT "idType" FROM vehicle_owners WHERE id = $1', sampleId(6, 6))).toEqual({
      idType: 'voter_id', // "voter-id"
    });
    expect(await one('SELECT gender, "licenseClass" FROM drivers WHERE id = $1', ID.driver)).toEqual({
      gender: 'female',
      licenseClass: 'B',
    });
    expect(await one('SELECT color, type FROM vehicles WHERE id = $1', ID.vehicle)).toEqual({
      color: '#87CEEB',
      type: 'other',
    });
    expect(await one('SELECT color FROM vehicles WHERE id = $1', sampleId(8, 3))).toEqual({ color: '#808080' }); // Ash
    expect(await one('SELECT "paymentMethod" FROM trips WHERE id = $1', ID.trip)).toEqual({ paymentMethod: 'momo' });
    expect(await one('SELECT status FROM transactions WHERE id = $1', ID.transaction)).toEqual({ status: 'success' });
    expect(await one('SELECT type FROM assemblies WHERE id = $1', ID.assembly)).toEqual({ type: 'district' });

    // Each folded value once, with its count and what placed it.
    const lines = reportLines(report);
    expect(lines).toContainEqual({
      collection: 'vehicleowners',
      field: 'idType',
      folded: 'Votr Crd',
      to: 'voter_id',
      records: 1,
      by: 'mapping',
    });
    expect(lines).toContainEqual({
      collection: 'vehicles',
      field: 'color',
      folded: 'Ash',
      to: '#808080',
      records: expect.any(Number),
      by: 'normaliser',
    });
    const folded = lines.filter((l) => l.folded !== undefined);
    expect(new Set(folded.map((l) => `${l.collection}.${l.field}.${l.folded}`)).size).toBe(folded.length);
    expect(summary.collections.vehicleowners.folded.idType).toBe(
      folded.filter((l) => l.collection === 'vehicleowners').reduce((n, l) => n + (l.records as number), 0),
    );
  });

  it('changes nothing when run again with the same mapping', async () => {
    const before = await fingerprint(url);
    const out = runImport(args('--report', join(work, 'again.jsonl'), '--map', join(work, 'map.yaml')), url);
    expect(out).toContain('nothing changed');
    expect(await fingerprint(url)).toEqual(before);
  });

  it('refuses a mapping to a value that is not one of the domain’s, naming it', () => {
    const file = join(work, 'bad.json');
    writeFileSync(file, JSON.stringify({ 'drivers.gender': { Fmale: 'woman' } }));
    const result = spawnImport(args('--dry-run', '--report', join(work, 'bad.jsonl'), '--map', file), {
      DATABASE_URL: url,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('drivers.gender "Fmale" -> "woman": the value here must be one of male, female');
  });
});
