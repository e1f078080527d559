import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SAMPLE_MERCHANT } from '../src/sample';
import { admin, fingerprint, migratedDatabase, query, runImport, spawnImport, TABLES } from './support';

// The repository's sample, as operators hand it over: its JSON export (`npm run import -- sample`), the same records
// as a mongodump backup in each of its forms (folder, --gzip, --archive, --archive --gzip, written by the sample
// command in mongodump's format), exported in parts under the names people give parts, and saved by Windows tools.
// Each form must import to exactly the database the JSON export gives, table by table.
const SCALE = '0.03';

describe('every form of the same export imports to the same database', () => {
  const name = `import_forms_${process.pid}`;
  const work = mkdtempSync(join(tmpdir(), 'transport-forms-'));
  const merchant = 'abc000000000000000000001';
  const json = join(work, 'json');
  let url: string;
  let expected: Record<string, string>;

  const sample = (...args: string[]) => {
    const result = spawnImport(['sample', ...args, '--scale', SCALE], {});
    if (result.status !== 0) throw new Error(`sample failed:\n${result.stdout}${result.stderr}`);
  };
  const importInto = async (...inputs: string[]) => {
    await query(url, `TRUNCATE ${TABLES.map((t) => `"${t}"`).join(', ')} CASCADE`);
    await query(
      url,
      `INSERT INTO merchants (id, name, "signingSecret", "updatedAt") VALUES ($1, 'M', 's', now()) ON CONFLICT DO NOTHING`,
      [merchant],
    );
    const out = runImport(
      ['--merchant', `${SAMPLE_MERCHANT}=${merchant}`, '--report', join(work, 'report.jsonl'), ...inputs],
      url,
    );
    return { out, tables: await fingerprint(url) };
  };

  beforeAll(async () => {
    url = await migratedDatabase(name);
    sample(json);
    expected = (await importInto(json)).tables;
    expect(Number(expected.trips.split(':')[0])).toBeGreaterThan(1000);
  });

  afterAll(async () => {
    await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    rmSync(work, { recursive: true, force: true });
  });

  it.each([
    ['a mongodump folder', ['--format', 'dump'], 'dump'],
    ['a mongodump folder with --gzip', ['--format', 'dump', '--gzip'], 'dump-gz'],
    ['a mongodump --archive', ['--format', 'archive'], 'backup.archive'],
    ['a mongodump --archive --gzip', ['--format', 'archive', '--gzip'], 'backup.archive.gz'],
  ])('%s of the sample', async (_, args, target) => {
    sample(join(work, target), ...args);
    const { out, tables } = await importInto(join(work, target));
    expect(out).not.toMatch(/nothing changed/);
    expect(tables).toEqual(expected);
  });

  it('the sample exported in parts, each part named as people name them', async () => {
    const parts = join(work, 'parts');
    mkdirSync(parts);
    for (const file of readdirSync(json)) {
      const collection = file.replace(/\.json$/, '');
      const text = readFileSync(join(json, file), 'utf8');
      if (collection === 'regions') {
        writeFileSync(join(parts, file), text); // a JSON array: one part
        continue;
      }
      const lines = text.trimEnd().split('\n');
      const third = Math.ceil(lines.length / 3);
      const names = [`${collection}-2023.json`, `${collection}_2024.json`, `transport.${collection}.json`];
      names.forEach((part, i) =>
        writeFileSync(join(parts, part), `${lines.slice(i * third, (i + 1) * third).join('\n')}\n`),
      );
    }
    const { out, tables } = await importInto(parts);
    expect(tables).toEqual(expected);
    expect(out).toMatch(/trips-2023\.json read as trips by its name \("trips"; "2023" read as a part of it\)/);
  });

  it('the sample saved by Windows tools: a byte-order mark, CRLF line ends, UTF-16 for some files', async () => {
    const windows = join(work, 'windows');
    mkdirSync(windows);
    for (const [i, file] of readdirSync(json).entries()) {
      const text = `\uFEFF${readFileSync(join(json, file), 'utf8').replace(/\n/g, '\r\n')}`;
      writeFileSync(join(windows, file), i % 3 === 0 ? Buffer.from(text, 'utf16le') : Buffer.from(text));
    }
    expect((await importInto(windows)).tables).toEqual(expected);
  });

  it('refuses a folder that yields nothing, saying why, with a failing exit status', () => {
    const empty = join(work, 'nothing');
    mkdirSync(empty);
    writeFileSync(join(empty, 'trips.csv'), '_id,ticketNumber\n');
    const result = spawnImport(['--dry-run', '--report', join(work, 'r.jsonl'), empty], { DATABASE_URL: url });
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/nothing to import: .*trips\.csv: not an export file/);
  });
});
