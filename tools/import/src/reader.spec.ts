import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readRecords, type ReadItem } from './reader';

async function readAll(text: string): Promise<ReadItem[]> {
  const folder = mkdtempSync(join(tmpdir(), 'reader-'));
  try {
    const path = join(folder, 'vehicles.json');
    writeFileSync(path, text);
    const out: ReadItem[] = [];
    for await (const item of (await readRecords(path)).records) out.push(item);
    return out;
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

const canonical = {
  _id: { $oid: '5f1d7f3b2c9e4a0017a1b2c3' },
  createdAt: { $date: { $numberLong: '1600000000000' } },
  amount: { $numberDecimal: '12.50' },
  count: { $numberLong: '42' },
  small: { $numberInt: '7' },
  ratio: { $numberDouble: '2.5' },
  nested: { list: [{ $oid: '5f1d7f3b2c9e4a0017a1b2c4' }], at: { $date: '2020-01-01T00:00:00Z' } },
};
const plain = {
  _id: '5f1d7f3b2c9e4a0017a1b2c3',
  createdAt: new Date(1_600_000_000_000),
  amount: 12.5,
  count: 42,
  small: 7,
  ratio: 2.5,
  nested: { list: ['5f1d7f3b2c9e4a0017a1b2c4'], at: new Date('2020-01-01T00:00:00Z') },
};

describe('readRecords', () => {
  it('reads JSON lines in canonical Extended JSON as plain values, skipping blank lines', async () => {
    const items = await readAll(`${JSON.stringify(canonical)}\n\n${JSON.stringify(canonical)}\n`);
    expect(items).toEqual([
      { doc: plain, position: 'line 1' },
      { doc: plain, position: 'line 3' },
    ]);
  });

  it('reads a JSON array (mongoexport --jsonArray), with leading white space', async () => {
    const items = await readAll(
      `\n  [${JSON.stringify(canonical)},\n${JSON.stringify({ _id: { $oid: 'a'.repeat(24) } })}]`,
    );
    expect(items).toEqual([
      { doc: plain, position: 'element 1' },
      { doc: { _id: 'a'.repeat(24) }, position: 'element 2' },
    ]);
  });

  it('reports a line that is not a JSON object, and reads on', async () => {
    const items = await readAll(
      `{"_id": {"$oid": "${'b'.repeat(24)}"}}\n{oops\n[1,2]\n{"_id": {"$oid": "${'c'.repeat(24)}"}}\n`,
    );
    expect(items.map((i) => ('error' in i ? `error at ${i.position}` : i.doc._id))).toEqual([
      'b'.repeat(24),
      'error at line 2',
      'error at line 3',
      'c'.repeat(24),
    ]);
  });

  it('reads an empty file as no records', async () => {
    expect(await readAll('')).toEqual([]);
    expect(await readAll('[]')).toEqual([]);
  });
});

describe('readRecords on hostile input', () => {
  it('reports a line longer than the cap by its number and length, without holding it, and reads on', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'reader-'));
    try {
      const path = join(folder, 'vehicles.json');
      const good = `{"_id": {"$oid": "${'d'.repeat(24)}"}}`;
      writeFileSync(path, `${good}\r\n${'x'.repeat(5000)}\r\n${good}\n${'y'.repeat(300)}`);
      const out: ReadItem[] = [];
      for await (const item of (await readRecords(path, 200)).records) out.push(item);
      expect(out).toEqual([
        { doc: { _id: 'd'.repeat(24) }, position: 'line 1' },
        {
          error: 'line 2 is 5000 bytes, longer than the 200 bytes a record may be',
          code: 'LINE_TOO_LONG',
          position: 'line 2',
        },
        { doc: { _id: 'd'.repeat(24) }, position: 'line 3' },
        {
          error: 'line 4 is 300 bytes, longer than the 200 bytes a record may be',
          code: 'LINE_TOO_LONG',
          position: 'line 4',
        },
      ]);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('refuses a record with a __proto__, constructor or prototype field at any depth, naming it', async () => {
    const id = `{"$oid": "${'e'.repeat(24)}"}`;
    const items = await readAll(
      [
        `{"_id": ${id}, "__proto__": {"isAdmin": true}}`,
        `{"_id": ${id}, "owner": {"constructor": {"prototype": 1}}}`,
        `[{"_id": ${id}, "list": [{"prototype": 2}]}]`.slice(1, -1),
        `{"_id": ${id}, "name": "__proto__"}`,
      ].join('\n'),
    );
    expect(items).toEqual([
      {
        error: 'field __proto__ is refused: "__proto__" is not a data field name',
        code: 'UNSAFE_FIELD',
        position: 'line 1',
      },
      {
        error: 'field owner.constructor is refused: "constructor" is not a data field name',
        code: 'UNSAFE_FIELD',
        position: 'line 2',
      },
      {
        error: 'field list[0].prototype is refused: "prototype" is not a data field name',
        code: 'UNSAFE_FIELD',
        position: 'line 3',
      },
      { doc: { _id: 'e'.repeat(24), name: '__proto__' }, position: 'line 4' },
    ]);
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
  });
});
