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

/** The same records as a file some tool wrote: its bytes, as given. */
async function readBytes(bytes: Buffer, name = 'vehicles.json'): Promise<ReadItem[]> {
  const folder = mkdtempSync(join(tmpdir(), 'reader-'));
  try {
    const path = join(folder, name);
    writeFileSync(path, bytes);
    const out: ReadItem[] = [];
    for await (const item of (await readRecords(path)).records) out.push(item);
    return out;
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

describe('readRecords on files saved by Windows tools', () => {
  const lines = [JSON.stringify(canonical), JSON.stringify({ _id: { $oid: 'f'.repeat(24) }, name: 'Kòfí' })];
  const expected = [
    { doc: plain, position: 'line 1' },
    { doc: { _id: 'f'.repeat(24), name: 'Kòfí' }, position: 'line 2' },
  ];
  const utf16be = (text: string) => Buffer.from(text, 'utf16le').swap16();

  it('reads JSON lines with a UTF-8 byte-order mark and CRLF line ends like any other, the first record too', async () => {
    expect(await readBytes(Buffer.from(`\uFEFF${lines.join('\r\n')}\r\n`))).toEqual(expected);
  });

  it('reads UTF-16 with its byte-order mark (PowerShell, Notepad "Unicode"), little- or big-endian', async () => {
    const text = `\uFEFF${lines.join('\r\n')}\r\n`;
    expect(await readBytes(Buffer.from(text, 'utf16le'))).toEqual(expected);
    expect(await readBytes(utf16be(text))).toEqual(expected);
  });

  it('reads a JSON array with a byte-order mark', async () => {
    const items = await readBytes(Buffer.from(`\uFEFF[\r\n${lines.join(',\r\n')}\r\n]\r\n`));
    expect(items.map((i) => ('doc' in i ? i.doc._id : i.error))).toEqual(['5f1d7f3b2c9e4a0017a1b2c3', 'f'.repeat(24)]);
  });
});

describe('readRecords on an export cut short', () => {
  const whole = (c: string) => `{"_id": {"$oid": "${c.repeat(24)}"}, "name": "x"}`;

  it('says the export was cut short at the line where a JSON-lines file ends mid-record', async () => {
    const items = await readBytes(Buffer.from(`${whole('a')}\n${whole('b')}\n{"_id": {"$oid": "ccc`));
    expect(items.at(-1)).toEqual({
      error:
        'the export was cut short at line 3: the file ends inside a record (export the collection again, or remove the partial last line to import the rest)',
      code: 'CUT_SHORT',
      position: 'line 3',
    });
    expect(items).toHaveLength(3);
  });

  it('still reads a last line without its line end when it is whole', async () => {
    const items = await readBytes(Buffer.from(`${whole('a')}\n${whole('b')}`));
    expect(items.map((i) => ('doc' in i ? i.doc._id : i.error))).toEqual(['a'.repeat(24), 'b'.repeat(24)]);
  });

  it('says the export was cut short at the line where a JSON array ends mid-element, after its whole elements', async () => {
    const items = await readBytes(Buffer.from(`[\n${whole('a')},\n${whole('b')},\n{"_id": {"$o`));
    expect(items.map((i) => ('doc' in i ? i.doc._id : `${i.code}: ${i.error}`))).toEqual([
      'a'.repeat(24),
      'b'.repeat(24),
      'CUT_SHORT: the export was cut short at line 4: the file ends inside element 3 of the array (export the collection again)',
    ]);
  });

  it('reads bare NaN and Infinity (Python json_util) in JSON lines and in a JSON array alike', async () => {
    const bare = (c: string) =>
      `{"_id": {"$oid": "${c.repeat(24)}"}, "rating": NaN, "note": "NaN, kept", "t": -Infinity}`;
    const asLines = await readBytes(Buffer.from(`${bare('a')}\r\n${bare('b')}\r\n`));
    const asArray = await readBytes(Buffer.from(`[${bare('a')},\n${bare('b')}]`));
    for (const items of [asLines, asArray]) {
      expect(items.map((i) => ('doc' in i ? [i.doc._id, i.doc.rating, i.doc.note, i.doc.t] : i.error))).toEqual([
        ['a'.repeat(24), NaN, 'NaN, kept', -Infinity],
        ['b'.repeat(24), NaN, 'NaN, kept', -Infinity],
      ]);
    }
  });

  it('still says the export was cut short when the partial last line holds a bare NaN', async () => {
    const items = await readBytes(
      Buffer.from(`${whole('a')}\n{"_id": {"$oid": "${'b'.repeat(24)}"}, "rating": NaN, "na`),
    );
    expect(items.map((i) => ('doc' in i ? i.doc._id : `${i.code} ${i.position}`))).toEqual([
      'a'.repeat(24),
      'CUT_SHORT line 2',
    ]);
  });

  it('reads mongoexport --jsonArray as it writes it, on one line, with strings holding brackets and quotes', async () => {
    const tricky = { _id: { $oid: 'd'.repeat(24) }, note: 'a "quoted" ], {brace} \\ and, comma' };
    const items = await readBytes(
      Buffer.from(`[${whole('a')},${JSON.stringify(tricky)},{"_id":{"$oid":"${'e'.repeat(24)}"}}]`),
    );
    expect(items).toEqual([
      { doc: { _id: 'a'.repeat(24), name: 'x' }, position: 'element 1' },
      { doc: { _id: 'd'.repeat(24), note: tricky.note }, position: 'element 2' },
      { doc: { _id: 'e'.repeat(24) }, position: 'element 3' },
    ]);
  });

  it('reports an element that is not a JSON object, and text after the array, by position', async () => {
    const items = await readBytes(Buffer.from(`[${whole('a')}, 7, ${whole('b')}]\nmore`));
    expect(items.map((i) => ('doc' in i ? i.doc._id : `${i.position}: ${i.code}`))).toEqual([
      'a'.repeat(24),
      'element 2: UNREADABLE',
      'b'.repeat(24),
      'line 2: UNREADABLE',
    ]);
  });
});
