import type { Page } from '@transport/domain';
import type { Readable } from 'node:stream';
import { csvExport } from './csv-export';

interface Item {
  id: string;
  note?: unknown;
  amount?: number;
  driver?: { name: string };
  reasons?: Array<{ code: string }>;
}

/** A list served in pages, as the repositories' keyset paging does, counting the reads. */
function pagedList(pages: Item[][]) {
  const reads: Array<string | undefined> = [];
  const fetchPage = async (after: string | undefined): Promise<Page<Item>> => {
    reads.push(after);
    const index = after === undefined ? 0 : Number(after);
    return { items: pages[index], next: index + 1 < pages.length ? String(index + 1) : undefined };
  };
  return { reads, fetchPage };
}

async function text(stream: Readable): Promise<string> {
  let out = '';
  for await (const chunk of stream) out += String(chunk);
  return out;
}

const streamOf = (file: ReturnType<typeof csvExport>) => file.getStream() as Readable;

describe('csvExport', () => {
  it('writes RFC 4180 rows (CRLF, quotes doubled, separators quoted) under a header, page after page', async () => {
    const { fetchPage } = pagedList([
      [{ id: 'a', note: 'plain', amount: 2.5, driver: { name: 'Ama, "Maa" Serwaa' } }],
      [],
      [{ id: 'b', note: 'two\nlines', reasons: [{ code: 'EXPIRED' }, { code: 'NOT_INSPECTED' }] }],
    ]);
    const file = csvExport('trips.csv', ['id', 'note', 'amount', 'driver.name', 'reasons.code'], fetchPage, (i) => i);
    expect(file.getHeaders()).toMatchObject({
      type: 'text/csv; charset=utf-8',
      disposition: 'attachment; filename="trips.csv"',
    });
    expect(await text(streamOf(file))).toBe(
      'id,note,amount,driver.name,reasons.code\r\n' +
        'a,plain,2.5,"Ama, ""Maa"" Serwaa",\r\n' +
        'b,"two\nlines",,,EXPIRED; NOT_INSPECTED\r\n',
    );
  });

  it('defuses every cell a spreadsheet would run as a formula, and leaves negative numbers numbers', async () => {
    const notes = ['=1+1', '+233241234567', '-2', '@SUM(A1)', '\tx', '\uFF1D1', '\uFF0B1', '\uFF0D1', '\uFF20x', 'a=b'];
    const { fetchPage } = pagedList([notes.map((note, n) => ({ id: String(n), note, amount: -3 }))]);
    const out = await text(streamOf(csvExport('x.csv', ['note', 'amount'], fetchPage, (i) => i)));
    expect(out.split('\r\n').slice(1, -1)).toEqual([
      `"'=1+1",-3`,
      `"'+233241234567",-3`,
      `"'-2",-3`,
      `"'@SUM(A1)",-3`,
      `"'\tx",-3`,
      `"'\uFF1D1",-3`,
      `"'\uFF0B1",-3`,
      `"'\uFF0D1",-3`,
      `"'\uFF20x",-3`,
      'a=b,-3',
    ]);
  });

  it('shows nested values as JSON and absent ones as empty cells', async () => {
    const { fetchPage } = pagedList([
      [
        { id: 'a', note: { lat: 5.6 } },
        { id: 'b', note: null },
      ],
    ]);
    const out = await text(streamOf(csvExport('x.csv', ['id', 'note'], fetchPage, (i) => i)));
    expect(out).toBe('id,note\r\na,"{""lat"":5.6}"\r\nb,\r\n');
  });

  it('reads the next page only when the client has taken the text of the one before (one page in flight)', async () => {
    const { reads, fetchPage } = pagedList(Array.from({ length: 50 }, (_, n) => [{ id: String(n) }]));
    const stream = streamOf(csvExport('x.csv', ['id'], fetchPage, (i) => i));
    const chunks: string[] = [];
    for await (const chunk of stream) {
      chunks.push(String(chunk));
      if (chunks.length === 3) break; // the client stops reading after the header and two pages
    }
    expect(chunks).toEqual(['id\r\n', '0\r\n', '1\r\n']);
    // At most the page being handed over and one read ahead; never the whole list.
    expect(reads.length).toBeLessThanOrEqual(4);
  });
});
