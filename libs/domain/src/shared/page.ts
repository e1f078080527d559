/** Keyset paging, newest first: `after` is the `_id` of the last record of the previous page. */
export interface PageRequest {
  limit: number;
  after?: string;
}

export interface Page<T> {
  items: T[];
  /** Present when more records exist after this page: pass it as `after`. */
  next?: string;
}
