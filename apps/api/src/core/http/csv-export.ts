import { StreamableFile } from '@nestjs/common';
import type { Page, PageRequest } from '@transport/domain';
import Papa from 'papaparse';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AuthenticatedRequest } from '../auth/auth.decorators';
import { viewOf, type ViewedResource, type Viewer } from '../auth/views';
import { unauthorized } from '../auth/api-key.guard';
import { pageItems } from './paging';
import { pageRequest } from './query-values';
import { Readable } from 'node:stream';
import { preferredType } from './negotiation';

export const CSV_CONTENT_TYPE = 'text/csv; charset=utf-8';

/** Records fetched per round trip while exporting: enough to be quick, few enough that a page dies young (measured). */
export const EXPORT_PAGE = 200;

/** The client asked for CSV (`Accept: text/csv`), and prefers it to JSON. */
export function wantsCsv(request: FastifyRequest): boolean {
  return preferredType(request, ['application/json', 'text/csv']) === 'text/csv';
}

/** One column: its header, and the path of the value in the (viewed) JSON record, e.g. `service.driver.name`. */
export type CsvColumn = string;

/** A getter for a dotted path, e.g. `service.driver.name`; through a list, the list of each element's value. */
function getterOf(column: CsvColumn): (record: unknown) => unknown {
  const path = column.split('.');
  const at = (value: unknown, depth: number): unknown => {
    if (depth === path.length) return value;
    if (Array.isArray(value)) return value.map((element) => at(element, depth));
    if (value === null || typeof value !== 'object') return undefined;
    return at((value as Record<string, unknown>)[path[depth]], depth + 1);
  };
  return (record) => at(record, 0);
}

/** A cell: primitives as they are, lists of primitives joined with "; ", anything else as JSON; absent: empty. */
function cell(value: unknown): string | number | boolean {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  if (Array.isArray(value) && value.every((v) => v === null || typeof v !== 'object')) return value.join('; ');
  return JSON.stringify(value);
}

/**
 * A cell a spreadsheet would run as a formula: starting with = + - @, a tab or a carriage return, or the full-width
 * = + - @ that some spreadsheets normalise (OWASP "CSV injection"). Text cells only: a negative number stays a number.
 */
const FORMULA = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;

/** Rows as RFC 4180 text (CRLF after every row), quoting where needed and defusing formulas. */
function csvText(rows: ReadonlyArray<ReadonlyArray<string | number | boolean>>): string {
  return Papa.unparse(rows as unknown[][], { header: false, newline: '\r\n', escapeFormulae: FORMULA }) + '\r\n';
}

/**
 * A whole list as CSV (RFC 4180, written by papaparse), streamed: pages of EXPORT_PAGE records are read one after the
 * other through the same keyset paging as the JSON list, each record turned into a row in the caller's view, the page
 * written as one piece of text, and the next page read only when the client has taken that text (stream backpressure,
 * one page in flight). Memory stays flat however many rows the export has. Cells that a spreadsheet would run as a
 * formula are prefixed with ' (and quoted).
 *
 * papaparse rather than csv-stringify (used before): csv-stringify's per-cell work allocated about 18 KB per trip row,
 * half of all the export's allocation, and the garbage kept the API's RSS over 440 MB through a million-row export;
 * papaparse writes the same RFC 4180 text with about a quarter of the allocation (docs/api.md, "CSV exports").
 */
export function csvExport<T>(
  filename: string,
  columns: readonly CsvColumn[],
  fetchPage: (after: string | undefined) => Promise<Page<T>>,
  toRecord: (item: T) => unknown,
): StreamableFile {
  const getters = columns.map(getterOf);
  async function* pages() {
    yield csvText([columns]);
    let after: string | undefined;
    do {
      const page = await fetchPage(after);
      after = page.next;
      if (page.items.length === 0) continue;
      yield csvText(
        page.items.map((item) => {
          const record = toRecord(item);
          return getters.map((get) => cell(get(record)));
        }),
      );
    } while (after !== undefined);
  }
  // One page of text at a time (highWaterMark 1): the next page is read when the response has taken this one. An error
  // while reading pages (the database gone mid-export) ends the download short; the log says why.
  const csv = Readable.from(pages(), { highWaterMark: 1 });
  return new StreamableFile(csv, {
    type: CSV_CONTENT_TYPE,
    disposition: `attachment; filename="${filename}"`,
  });
}

/** What a list route exports as CSV: its file name, its columns, and the view its records are shown in. */
export interface CsvList {
  filename: string;
  columns: readonly CsvColumn[];
  /** The records' view (core/auth/views.ts), applied per row as the JSON list's interceptor does per record. */
  view?: ViewedResource;
  /** Where the viewed record sits in an item: the item itself, or its `vehicle` (compliance entries). */
  place?: 'item' | 'vehicle';
}

/**
 * A list route's answer: the requested page as JSON (with its Link header), or with `Accept: text/csv` the whole
 * filtered list as a streamed CSV file, in the list's order (`limit` and `after` do not apply to an export; it starts
 * at the first record).
 */
export async function listOrCsv<T, K extends string = never>(
  request: FastifyRequest & AuthenticatedRequest,
  response: FastifyReply,
  csv: CsvList,
  query: { limit?: number; after?: string; count?: string; sort?: string },
  fetch: (page: PageRequest<K>) => Promise<Page<T>>,
): Promise<T[] | StreamableFile> {
  const first = pageRequest<K>(query);
  if (!wantsCsv(request)) return pageItems(request, response, await fetch(first));
  return exportCsv(request, csv, (page) => fetch({ ...page, order: first.order }));
}

/** The CSV branch of a list route: the whole list, in the caller's view, streamed. */
export function exportCsv<T>(
  request: FastifyRequest & AuthenticatedRequest,
  csv: CsvList,
  fetch: (page: { limit: number; after?: string }) => Promise<Page<T>>,
): StreamableFile {
  // A whole list in one download is work and data at once: it needs a key (each key has its own request limit).
  if (!request.principal) throw unauthorized('A CSV export of a whole list needs an API key; pages need none');
  const viewer: Viewer = request.principal.role;
  const { view } = csv;
  const shown = (record: unknown) => (view ? viewOf(view, viewer, record) : record);
  return csvExport(
    csv.filename,
    csv.columns,
    (after) => fetch({ limit: EXPORT_PAGE, after }),
    (item) =>
      csv.place === 'vehicle'
        ? { ...(item as object), vehicle: shown((item as { vehicle: unknown }).vehicle) }
        : shown(item),
  );
}
