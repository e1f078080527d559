import type { operations } from '@transport/api-client';
import { api, must, page, type Vehicle } from '../api';
import { colourName } from '../colours';
import { words as w } from '../i18n';
import { day, ProblemMessage, Title, useLoad } from '../ui';
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
  const address = useListAddress('/vehicles', query, FILTERS, SORTS);
  const { filters, sort, expiring, after, key } = address;

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
  const now = Date.now();

  return (
    <>
      <Title>{filters.owner ? w.find.vehicles.ownerTitle : w.find.vehicles.title}</Title>
      {choices.error !== undefined && <ProblemMessage error={choices.error} retry={choices.reload} />}
      {/* Shown once the stations and unions are known, so a filter chosen is never reset by their arrival. */}
      {choices.value && (
        <FilterForm
          key={key}
          address={address}
          label={w.find.vehicles.filters}
          apply={w.find.vehicles.apply}
          clear={w.find.vehicles.clear}
          filtered={FILTERS.some((f) => f !== 'sort' && filters[f])}
          names={['state', 'station', 'union', 'expiring', 'sort']}
          keep={{ owner: filters.owner }}
        >
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
          <WindowSelect label={w.find.vehicles.documentsEnding} value={expiring} />
          <OrderSelect sort={sort} fields={['registrationNumber']} />
        </FilterForm>
      )}
      <ListPageView
        address={address}
        list={list}
        id="vehicles-count"
        count={w.find.vehicles.count}
        empty={w.find.vehicles.empty}
        card={(v) => (
          <>
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
          </>
        )}
        columns={
          <>
            {address.header('registrationNumber', w.find.vehicles.plate)}
            <th scope="col">{w.find.vehicles.vehicle}</th>
            <th scope="col">{w.find.vehicles.state}</th>
            <th scope="col">{w.find.vehicles.station}</th>
            <th scope="col">{w.find.vehicles.documentsEnd}</th>
            {address.header('createdAt', w.find.vehicles.registered)}
          </>
        }
        row={(v) => (
          <>
            <th scope="row">
              <a href={`#/vehicles/${v._id}`}>{v.registrationNumber ?? v._id}</a>
            </th>
            <td>
              {v.make} {v.model}
            </td>
            <td class={standing(v) === 'inspection_failed' ? 'failed' : undefined}>{w.find.states[standing(v)]}</td>
            <td>{stationName(v)}</td>
            <td>
              <Ends date={documentsEnd(v)} now={now} />
            </td>
            <td>{day(v.createdAt)}</td>
          </>
        )}
      />
    </>
  );
}
