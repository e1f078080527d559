import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { documents, SAMPLE_MERCHANT, sampleId, writeSample, type SampleSizes } from '../src/sample';
import { admin, fingerprint, migratedDatabase, query, reportLines, runImport } from './support';

// A small export with one refusal of each kind an operator must act on, and what points at the refused: the report
// must name the file, line, record id, field, value read and what to do; the dry run must find what the import finds.
const SIZES: SampleSizes = {
  regions: 2,
  assemblies: 4,
  assemblyusers: 4,
  transportunions: 3,
  stations: 3,
  vehicleowners: 10,
  drivers: 8,
  vehicles: 10,
  trips: 10,
  transactions: 6,
};
const BAD_OWNER = 'bad000000000000000000021';

function more(collection: keyof SampleSizes, changes: object[]): object[] {
  const all = [...documents(collection, { ...SIZES, [collection]: SIZES[collection] + changes.length })];
  return all.slice(SIZES[collection]).map((doc, i) => ({ ...doc, ...changes[i] }));
}

const EXTRA = {
  vehicleowners: [
    {
      _id: { $oid: BAD_OWNER },
      name: 'Short Phone',
      phone: '12',
      email: 'short@example.com',
      idType: 'ghana_card',
      idNumber: 'GHA-77',
    },
  ],
  // Two vehicles with one plate (the second is refused, naming the first), and one whose owner was refused.
  vehicles: more('vehicles', [
    { registrationNumber: 'GR 9999-24', driver: null, approved: false },
    { registrationNumber: 'GR 9999-24', driver: null, approved: false },
    { ownerID: { $oid: BAD_OWNER }, registrationNumber: 'GR 9998-24', driver: null, approved: false },
  ]),
  trips: more('trips', [{ createdAt: 'yesterday' }]),
};
const ID = {
  firstPlate: sampleId(8, SIZES.vehicles),
  secondPlate: sampleId(8, SIZES.vehicles + 1),
  ownerless: sampleId(8, SIZES.vehicles + 2),
  trip: sampleId(9, SIZES.trips),
};

type Line = Record<string, unknown>;
interface Counts {
  read: number;
  imported: number;
  importedWithChanges: number;
  unchanged: number;
  skipped: number;
  refused: number;
  reasons: Record<string, number>;
}

describe('the report and the summary say what to fix', () => {
  const name = `import_report_${process.pid}`;
  const folder = mkdtempSync(join(tmpdir(), 'transport-report-export-'));
  const work = mkdtempSync(join(tmpdir(), 'transport-report-work-'));
  const merchant = 'abc000000000000000000002';
  let url: string;
  const args = (report: string, ...more: string[]) => [
    '--merchant',
    `${SAMPLE_MERCHANT}=${merchant}`,
    '--report',
    report,
    ...more,
    folder,
  ];
  const refusal = (lines: Line[], id: string) => lines.find((l) => l.id === id && l.code);

  beforeAll(async () => {
    url = await migratedDatabase(name);
    await query(url, `INSERT INTO merchants (id, name, "signingSecret", "updatedAt") VALUES ($1, 'M', 's', now())`, [
      merchant,
    ]);
    await writeSample(folder, SIZES, EXTRA);
    // The transactions' export cut short inside its last record.
    appendFileSync(join(folder, 'transactions.json'), '{"_id": {"$oid": "bad0000000000000000000');
  });

  afterAll(async () => {
    await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    rmSync(folder, { recursive: true, force: true });
    rmSync(work, { recursive: true, force: true });
  });

  let dry: { lines: Line[]; summary: { collections: Record<string, Counts> } };

  it('a dry run finds each refusal the import will make, a value another record holds included, and writes nothing', async () => {
    const report = join(work, 'dry.jsonl');
    runImport(args(report, '--dry-run'), url);
    const lines = reportLines(report);
    dry = { lines, summary: lines.at(-1)!.summary as { collections: Record<string, Counts> } };
    expect(refusal(lines, ID.secondPlate)).toMatchObject({ code: 'DUPLICATE_VALUE' });
    expect(dry.summary.collections.vehicles).toMatchObject({ refused: 1, skipped: 1 });
    expect((await fingerprint(url)).vehicles).toMatch(/^0:/);
  });

  it('names the file, line, id, field, value read and what to do for every refusal', () => {
    const report = join(work, 'import.jsonl');
    const out = runImport(args(report), url);
    const lines = reportLines(report);
    const vehicles = join(folder, 'vehicles.json');
    const ownerLine = SIZES.vehicleowners + 1;
    expect(refusal(lines, BAD_OWNER)).toMatchObject({
      file: join(folder, 'vehicleowners.json'),
      position: `line ${ownerLine}`,
      code: 'INVALID_PHONE',
      field: 'phone',
      value: '12',
      hint: expect.stringMatching(/^correct phone in the original and export again/),
    });
    expect(refusal(lines, ID.secondPlate)).toMatchObject({
      file: vehicles,
      position: `line ${SIZES.vehicles + 2}`,
      code: 'DUPLICATE_VALUE',
      field: 'registrationNumber',
      value: 'GR 9999-24',
      hint: expect.stringContaining(`record ${ID.firstPlate} already holds this registrationNumber`),
    });
    expect(refusal(lines, ID.ownerless)).toMatchObject({
      file: vehicles,
      position: `line ${SIZES.vehicles + 3}`,
      code: 'REFERENCE_MISSING',
      field: 'ownerID',
      value: BAD_OWNER,
      reason: expect.stringContaining(
        `this import refused (${join(folder, 'vehicleowners.json')} line ${ownerLine} (INVALID_PHONE))`,
      ),
      hint: expect.stringMatching(/^correct the vehicleowners record at .* and run the import again/),
    });
    expect(refusal(lines, ID.trip)).toMatchObject({
      code: 'INVALID_FIELD',
      field: 'createdAt',
      value: 'yesterday',
    });
    expect(lines.find((l) => l.code === 'CUT_SHORT')).toMatchObject({
      file: join(folder, 'transactions.json'),
      position: `line ${SIZES.transactions + 1}`,
      reason: expect.stringMatching(/^the export was cut short at line 7/),
      hint: expect.stringMatching(/export the collection again/),
    });
    // The dry run found the same: every collection's counts but what was written.
    const summary = lines.at(-1)!.summary as { collections: Record<string, Counts> };
    for (const [collection, c] of Object.entries(summary.collections))
      expect([collection, { ...dry.summary.collections[collection] }]).toEqual([collection, c]);
    expect(summary.collections.vehicles).toMatchObject({
      read: SIZES.vehicles + 3,
      imported: SIZES.vehicles + 1,
      skipped: 1,
      refused: 1,
      reasons: { DUPLICATE_VALUE: 1, REFERENCE_MISSING: 1 },
    });
    expect(summary.collections.vehicleowners.importedWithChanges).toBeGreaterThan(0);
    // The summary's machine-readable copy beside the report, as the text says.
    const copy = join(work, 'import.summary.json');
    expect(existsSync(copy)).toBe(true);
    expect(JSON.parse(readFileSync(copy, 'utf8'))).toEqual(JSON.parse(JSON.stringify(summary)));
    expect(out).toMatch(/collection\s+read\s+imported\s+with changes\s+already here\s+skipped\s+refused\s+reasons/);
    expect(out).toMatch(/\d[\d,]* records\/s, peak memory \d+ MB/);
  });
});
