import { StreamableFile } from '@nestjs/common';
import type { Page, PageRequest } from '@transport/domain';
import { stringify } from 'csv-stringify';
import type { Request, Response } from 'express';
import type { AuthenticatedRequest } from '../auth/auth.decorators';
import { viewOf, type ViewedResource, type Viewer } from '../auth/views';
import { pageItems } from './paging';
import { pageRequest } from './query-values';
import { Readable, pipeline } from 'node:stream';

export const CSV_CONTENT_TYPE = 'text/csv; charset=utf-8';

/** Records fetched per round trip while exporting: enough to be quick, few enough that a page dies young (measured). */
export const EXPORT_PAGE = 200;

/** The client asked for CSV (`Accept: text/csv`), and prefers it to JSON. */
export function wantsCsv(request: Request): boolean {
  return request.accepts(['application/json', 'text/csv']) === 'text/csv';
}

/** One column: its header, and the path of the value in the (viewed) JSON record, e.g. `service.driver.name`. */
export type CsvColumn = string;

/** The value at a dotted path; through a list, the list of each element's value (`reasons.code`: every code). */
function valueAt(record: unknown, path: readonly string[]): unknown {
  if (path.length === 0) return record;
  if (Array.isArray(record)) return record.map((element) => valueAt(element, path));
  if (record === null || typeof record !== 'object') return undefined;
  return valueAt((record as Record<string, unknown>)[path[0]], path.slice(1));
}

/** A cell: primitives as they are, lists of primitives joined with "; ", anything else as JSON; absent: empty. */
function cell(value: unknown): string | number | boolean {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  if (Array.isArray(value) && value.every((v) => v === null || typeof v !== 'object')) return value.join('; ');
  return JSON.stringify(value);
}

/**
 * A whole list as CSV (RFC 4180, with csv-stringify), streamed: pages of EXPORT_PAGE records are read one after the
 * other through the same keyset paging as the JSON list, each record turned into a row in the caller's view, and the
 * next page is read only when the client has taken the previous rows (stream backpressure). Memory stays flat however
 * many rows the export has. Cells starting with = + - @ are prefixed with ' so a spreadsheet never runs them.
 */
export function csvExport<T>(
  filename: string,
  columns: readonly CsvColumn[],
  fetchPage: (after: string | undefined) => Promise<Page<T>>,
  toRecord: (item: T) => unknown,
): StreamableFile {
  const paths = columns.map((column) => column.split('.'));
  async function* rows() {
    let after: string | undefined;
    do {
      const page = await fetchPage(after);
      after = page.next;
      // The page's records become rows at once and are let go: only small arrays of cells wait for the client,
      // so little survives a young-generation collection and the heap does not grow with the export.
      const cells = page.items.map((item) => {
        const record = toRecord(item);
        return paths.map((path) => cell(valueAt(record, path)));
      });
      yield* cells;
    } while (after !== undefined);
  }
  const csv = stringify({
    header: true,
    columns: [...columns],
    escape_formulas: true,
    cast: { boolean: (value) => String(value) },
  });
  // An error while reading pages (the database gone mid-export) ends the download short; the log says why.
  pipeline(Readable.from(rows()), csv, () => undefined);
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
 * filtered list as a streamed CSV file (`limit` and `after` do not apply to an export; it starts at the newest).
 */
export async function listOrCsv<T>(
  request: Request & AuthenticatedRequest,
  response: Response,
  csv: CsvList,
  query: { limit?: number; after?: string },
  fetch: (page: PageRequest) => Promise<Page<T>>,
): Promise<T[] | StreamableFile> {
  if (!wantsCsv(request)) return pageItems(request, response, await fetch(pageRequest(query)));
  return exportCsv(request, csv, fetch);
}

/** The CSV branch of a list route: the whole list, in the caller's view, streamed. */
export function exportCsv<T>(
  request: Request & AuthenticatedRequest,
  csv: CsvList,
  fetch: (page: PageRequest) => Promise<Page<T>>,
): StreamableFile {
  const viewer: Viewer = request.principal?.role ?? 'anonymous';
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
