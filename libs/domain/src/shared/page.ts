/**
 * The order of a list: by one field, ascending or descending, ties broken by id in the same direction. A field a record
 * may lack sorts after every value ascending, before them descending (as PostgreSQL sorts NULL).
 */
export interface ListOrder<K extends string> {
  readonly by: K;
  readonly descending: boolean;
}

/**
 * Keyset paging: `after` is the `_id` of the last record of the previous page, in the same order. Without an `order`
 * (and in every list that takes none, whose `K` is `never`), newest first: createdAt, then id, descending.
 */
export interface PageRequest<K extends string = never> {
  limit: number;
  after?: string;
  /** Also count every record the filters match (all pages): `total` of the answer. */
  count?: boolean;
  order?: ListOrder<K>;
}

export interface Page<T> {
  items: T[];
  /** Present when more records exist after this page: pass it as `after`. */
  next?: string;
  /** Every record the filters match, when the request asked for the count. */
  total?: number;
}
