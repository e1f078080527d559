import type { operations } from '@transport/api-client';
import { api, must, page, type Vehicle } from '../api';
import { colourName } from '../colours';
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

const STATES = ['awaiting_inspection', 'inspection_failed', 'awaiting_approval', 'approved'] as const;
type State = (typeof STATES)[number];
/** What the list is filtered and ordered by, as the address holds it (`#/vehicles?state=approved&sort=...`). */
const FILTERS = ['state', 'station', 'union', 'owner', 'expiring', 'sort'] as const;
type Sort = NonNullable<NonNullable<operations['vehiclesList']['parameters']['query']>['sort']>;
const SORTS = ['-createdAt', 'createdAt', 'registrationNumber', '-registrationNumber'] as const satisfies Sort[];

/** Each state as the API's filters of GET /vehicles/all say it (the same split as the work queues). */
const STATE_QUERY: Record<
  State,
  { inspected?: 'false'; approved?: 'true' | 'false'; inspection?: 'passed' | 'failed' }
> = {
  awaiting_inspection: { inspected: 'false' },
  inspection_failed: { approved: 'false', inspection: 'failed' },
  awaiting_approval: { approved: 'false', inspection: 'passed' },
  approved: { approved: 'true' },
};

/** Where a vehicle stands, in the words of the search's states. */
export function standing(v: Vehicle): State {
  if (v.approved) return 'approved';
  if (!v.inspected) return 'awaiting_inspection';
  return Object.values(v.inspectionChecklist ?? {}).some((passed) => !passed)
    ? 'inspection_failed'
    : 'awaiting_approval';
}

const linkId = (value: unknown) =>
  typeof value === 'string' ? value : ((value as { _id?: string } | null)?._id ?? '');

/** The earlier of a vehicle's two documents' end dates: the one a compliance check would meet first. */
function documentsEnd(v: Vehicle): string | undefined {
  const dates = [v.roadWorthyExpiryDate, v.insuranceExpiryDate].filter((d): d is string => Boolean(d));
  return dates.sort((a, b) => Date.parse(a) - Date.parse(b))[0];
}

/**
 * Every vehicle of the assembly, filtered by state, station, transport union, owner or documents ending within a
 * window (the API's filters of GET /vehicles/all), in the order chosen (the API sorts the whole list, page after page),
 * paged by the API's cursor: a table at a desk, cards on a phone.
 */
