import type { ComponentChildren } from 'preact';
import type { ListPage } from '../api';
import { words as w } from '../i18n';
import { go } from '../router';
import { day, Loading, ProblemMessage, useNarrow } from '../ui';

// What the vehicles and drivers lists share: their address (filters, order and page in the hash, so Back and a pasted
// link show the same list), the filters' form and the select of each filter, the column headers that sort the whole
// list, the page shown as a table at a desk and as cards on a phone, and the pager.

export const PAGE_SIZE = 20;
/** The order of a list when the address names none: the API's own, newest first. */
export const NEWEST_FIRST = '-createdAt';
/** The expiry windows offered: documents or licences ending within so many days, ended ones included. */
export const WINDOWS = [7, 30, 90] as const;

export type Params = Record<string, string | undefined>;

/** A list's address: its path, then its filters and order, without empty values (newest first is no value). */
export function listHref(path: string, params: Params): string {
  const query = new URLSearchParams(
    Object.entries(params).filter(
      (e): e is [string, string] => Boolean(e[1]) && !(e[0] === 'sort' && e[1] === NEWEST_FIRST),
    ),
  );
  const text = query.toString();
  return `${path}${text ? `?${text}` : ''}`;
}

/** The list's parameters the address holds, by name: the filters, the order, the cursor and the page number. */
export function paramsOf(query: URLSearchParams, names: readonly string[]): Params {
  return Object.fromEntries(names.map((name) => [name, query.get(name) ?? undefined]));
}

/** A value the address holds, if it is one of those offered (a stale or mistyped link falls back to none). */
export function oneOf<T extends string>(value: string | undefined, offered: readonly T[]): T | undefined {
  return offered.includes(value as T) ? (value as T) : undefined;
}

/** The expiry window the address holds, in days, if it is one offered. */
export function windowOf(value: string | undefined): number | undefined {
  const days = Number(value);
  return (WINDOWS as readonly number[]).includes(days) ? days : undefined;
}

/** One filter of the form: a labelled select showing the list's current value. */
export function FilterSelect(props: {
  name: string;
  label: string;
  value: string | undefined;
  options: ReadonlyArray<readonly [string, string]>;
  any?: string;
}) {
  const id = `filter-${props.name}`;
  return (
    <div>
      <label for={id}>{props.label}</label>
      <select id={id} name={props.name}>
        {props.any !== undefined && <option value="">{props.any}</option>}
        {props.options.map(([value, label]) => (
          <option key={value} value={value} selected={(props.value ?? '') === value}>
            {label}
          </option>
        ))}
      </select>
    </div>
  );
}

/** The form's select of the list's order: newest first, oldest first, then each field either way. */
export function OrderSelect({ sort, fields }: { sort: string; fields: readonly string[] }) {
  const orders = [NEWEST_FIRST, 'createdAt', ...fields.flatMap((f) => [f, `-${f}`])];
  return (
    <FilterSelect
      name="sort"
      label={w.lists.order}
      value={sort}
      options={orders.map((order) => [order, w.lists.orders[order]] as const)}
    />
  );
}

/**
 * A column header that sorts the whole list by its field (through the API, every page): ascending first, then the
 * other way; `aria-sort` says how the list is sorted now.
 */
export function SortHeader(props: { label: string; field: string; sort: string; href: (sort: string) => string }) {
  const state = props.sort === props.field ? 'ascending' : props.sort === `-${props.field}` ? 'descending' : undefined;
  return (
    <th scope="col" aria-sort={state}>
      <button
        type="button"
        class="quiet sort"
        aria-label={w.lists.sortBy(props.label)}
        onClick={() => go(props.href(state === 'ascending' ? `-${props.field}` : props.field))}
      >
        {props.label}
      </button>
    </th>
  );
}

/** The pages of a list: which one this is, back to the first, on to the next (filters and order kept). */
export function Pager(props: { path: string; params: Params; pageNumber: number; after?: string; next?: string }) {
  return (
    <nav class="pager" aria-label={w.pager.label}>
      <span>{w.pager.page(props.pageNumber)}</span>
      {props.after && <a href={`#${listHref(props.path, props.params)}`}>{w.pager.first}</a>}
      {props.next && (
        <a
          href={`#${listHref(props.path, { ...props.params, after: props.next, page: String(props.pageNumber + 1) })}`}
        >
          {w.pager.next}
        </a>
      )}
    </nav>
  );
}

