import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeDumpArchive, writeDumpFolder } from './dump';
import { inputFiles } from './input-files';
import { documents, SAMPLE_100K, type SampleSizes } from './sample';

const SIZES: SampleSizes = { ...SAMPLE_100K, trips: 3, drivers: 2, vehicles: 2 };
const lines = (collection: keyof SampleSizes) =>
  [...documents(collection, SIZES)].map((d) => `${JSON.stringify(d)}\n`).join('');

describe('matching the files of an export to collections', () => {
  let folder: string;
  beforeEach(() => (folder = mkdtempSync(join(tmpdir(), 'input-files-'))));
  afterEach(() => rmSync(folder, { recursive: true, force: true }));
  const taken = async (...inputs: string[]) => {
    const { files, skipped } = await inputFiles(inputs.length > 0 ? inputs : [folder]);
    return {
      files: files.map((f) => [f.name.slice(folder.length + 1), f.collection.name, f.by]),
      skipped: skipped.map((s) => [s.file.slice(folder.length + 1), s.reason]),
    };
  };

  it('reads every part of a collection exported in parts, under any common naming, and says which name it took', async () => {
    for (const name of [
      'trips-2023.json',
      'trips_2024.jsonl',
      'transport.trips.json',
      'Trips (2).json',
      'TRIPS.part-3.ndjson',
    ])
      writeFileSync(join(folder, name), lines('trips'));
    writeFileSync(join(folder, 'vehicle-owners.json'), lines('vehicleowners'));
    const { files, skipped } = await taken();
    expect(skipped).toEqual([]);
    expect(files).toEqual([
      ['vehicle-owners.json', 'vehicleowners', 'by its name ("vehicle-owners")'],
      ['TRIPS.part-3.ndjson', 'trips', 'by its name ("TRIPS"; "part-3" read as a part of it)'],
      ['Trips (2).json', 'trips', 'by its name ("Trips"; "2" read as a part of it)'],
      ['transport.trips.json', 'trips', 'by its name ("trips") and its records (the rest, "transport", names nothing)'],
      ['trips-2023.json', 'trips', 'by its name ("trips"; "2023" read as a part of it)'],
      ['trips_2024.jsonl', 'trips', 'by its name ("trips"; "2024" read as a part of it)'],
    ]);
  });

  it('matches a file whose name names nothing by its records, and refuses a name its records contradict', async () => {
    writeFileSync(join(folder, 'export-7.json'), lines('trips'));
    writeFileSync(
      join(folder, 'driver_locations.json'),
      '{"_id":{"$oid":"5a0000000000000000000009"},"lat":5.6,"lng":-0.2,"heading":3,"speed":40}\n',
    );
    writeFileSync(join(folder, 'merchants.json'), '{"_id":{"$oid":"5a0000000000000000000001"},"name":"Rides"}\n');
    const { files, skipped } = await taken();
    expect(files).toEqual([
      ['export-7.json', 'trips', expect.stringMatching(/^by its records \(\d+ of \d+ fields are trips'\)$/)],
    ]);
    expect(skipped).toEqual([
      [
        'driver_locations.json',
        expect.stringMatching(
          /^its name says drivers \("driver"\), but its records are not drivers'.*heading, lat, lng, speed/,
        ),
      ],
      ['merchants.json', 'names no collection imported here, and its records are not of one (fields: name)'],
    ]);
  });

  it('reads a mongodump folder (plain or gzipped) and archive, listing what it does not read', async () => {
    await writeDumpFolder(join(folder, 'dump'), { trips: documents('trips', SIZES), sessions: [] });
    await writeDumpFolder(join(folder, 'gz'), { drivers: documents('drivers', SIZES) }, { gzip: true });
    await writeDumpArchive(
      join(folder, 'backup.archive.gz'),
      { vehicles: documents('vehicles', SIZES) },
      { gzip: true },
    );
    const { files, skipped } = await taken();
    expect(files).toEqual([
      ['gz/transport/drivers.bson.gz', 'drivers', 'by its name ("drivers")'],
      ['backup.archive.gz#transport.vehicles', 'vehicles', 'by its name ("vehicles")'],
      ['dump/transport/trips.bson', 'trips', 'by its name ("trips")'],
    ]);
    expect(skipped).toEqual([
      ['dump/prelude.json', "mongodump's description of the dump (versions), not records"],
      ['dump/transport/sessions.bson', 'names no collection imported here, and holds no records'],
      ['dump/transport/sessions.metadata.json', "mongodump's collection metadata (indexes), not records"],
      ['dump/transport/trips.metadata.json', "mongodump's collection metadata (indexes), not records"],
      ['gz/prelude.json', "mongodump's description of the dump (versions), not records"],
      ['gz/transport/drivers.metadata.json.gz', "mongodump's collection metadata (indexes), not records"],
    ]);
  });

  it('refuses a folder or file that yields nothing to import, saying why', async () => {
    mkdirSync(join(folder, 'empty'));
    await expect(inputFiles([join(folder, 'empty')])).rejects.toThrow(/empty: nothing to import: the folder is empty/);
    writeFileSync(join(folder, 'notes.txt'), 'exported 2024-06-01\n');
    writeFileSync(join(folder, 'sessions.json'), '{"_id":"x","expires":1}\n');
    await expect(inputFiles([folder])).rejects.toThrow(
      /nothing to import: .*notes\.txt: not an export file.*sessions\.json: names no collection imported here/s,
    );
    await expect(inputFiles([join(folder, 'sessions.json')])).rejects.toThrow(/sessions\.json: nothing to import/);
  });
});
