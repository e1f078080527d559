import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { writeDumpArchive, writeDumpFolder } from './dump';
import { archiveCollections } from './bson-reader';
import { readRecords, type ReadItem, type Source } from './reader';

const doc = (n: number) => ({
  _id: { $oid: n.toString(16).padStart(24, '0') },
  amount: { $numberDecimal: '12.50' },
  count: { $numberLong: '42' },
  at: { $date: { $numberLong: String(1_600_000_000_000 + n) } },
  tags: ['a', { deep: { $oid: 'f'.repeat(24) } }],
});
const plain = (n: number) => ({
  _id: n.toString(16).padStart(24, '0'),
  amount: 12.5,
  count: 42,
  at: new Date(1_600_000_000_000 + n),
  tags: ['a', { deep: 'f'.repeat(24) }],
});
const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

async function read(source: Source): Promise<ReadItem[]> {
  const out: ReadItem[] = [];
  for await (const item of (await readRecords(source)).records) out.push(item);
  return out;
}

describe('reading mongodump backups', () => {
  let folder: string;
  beforeEach(() => (folder = mkdtempSync(join(tmpdir(), 'dump-'))));
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  it('reads a collection’s .bson file, gzipped or not, as the same plain values as its Extended JSON', async () => {
    for (const gzip of [false, true]) {
      await writeDumpFolder(join(folder, String(gzip)), { trips: range(1, 4).map(doc) }, { gzip });
      const path = join(folder, String(gzip), 'transport', `trips.bson${gzip ? '.gz' : ''}`);
      expect(await read({ kind: 'bson', path, gzip })).toEqual(
        range(1, 4).map((n) => ({ doc: plain(n), position: `document ${n}` })),
      );
    }
  });

  it('says a .bson file was cut short at its document, after the whole ones', async () => {
    await writeDumpFolder(folder, { trips: range(1, 4).map(doc) });
    const path = join(folder, 'transport', 'trips.bson');
    const bytes = readFileSync(path);
    writeFileSync(path, bytes.subarray(0, bytes.length - 10));
    const items = await read({ kind: 'bson', path, gzip: false });
    expect(items.map((i) => ('doc' in i ? i.doc._id : `${i.code}: ${i.error}`))).toEqual([
      plain(1)._id,
      plain(2)._id,
      expect.stringMatching(/^CUT_SHORT: the export was cut short at document 3 \(byte \d+ of \d+\)/),
    ]);
  });

  it('lists an archive’s collections and reads one collection out of interleaved segments, gzipped or not', async () => {
    for (const gzip of [false, true]) {
      const path = join(folder, `all.archive${gzip ? '.gz' : ''}`);
      const trips = range(1, 26).map(doc);
      await writeDumpArchive(path, { drivers: range(100, 110).map(doc), trips, empty: [] }, { gzip, segment: 4 });
      expect(await archiveCollections(path)).toEqual({
        gzip,
        collections: [
          { db: 'transport', collection: 'drivers', size: expect.any(Number) },
          { db: 'transport', collection: 'trips', size: expect.any(Number) },
          { db: 'transport', collection: 'empty', size: 0 },
        ],
      });
      const items = await read({ kind: 'archive', path, gzip, db: 'transport', collection: 'trips' });
      expect(items).toEqual(range(1, 26).map((n, i) => ({ doc: plain(n), position: `document ${i + 1}` })));
      expect(await read({ kind: 'archive', path, gzip, db: 'transport', collection: 'empty' })).toEqual([]);
    }
  });

  it('refuses an archive whose documents do not sum to its CRC, and one cut short, saying so', async () => {
    const path = join(folder, 'all.archive');
    await writeDumpArchive(path, { trips: range(1, 6).map(doc) }, { segment: 2 });
    const bytes = readFileSync(path);
    const flipped = Buffer.from(bytes);
    // The last document's tag "a" read as "b": whole BSON, other bytes than mongodump summed.
    flipped[flipped.lastIndexOf(Buffer.from([0x02, 0, 0, 0, 0x61, 0])) + 4] = 0x62;
    writeFileSync(path, flipped);
    const source: Source = { kind: 'archive', path, gzip: false, db: 'transport', collection: 'trips' };
    expect((await read(source)).at(-1)).toMatchObject({ code: 'DAMAGED', error: expect.stringMatching(/CRC/) });
    writeFileSync(path, gzipSync(bytes.subarray(0, bytes.length - 30)));
    const cut = await read({ ...source, gzip: true });
    expect(cut.at(-1)).toMatchObject({ code: 'CUT_SHORT', error: expect.stringMatching(/^the export was cut short/) });
  });
});
