/** Keyset paging, newest first: `after` is the `_id` of the last record of the previous page. */
export interface PageRequest {
  limit: number;
  after?: string;
  /** Also count every record the filters match (all pages): `total` of the answer. */
  count?: boolean;
}

export interface Page<T> {
  items: T[];
  /** Present when more records exist after this page: pass it as `after`. */
  next?: string;
  /** Every record the filters match, when the request asked for the count. */
  total?: number;
}
