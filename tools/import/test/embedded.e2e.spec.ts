import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeSample, type SampleSizes } from '../src/sample';
import { reportLines, spawnImport, startApi } from './support';

const SIZES: SampleSizes = {
  regions: 2,
  assemblies: 4,
  assemblyusers: 4,
  transportunions: 3,
  stations: 3,
  vehicleowners: 10,
  drivers: 8,
  vehicles: 9,
  trips: 10,
  transactions: 3,
};

interface Summary {
  collections: Record<string, { read: number; imported: number; unchanged: number; skipped: number }>;
}
const summaryOf = (report: string) => (reportLines(report).at(-1) as { summary: Summary }).summary;

// `npm run import -- DIR` with no DATABASE_URL: the embedded database `npm start` serves (DATA_DIR), opened by the
// service's own command with the migrations applied, and refused while the service holds it.
describe('importing into the embedded database, the default without DATABASE_URL', () => {
  jest.setTimeout(300_000);
  const work = mkdtempSync(join(tmpdir(), 'transport-embedded-import-'));
  const folder = join(work, 'export');
  const dataDir = join(work, 'data');

  beforeAll(async () => {
    await writeSample(folder, SIZES);
  });

  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('creates the database in DATA_DIR with the migrations applied, imports, and changes nothing the second time', () => {
    const first = spawnImport(['--report', join(work, 'first.jsonl'), folder], { DATA_DIR: dataDir });
    expect([first.status, first.stderr]).toEqual([
      0,
      expect.stringContaining(`into the embedded database in ${dataDir}`),
    ]);
    expect(first.stdout).toMatch(/records imported in/);
    const imported = summaryOf(join(work, 'first.jsonl')).collections;
    // Every record but the transactions, whose merchant is not here.
    for (const [collection, size] of Object.entries(SIZES))
      expect([collection, imported[collection].imported]).toEqual([
        collection,
        collection === 'transactions' ? 0 : size,
      ]);
    // The database was closed cleanly: nothing claims the directory any more.
    expect(existsSync(join(dataDir, 'server.json'))).toBe(false);

    const second = spawnImport(['--report', join(work, 'second.jsonl'), folder], { DATA_DIR: dataDir });
    expect(second.status).toBe(0);
    expect(second.stdout).toContain('nothing changed');
    const again = summaryOf(join(work, 'second.jsonl')).collections;
    expect(again.vehicles).toMatchObject({ imported: 0, unchanged: SIZES.vehicles });
    expect(again.trips).toMatchObject({ imported: 0, unchanged: SIZES.trips });
  });

  it('refuses, saying why, while the service holds the database, and serves what it imported', async () => {
    const key = 'embedded-import-admin-key-0123456789abcdef0123';
    const api = await startApi({ DATA_DIR: dataDir, ADMIN_API_KEY: key });
    try {
      const refused = spawnImport(['--report', join(work, 'refused.jsonl'), folder], { DATA_DIR: dataDir });
      expect(refused.status).toBe(1);
      expect(refused.stderr).toContain(
        `the embedded database in ${dataDir} is held by process ${api.child.pid} (the service, or another tool): stop it first`,
      );
      // What the import wrote is what the service serves.
      const res = await fetch(`${api.base}/stations/all?count=true&limit=1`, { headers: { authorization: key } });
      expect([res.status, res.headers.get('x-total-count')]).toEqual([200, String(SIZES.stations)]);
    } finally {
      api.child.kill('SIGKILL');
      await new Promise((resolve) => api.child.once('exit', resolve));
    }
  });
});
