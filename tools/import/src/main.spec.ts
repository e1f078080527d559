import { progressLine, summaryTable } from './main';
import type { ImportSummary } from './importer';

const counts = (c: Partial<ImportSummary['collections'][string]>) => ({
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
  ...c,
});

describe('the importer’s terminal output', () => {
  it('shows how far, how fast and how long to go, by bytes read', () => {
    const line = progressLine(
      { collection: 'trips', file: 'trips.json', bytesRead: 250, bytesTotal: 1000, records: 50_000, startedAt: 0 },
      10_000,
    );
    // A quarter done in 10 s: 30 s to go.
    expect(line).toBe('[import] trips: 25.0%, 50,000 records, 5,000/s, ETA 0:30');
  });

  it('shows an unknown ETA before anything is read, and 100% for empty files', () => {
    const start = { collection: 'regions', file: 'r.json', records: 0, startedAt: 0 };
    expect(progressLine({ ...start, bytesRead: 0, bytesTotal: 10 }, 1000)).toContain('ETA ?');
    expect(progressLine({ ...start, bytesRead: 0, bytesTotal: 0 }, 1000)).toContain('100.0%');
  });

  it('sums up each collection (imported, with changes, already here, skipped, refused, by reason), each file taken, the speed and the memory', () => {
    const summary: ImportSummary = {
      dryRun: false,
      seconds: 1.25,
      recordsPerSecond: 4,
      peakMemoryMb: 97,
      files: [{ file: 'export/vehicles-2023.json', collection: 'vehicles', by: 'by its name ("vehicles")', read: 5 }],
      skippedFiles: [],
      unplaced: [],
      collections: {
        vehicles: counts({
          read: 5,
          imported: 1,
          importedWithChanges: 1,
          unchanged: 1,
          skipped: 1,
          refused: 2,
          reasons: { INVALID_VIN: 2, REFERENCE_MISSING: 1 },
        }),
      },
    };
    expect(summaryTable(summary).split('\n')).toEqual([
      'export/vehicles-2023.json read as vehicles by its name ("vehicles"): 5 records',
      'collection  read  imported  with changes  already here  skipped  refused  reasons',
      'vehicles    5     1         1             1             1        2        INVALID_VIN 2, REFERENCE_MISSING 1',
      '1 record imported in 1.3 s',
      '4 records/s, peak memory 97 MB',
    ]);
    summary.collections.vehicles.imported = 0;
    expect(summaryTable(summary)).toContain('nothing changed: every record read is already here or skipped');
    expect(summaryTable({ ...summary, dryRun: true })).toMatch(/would import[\s\S]*dry run: nothing written/);
  });

  it('says which values it folded, which files it skipped, and ends with each value it could not place', () => {
    const summary: ImportSummary = {
      dryRun: true,
      seconds: 2,
      recordsPerSecond: 10,
      peakMemoryMb: 90,
      files: [],
      skippedFiles: [{ file: 'export/merchants.json', reason: 'names no collection imported here' }],
      unplaced: [
        { field: 'drivers.idType', kind: 'idType', value: 'Votr Crd', records: 12, example: 'a'.repeat(24) },
        { field: 'vehicles.color', kind: 'color', value: 'Sky-ish', records: 1, example: 'b'.repeat(24) },
      ],
      collections: {
        drivers: counts({ read: 20, imported: 8, refused: 12, reasons: { INVALID_VALUE: 12 }, folded: { gender: 7 } }),
        vehicles: counts({ read: 1, refused: 1, reasons: { INVALID_VALUE: 1 }, folded: { color: 1, type: 2 } }),
      },
    };
    expect(summaryTable(summary).split('\n').slice(3)).toEqual([
      "values folded to the domain's (see the report): drivers.gender 7, vehicles.color 1, vehicles.type 2",
      'skipped export/merchants.json: names no collection imported here',
      'dry run: nothing written (2.0 s)',
      '10 records/s, peak memory 90 MB',
      '',
      'values not placed (2): map them with --map (--write-map writes a file to fill in)',
      'field           value       records  example id',
      `drivers.idType  "Votr Crd"  12       ${'a'.repeat(24)}`,
      `vehicles.color  "Sky-ish"   1        ${'b'.repeat(24)}`,
    ]);
  });
});
