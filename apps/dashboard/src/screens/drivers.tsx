import type { operations } from '@transport/api-client';
import { api, page, type Driver } from '../api';
import { words as w } from '../i18n';
import { go } from '../router';
import { day, Loading, ProblemMessage, Title, useLoad, useNarrow } from '../ui';
import {
  Ends,
  FilterSelect,
  listHref,
  NEWEST_FIRST,
  oneOf,
  OrderSelect,
  PAGE_SIZE,
  Pager,
  paramsOf,
  SortHeader,
  windowOf,
  WINDOWS,
} from './list-parts';

type Query = NonNullable<operations['driversList']['parameters']['query']>;
type Sort = NonNullable<Query['sort']>;
type State = NonNullable<Query['state']>;
const SORTS = ['-createdAt', 'createdAt', 'name', '-name'] as const satisfies Sort[];
const STATES = ['awaiting_approval', 'approved', 'revoked'] as const satisfies State[];
/** What the list is filtered and ordered by, as the address holds it (`#/drivers?state=revoked&sort=name`). */
const FILTERS = ['state', 'expiring', 'sort'] as const;

/**
 * Where a listed driver stands. The record says whether the driver is approved; whether an unapproved one was never
 * approved or had the approval revoked is what the list's state filter asked the API (the record does not say it).
 */
function standing(d: Driver, filter: State | undefined): string {
  if (d.approved) return w.find.states.approved;
  return filter ? w.find.states[filter] : w.driver.notApproved;
}

/**
 * Every driver of the assembly, filtered by where they stand and by licences ending within a window (the API's filters
 * of GET /drivers/all), in the order chosen (the API sorts the whole list, page after page), paged by the API's cursor:
 * a table at a desk, cards on a phone.
 */
export function DriverList({ query }: { query: URLSearchParams }) {
  const filters = paramsOf(query, FILTERS);
  const sort: Sort = oneOf(filters.sort, SORTS) ?? NEWEST_FIRST;
  const state = oneOf(filters.state, STATES);
  const expiring = windowOf(filters.expiring);
  const after = query.get('after') ?? undefined;
  const pageNumber = Number(query.get('page') ?? '1') || 1;
  const narrow = useNarrow();
  const key = query.toString();
  const href = (params: Record<string, string | undefined>) => listHref('/drivers', params);

  const list = useLoad(
    () =>
      page<Driver, { payload: Driver[] }>(
        api.GET('/drivers/all', {
          params: { query: { limit: PAGE_SIZE, count: 'true', after, sort, state, expiring } },
        }),
        (data) => data.payload,
      ),
    [key],
  );
  const shown = list.value?.items ?? [];
  const filtered = Boolean(state || expiring !== undefined);
  const now = Date.now();
  const header = (field: string, label: string) => (
    <SortHeader label={label} field={field} sort={sort} href={(next) => href({ ...filters, sort: next })} />
  );

  return (
    <>
      <Title>{w.lists.drivers.title}</Title>
      <form
        key={key}
        class="panel filters"
        aria-label={w.lists.drivers.filters}
        onSubmit={(event) => {
          event.preventDefault();
          const data = new FormData(event.currentTarget as HTMLFormElement);
          const chosen = (name: string) => String(data.get(name) ?? '');
          go(href({ state: chosen('state'), expiring: chosen('expiring'), sort: chosen('sort') }));
        }}
      >
        <div class="row">
          <FilterSelect
            name="state"
            label={w.lists.drivers.state}
            value={state}
            any={w.lists.any}
            options={STATES.map((s) => [s, w.find.states[s]] as const)}
          />
          <FilterSelect
            name="expiring"
            label={w.lists.drivers.licenceEnding}
            value={expiring === undefined ? undefined : String(expiring)}
            any={w.lists.any}
            options={WINDOWS.map((days) => [String(days), w.lists.within(days)] as const)}
          />
          <OrderSelect sort={sort} fields={['name']} />
        </div>
        <button type="submit" class="primary">
          {w.lists.drivers.apply}
        </button>
        {filtered && (
          <a class="button quiet" href={`#${href({ sort })}`}>
            {w.lists.drivers.clear}
          </a>
        )}
      </form>
      {list.error !== undefined && <ProblemMessage error={list.error} />}
      {list.value === undefined && list.error === undefined && <Loading />}
      {list.value && (
        <section aria-labelledby="drivers-count">
          <h2 id="drivers-count">{w.lists.drivers.count(list.value.total ?? list.value.items.length)}</h2>
          {shown.length === 0 ? (
            <p class="empty">{w.lists.drivers.empty}</p>
          ) : narrow ? (
            <ul class="cards">
              {shown.map((d) => (
                <li key={d._id}>
                  <a href={`#/drivers/${d._id}`} class="card-title">
                    {d.name}
                  </a>
                  <span class={d.approved ? 'muted' : undefined}>
                    {standing(d, state)}
                    {d.phone && ` · ${d.phone}`}
                  </span>
                  <span class="muted">
                    {w.lists.drivers.licenceEnds} <Ends date={d.licenseExpiry} now={now} />
                  </span>
                  <span class="muted">
                    {w.lists.drivers.registered} {day(d.createdAt)}
                  </span>
                </li>
              ))}
            </ul>
          ) : (
            <table class="list">
              <thead>
                <tr>
                  {header('name', w.lists.drivers.name)}
                  <th scope="col">{w.lists.drivers.state}</th>
                  <th scope="col">{w.lists.drivers.phone}</th>
                  <th scope="col">{w.lists.drivers.licenceEnds}</th>
                  {header('createdAt', w.lists.drivers.registered)}
                </tr>
              </thead>
              <tbody>
                {shown.map((d) => (
                  <tr key={d._id}>
                    <th scope="row">
                      <a href={`#/drivers/${d._id}`}>{d.name}</a>
                    </th>
                    <td>{standing(d, state)}</td>
                    <td>{d.phone}</td>
                    <td>
                      <Ends date={d.licenseExpiry} now={now} />
                    </td>
                    <td>{day(d.createdAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <Pager path="/drivers" params={filters} pageNumber={pageNumber} after={after} next={list.value.next} />
        </section>
      )}
    </>
  );
}
