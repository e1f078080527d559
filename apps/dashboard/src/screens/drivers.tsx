import type { operations } from '@transport/api-client';
import { api, page, type Driver } from '../api';
import { words as w } from '../i18n';
import { day, Title, useLoad } from '../ui';
import {
  Ends,
  FilterForm,
  FilterSelect,
  ListPageView,
  oneOf,
  OrderSelect,
  PAGE_SIZE,
  useListAddress,
  WindowSelect,
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
  const address = useListAddress('/drivers', query, FILTERS, SORTS);
  const { filters, sort, expiring, after, key } = address;
  const state = oneOf(filters.state, STATES);

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
  const now = Date.now();

  return (
    <>
      <Title>{w.lists.drivers.title}</Title>
      <FilterForm
        key={key}
        address={address}
        label={w.lists.drivers.filters}
        apply={w.lists.drivers.apply}
        clear={w.lists.drivers.clear}
        filtered={Boolean(state || expiring !== undefined)}
        names={FILTERS}
      >
        <FilterSelect
          name="state"
          label={w.lists.drivers.state}
          value={state}
          any={w.lists.any}
          options={STATES.map((s) => [s, w.find.states[s]] as const)}
        />
        <WindowSelect label={w.lists.drivers.licenceEnding} value={expiring} />
        <OrderSelect sort={sort} fields={['name']} />
      </FilterForm>
      <ListPageView
        address={address}
        list={list}
        id="drivers-count"
        count={w.lists.drivers.count}
        empty={w.lists.drivers.empty}
        card={(d) => (
          <>
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
          </>
        )}
        columns={
          <>
            {address.header('name', w.lists.drivers.name)}
            <th scope="col">{w.lists.drivers.state}</th>
            <th scope="col">{w.lists.drivers.phone}</th>
            <th scope="col">{w.lists.drivers.licenceEnds}</th>
            {address.header('createdAt', w.lists.drivers.registered)}
          </>
        }
        row={(d) => (
          <>
            <th scope="row">
              <a href={`#/drivers/${d._id}`}>{d.name}</a>
            </th>
            <td>{standing(d, state)}</td>
            <td>{d.phone}</td>
            <td>
              <Ends date={d.licenseExpiry} now={now} />
            </td>
            <td>{day(d.createdAt)}</td>
          </>
        )}
      />
    </>
  );
}
