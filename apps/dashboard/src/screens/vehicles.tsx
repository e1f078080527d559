import { useState } from 'preact/hooks';
import { api, must, page, type Vehicle } from '../api';
import { colourName } from '../colours';
import { words as w } from '../i18n';
import { go } from '../router';
import { day, Loading, ProblemMessage, Title, useLoad, useNarrow } from '../ui';

const PAGE_SIZE = 20;
const STATES = ['awaiting_inspection', 'inspection_failed', 'awaiting_approval', 'approved'] as const;
type State = (typeof STATES)[number];
/** What the list is filtered by, as the address holds it (`#/vehicles?state=approved&station=...`). */
const FILTERS = ['state', 'station', 'union', 'owner'] as const;

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

function href(params: Record<string, string | undefined>): string {
  const query = new URLSearchParams(Object.entries(params).filter((e): e is [string, string] => Boolean(e[1])));
  const text = query.toString();
  return `/vehicles${text ? `?${text}` : ''}`;
}

type SortKey = 'plate' | 'state' | 'registered';
const SORTS: Record<SortKey, (a: Vehicle, b: Vehicle) => number> = {
  plate: (a, b) => (a.registrationNumber ?? '').localeCompare(b.registrationNumber ?? ''),
  state: (a, b) => STATES.indexOf(standing(a)) - STATES.indexOf(standing(b)),
  registered: (a, b) => a.createdAt.localeCompare(b.createdAt),
};

/**
 * Every vehicle of the assembly, newest first, filtered by state, station, transport union or owner (the API's filters
 * of GET /vehicles/all), paged by the API's cursor: a table at a desk, cards on a phone. The API lists newest first
 * only, so a column's sort orders the page shown, not the whole list.
 */
export function VehicleList({ query }: { query: URLSearchParams }) {
  const filters = Object.fromEntries(FILTERS.map((f) => [f, query.get(f) ?? undefined])) as Record<
    (typeof FILTERS)[number],
    string | undefined
  >;
  const after = query.get('after') ?? undefined;
  const pageNumber = Number(query.get('page') ?? '1') || 1;
  const narrow = useNarrow();
  const [sort, setSort] = useState<{ key: SortKey; up: boolean } | undefined>();
  const key = query.toString();

  const choices = useLoad(
    () =>
      Promise.all([
        must(api.GET('/stations/all', { params: { query: { limit: 100 } } })),
        must(api.GET('/unions/all', { params: { query: { limit: 100 } } })),
      ]),
    [],
  );
  const list = useLoad(() => {
    const state = STATES.includes(filters.state as State) ? STATE_QUERY[filters.state as State] : {};
    return page<Vehicle>(
      api.GET('/vehicles/all', {
        params: {
          query: {
            limit: PAGE_SIZE,
            count: 'true',
            after,
            ...state,
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
  const shown = list.value ? [...list.value.items] : [];
  if (sort) shown.sort((a, b) => (sort.up ? 1 : -1) * SORTS[sort.key](a, b));
  const filtered = FILTERS.some((f) => filters[f]);

  const header = (column: SortKey, label: string) => (
    <th scope="col" aria-sort={sort?.key === column ? (sort.up ? 'ascending' : 'descending') : undefined}>
      <button
        type="button"
        class="quiet sort"
        aria-label={w.find.vehicles.sortBy(label)}
        onClick={() => setSort({ key: column, up: sort?.key === column ? !sort.up : true })}
      >
        {label}
      </button>
    </th>
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
            go(
              href({
                state: String(data.get('state') ?? ''),
                station: String(data.get('station') ?? ''),
                union: String(data.get('union') ?? ''),
                owner: filters.owner,
              }),
            );
          }}
        >
          <div class="row">
            <div>
              <label for="filter-state">{w.find.vehicles.state}</label>
              <select id="filter-state" name="state">
                <option value="">{w.find.vehicles.any}</option>
                {STATES.map((s) => (
                  <option key={s} value={s} selected={filters.state === s}>
                    {w.find.states[s]}
                  </option>
                ))}
              </select>
            </div>
            <div>
              <label for="filter-station">{w.find.vehicles.station}</label>
              <select id="filter-station" name="station">
                <option value="">{w.find.vehicles.any}</option>
                {stations.map((s) => (
                  <option key={s._id} value={s._id} selected={filters.station === s._id}>
                    {s.name}
                  </option>
                ))}
              </select>
            </div>
            <div>
              <label for="filter-union">{w.find.vehicles.union}</label>
              <select id="filter-union" name="union">
                <option value="">{w.find.vehicles.any}</option>
                {unions.map((u) => (
                  <option key={u._id} value={u._id} selected={filters.union === u._id}>
                    {u.name}
                  </option>
                ))}
              </select>
            </div>
          </div>
          <button type="submit" class="primary">
            {w.find.vehicles.apply}
          </button>
          {filtered && (
            <a class="button quiet" href="#/vehicles">
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
          <p class="help">{w.find.vehicles.sortNote}</p>
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
                    {w.find.vehicles.registered} {day(v.createdAt)}
                  </span>
                </li>
              ))}
            </ul>
          ) : (
            <table class="list">
              <thead>
                <tr>
                  {header('plate', w.find.vehicles.plate)}
                  <th scope="col">{w.find.vehicles.vehicle}</th>
                  {header('state', w.find.vehicles.state)}
                  <th scope="col">{w.find.vehicles.station}</th>
                  {header('registered', w.find.vehicles.registered)}
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
                    <td>{day(v.createdAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <nav class="pager" aria-label={w.pager.label}>
            <span>{w.pager.page(pageNumber)}</span>
            {after && <a href={`#${href(filters)}`}>{w.pager.first}</a>}
            {list.value.next && (
              <a href={`#${href({ ...filters, after: list.value.next, page: String(pageNumber + 1) })}`}>
                {w.pager.next}
              </a>
            )}
          </nav>
        </section>
      )}
    </>
  );
}