export function VehicleList({ query }: { query: URLSearchParams }) {
  const filters = paramsOf(query, FILTERS);
  const sort: Sort = oneOf(filters.sort, SORTS) ?? NEWEST_FIRST;
  const expiring = windowOf(filters.expiring);
  const after = query.get('after') ?? undefined;
  const pageNumber = Number(query.get('page') ?? '1') || 1;
  const narrow = useNarrow();
  const key = query.toString();
  const href = (params: Record<string, string | undefined>) => listHref('/vehicles', params);

  const choices = useLoad(
    () =>
      Promise.all([
        must(api.GET('/stations/all', { params: { query: { limit: 100 } } })),
        must(api.GET('/unions/all', { params: { query: { limit: 100 } } })),
      ]),
    [],
  );
  const list = useLoad(() => {
    const state = oneOf(filters.state, STATES);
    return page<Vehicle>(
      api.GET('/vehicles/all', {
        params: {
          query: {
            limit: PAGE_SIZE,
            count: 'true',
            after,
            sort,
            expiring,
            ...(state ? STATE_QUERY[state] : {}),
            station: filters.station,
            transportUnion: filters.union,
            ownerID: filters.owner,
          },
        },
      }),
    );
  }, [key]);
  const [stations, unions] = choices.value ?? [[], []];
  const stationName = (v: Vehicle) => stations.find((s) => s._id === linkId(v.station))?.name ?? '';
  const shown = list.value?.items ?? [];
  const filtered = FILTERS.some((f) => f !== 'sort' && filters[f]);
  const now = Date.now();
  const header = (field: string, label: string) => (
    <SortHeader label={label} field={field} sort={sort} href={(next) => href({ ...filters, sort: next })} />
  );

  return (
    <>
      <Title>{filters.owner ? w.find.vehicles.ownerTitle : w.find.vehicles.title}</Title>
      {choices.error !== undefined && <ProblemMessage error={choices.error} />}
      {/* Shown once the stations and unions are known, so a filter chosen is never reset by their arrival. */}
      {choices.value && (
        <form
          key={key}
          class="panel filters"
          aria-label={w.find.vehicles.filters}
          onSubmit={(event) => {
            event.preventDefault();
            const data = new FormData(event.currentTarget as HTMLFormElement);
            const chosen = (name: string) => String(data.get(name) ?? '');
            go(
              href({
                state: chosen('state'),
                station: chosen('station'),
                union: chosen('union'),
                expiring: chosen('expiring'),
                sort: chosen('sort'),
                owner: filters.owner,
              }),
            );
          }}
        >
          <div class="row">
            <FilterSelect
              name="state"
              label={w.find.vehicles.state}
              value={filters.state}
              any={w.find.vehicles.any}
              options={STATES.map((s) => [s, w.find.states[s]] as const)}
            />
            <FilterSelect
              name="station"
              label={w.find.vehicles.station}
              value={filters.station}
              any={w.find.vehicles.any}
              options={stations.map((s) => [s._id, s.name] as const)}
            />
            <FilterSelect
              name="union"
              label={w.find.vehicles.union}
              value={filters.union}
              any={w.find.vehicles.any}
              options={unions.map((u) => [u._id, u.name] as const)}
            />
            <FilterSelect
              name="expiring"
              label={w.find.vehicles.documentsEnding}
              value={expiring === undefined ? undefined : String(expiring)}
              any={w.lists.any}
              options={WINDOWS.map((days) => [String(days), w.lists.within(days)] as const)}
            />
            <OrderSelect sort={sort} fields={['registrationNumber']} />
          </div>
          <button type="submit" class="primary">
            {w.find.vehicles.apply}
          </button>
          {filtered && (
            <a class="button quiet" href={`#${href({ sort })}`}>
              {w.find.vehicles.clear}
            </a>
          )}
        </form>
      )}
      {list.error !== undefined && <ProblemMessage error={list.error} />}
      {list.value === undefined && list.error === undefined && <Loading />}
      {list.value && (
        <section aria-labelledby="vehicles-count">
          <h2 id="vehicles-count">{w.find.vehicles.count(list.value.total ?? list.value.items.length)}</h2>
          {shown.length === 0 ? (
            <p class="empty">{w.find.vehicles.empty}</p>
          ) : narrow ? (
            <ul class="cards">
              {shown.map((v) => (
                <li key={v._id}>
                  <a href={`#/vehicles/${v._id}`} class="card-title">
                    {v.registrationNumber ?? v._id}
                  </a>
                  <span>
                    {v.make} {v.model} · {colourName(v.color)}
                  </span>
                  <span class={standing(v) === 'inspection_failed' ? 'failed' : 'muted'}>
                    {w.find.states[standing(v)]}
                    {stationName(v) && ` · ${stationName(v)}`}
                  </span>
                  <span class="muted">
                    {w.find.vehicles.documentsEnd} <Ends date={documentsEnd(v)} now={now} />
                  </span>
                  <span class="muted">
                    {w.find.vehicles.registered} {day(v.createdAt)}
                  </span>
                </li>
              ))}
            </ul>
          ) : (
            <table class="list">
              <thead>
                <tr>
                  {header('registrationNumber', w.find.vehicles.plate)}
                  <th scope="col">{w.find.vehicles.vehicle}</th>
                  <th scope="col">{w.find.vehicles.state}</th>
                  <th scope="col">{w.find.vehicles.station}</th>
                  <th scope="col">{w.find.vehicles.documentsEnd}</th>
                  {header('createdAt', w.find.vehicles.registered)}
                </tr>
              </thead>
              <tbody>
                {shown.map((v) => (
                  <tr key={v._id}>
                    <th scope="row">
                      <a href={`#/vehicles/${v._id}`}>{v.registrationNumber ?? v._id}</a>
                    </th>
                    <td>
                      {v.make} {v.model}
                    </td>
                    <td class={standing(v) === 'inspection_failed' ? 'failed' : undefined}>
                      {w.find.states[standing(v)]}
                    </td>
                    <td>{stationName(v)}</td>
                    <td>
                      <Ends date={documentsEnd(v)} now={now} />
                    </td>
                    <td>{day(v.createdAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <Pager path="/vehicles" params={filters} pageNumber={pageNumber} after={after} next={list.value.next} />
        </section>
      )}
    </>
  );
}