/** A document's end date, marked when it has already ended. */
export function Ends({ date, now }: { date: string | undefined; now: number }) {
  if (!date) return <>{w.vehicle.none}</>;
  const ended = new Date(date).getTime() <= now;
  return <span class={ended ? 'failed' : undefined}>{ended ? w.lists.ended(day(date)) : day(date)}</span>;
}

/**
 * A list's address read once: its filters by name, its order (newest first unless the address names one offered),
 * the expiry window, the page, and the list's address with other parameters (`href`).
 */
export function useListAddress<S extends string>(
  path: string,
  query: URLSearchParams,
  names: readonly string[],
  sorts: readonly S[],
) {
  const filters = paramsOf(query, names);
  const sort: S | typeof NEWEST_FIRST = oneOf(filters.sort, sorts) ?? NEWEST_FIRST;
  const href = (params: Params) => listHref(path, params);
  return {
    path,
    filters,
    sort,
    expiring: windowOf(filters.expiring),
    after: query.get('after') ?? undefined,
    pageNumber: Number(query.get('page') ?? '1') || 1,
    narrow: useNarrow(),
    key: query.toString(),
    href,
    /** The header of a column that sorts the whole list by `field`, the other filters kept. */
    header: (field: string, label: string) => (
      <SortHeader label={label} field={field} sort={sort} href={(next) => href({ ...filters, sort: next })} />
    ),
  };
}

export type ListAddress = ReturnType<typeof useListAddress>;

/**
 * The filters' form: the selects in a row, then apply, and clear (to the order alone) while a filter is set. Applying
 * goes to the list's address with the chosen value of each of `names`, then the values of `keep` as they are.
 */
export function FilterForm(props: {
  address: ListAddress;
  label: string;
  apply: string;
  clear: string;
  filtered: boolean;
  names: readonly string[];
  keep?: Params;
  children: ComponentChildren;
}) {
  const { href, sort } = props.address;
  return (
    <form
      class="panel filters"
      aria-label={props.label}
      onSubmit={(event) => {
        event.preventDefault();
        const data = new FormData(event.currentTarget as HTMLFormElement);
        const chosen = Object.fromEntries(props.names.map((name) => [name, String(data.get(name) ?? '')]));
        go(href({ ...chosen, ...props.keep }));
      }}
    >
      <div class="row">{props.children}</div>
      <button type="submit" class="primary">
        {props.apply}
      </button>
      {props.filtered && (
        <a class="button quiet" href={`#${href({ sort })}`}>
          {props.clear}
        </a>
      )}
    </form>
  );
}

/** The select of the expiry window: documents or licences ending within so many days. */
export function WindowSelect({ label, value }: { label: string; value: number | undefined }) {
  return (
    <FilterSelect
      name="expiring"
      label={label}
      value={value === undefined ? undefined : String(value)}
      any={w.lists.any}
      options={WINDOWS.map((days) => [String(days), w.lists.within(days)] as const)}
    />
  );
}

/**
 * A list's page once asked for: the problem, or loading, or its count, then its records (cards on a phone, a table at
 * a desk, each record a card's lines or a row's cells) and the pager.
 */
export function ListPageView<T extends { _id: string }>(props: {
  address: ListAddress;
  list: { value?: ListPage<T>; error?: unknown; reload?: () => void };
  id: string;
  count: (n: number) => string;
  empty: string;
  card: (item: T) => ComponentChildren;
  columns: ComponentChildren;
  row: (item: T) => ComponentChildren;
}) {
  const { address, list } = props;
  const shown = list.value?.items ?? [];
  return (
    <>
      {list.error !== undefined && <ProblemMessage error={list.error} retry={list.reload} />}
      {list.value === undefined && list.error === undefined && <Loading />}
      {list.value && (
        <section aria-labelledby={props.id}>
          <h2 id={props.id}>{props.count(list.value.total ?? list.value.items.length)}</h2>
          {shown.length === 0 ? (
            <p class="empty">{props.empty}</p>
          ) : address.narrow ? (
            <ul class="cards">
              {shown.map((item) => (
                <li key={item._id}>{props.card(item)}</li>
              ))}
            </ul>
          ) : (
            <table class="list">
              <thead>
                <tr>{props.columns}</tr>
              </thead>
              <tbody>
                {shown.map((item) => (
                  <tr key={item._id}>{props.row(item)}</tr>
                ))}
              </tbody>
            </table>
          )}
          <Pager
            path={address.path}
            params={address.filters}
            pageNumber={address.pageNumber}
            after={address.after}
            next={list.value.next}
          />
        </section>
      )}
    </>
  );
}
