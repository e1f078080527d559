import { arrayElements, type ArrayRead } from './array-reader';

/** The text in pieces of `size` bytes: every boundary falls somewhere inside strings, escapes and nesting. */
async function* pieces(text: string, size: number): AsyncGenerator<Buffer> {
  const bytes = Buffer.from(text);
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

async function split(text: string, size: number, max = 1_000): Promise<ArrayRead[]> {
  const out: ArrayRead[] = [];
  for await (const read of arrayElements(pieces(text, size), max)) out.push(read);
  return out;
}

describe('arrayElements', () => {
  const elements = [
    { a: 'quote " and backslash \\ and ], { inside', b: [1, [2, { c: '\\"' }]] },
    { é: 'ünïcödé ✓', empty: {}, list: [] },
    'a string element',
    42,
  ];
  const text = `\n [ ${elements.map((e) => JSON.stringify(e)).join(' ,\n')} ]\n`;

  it('splits an array into its elements whatever the chunk boundaries, escapes and nesting', async () => {
    for (const size of [1, 2, 3, 7, 64, 1 << 16]) {
      const reads = await split(text, size);
      expect([size, reads.map((r) => ('text' in r ? JSON.parse(r.text) : r))]).toEqual([size, elements]);
      expect(reads.map((r) => [r.n, r.line])).toEqual([
        [1, 2],
        [2, 3],
        [3, 4],
        [4, 5],
      ]);
    }
  });

  it('drops an element longer than the cap, giving its length, and reads on', async () => {
    const long = JSON.stringify({ x: 'y'.repeat(100) });
    const reads = await split(`[${long},{"ok":1}]`, 5, 50);
    expect(reads).toEqual([
      { n: 1, line: 1, tooLong: long.length },
      { n: 2, line: 1, text: '{"ok":1}' },
    ]);
  });

  it('reads an empty array as nothing, and says where a file ends inside the array', async () => {
    expect(await split(' [ \n ] ', 2)).toEqual([]);
    expect(await split('[{"a":1},\n{"b":', 3)).toEqual([
      { n: 1, line: 1, text: '{"a":1}' },
      { n: 2, line: 2, cutShort: true },
    ]);
    expect(await split('[{"a":1},,{"b":2}]', 4)).toEqual([
      { n: 1, line: 1, text: '{"a":1}' },
      { n: 2, line: 1, error: 'element 2 is empty (two commas in a row, or a comma before "]")' },
      { n: 3, line: 1, text: '{"b":2}' },
    ]);
  });
});
