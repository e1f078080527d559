import { api, ApiProblem, page, type Driver, type ListPage, type Session, type Vehicle } from '../api';
import { words as w } from '../i18n';
import { colourName } from '../colours';
import { go } from '../router';
import { dateTime, day, Loading, ProblemMessage, Title, useLoad } from '../ui';
import { onOutboxSent } from '../offline/store';
import { PackQueue } from '../offline/pack-views';
import { useEffect } from 'preact/hooks';

const PAGE_SIZE = 20;
type QueueName = 'inspection' | 'approval' | 'failed' | 'drivers' | 'windows';
const QUEUES: QueueName[] = ['inspection', 'approval', 'failed', 'drivers', 'windows'];
/** Vehicles whose free re-inspection ends within this many days (issue 46, item 2). */
const WINDOW_DAYS = 7;
const queueName = (q: QueueName) => (q === 'windows' ? w.evidence.windowsEnding : w.queues[q]);

/** One queue's page: the assembly's records waiting for that step, newest first (the API scopes to the assembly). */
function load(queue: QueueName, after?: string, search?: string): Promise<ListPage<Vehicle | Driver>> {
  const paging = { limit: PAGE_SIZE, count: 'true', after } as const;
  if (queue === 'drivers') {
    // The interface's driver list answers { status, payload } (operation 3).
    return page(
      api.GET('/drivers/all', { params: { query: { ...paging, approved: 'false', email: search } } }),
      (data) => data.payload,
    );
  }
  // Awaiting approval: only vehicles whose last inspection passed every item; those that failed wait in their own list
  // (for a passing re-inspection), never in the approver's queue.
  if (queue === 'windows')
    return page(
      api.GET('/vehicles/all', {
        params: { query: { ...paging, reinspectionEnding: WINDOW_DAYS, registrationNumber: search } },
      }),
    );
  const filter =
    queue === 'inspection'
      ? ({ inspected: 'false' } as const)
      : ({ approved: 'false', inspection: queue === 'approval' ? 'passed' : 'failed' } as const);
  return page(api.GET('/vehicles/all', { params: { query: { ...paging, ...filter, registrationNumber: search } } }));
}

function href(queue: QueueName, params: Record<string, string | undefined>): string {
  const query = new URLSearchParams(Object.entries(params).filter((e): e is [string, string] => Boolean(e[1])));
  const text = query.toString();
  return `#/queue/${queue}${text ? `?${text}` : ''}`;
}

export function Queues(props: { queue?: string; query: URLSearchParams; session: Session }) {
  const queue: QueueName = QUEUES.includes(props.queue as QueueName) ? (props.queue as QueueName) : 'inspection';
  const after = props.query.get('after') ?? undefined;
  const search = props.query.get('q') ?? undefined;
  const pageNumber = Number(props.query.get('page') ?? '1') || 1;
  const counts = useLoad(() => Promise.all(QUEUES.map((q) => load(q).then((p) => p.total ?? 0))), []);
  const list = useLoad(() => load(queue, after, search), [queue, after, search]);
  // The outbox sent inspections while these loaded: both read again, so the counts never contradict the list.
  useEffect(
    () =>
      onOutboxSent(() => {
        counts.reload();
        list.reload();
      }),
    [],
  );

  return (
    <>
      <Title>{w.queues.title}</Title>
      <nav class="tabs" aria-label={w.queues.title}>
        {QUEUES.map((q, i) => (
          <a key={q} href={href(q, {})} aria-current={q === queue ? 'page' : undefined}>
            <span>{queueName(q)}</span>
            <span class="count">{counts.value ? w.queues.count(counts.value[i]) : '…'}</span>
          </a>
        ))}
      </nav>
      <section aria-labelledby="queue-title">
        <h2 id="queue-title">{queueName(queue)}</h2>
        <form
          role="search"
          class="search"
          onSubmit={(event) => {
            event.preventDefault();
            const data = new FormData(event.currentTarget as HTMLFormElement);
            go(href(queue, { q: String(data.get('q') ?? '').trim() }).slice(1));
          }}
        >
          <label for="q">{queue === 'drivers' ? w.queues.searchDriver : w.queues.searchVehicle}</label>
          <div class="row">
            <input
              id="q"
              name="q"
              type="search"
              inputMode={queue === 'drivers' ? 'email' : 'text'}
              autocomplete="off"
              defaultValue={search ?? ''}
              key={`${queue}${search}`}
            />
            <button type="submit">{w.queues.search}</button>
            {search && (
              <a class="button quiet" href={href(queue, {})}>
                {w.queues.clear}
              </a>
            )}
          </div>
        </form>
        {list.error !== undefined && <ProblemMessage error={list.error} retry={list.reload} />}
        {/* Without a signal, an inspector still has the inspection queue: the work pack's. */}
        {queue === 'inspection' && list.error instanceof ApiProblem && list.error.status === 0 && (
          <PackQueue session={props.session} />
        )}
        {list.value === undefined && list.error === undefined && <Loading />}
        {list.value && (
          <>
            {list.value.items.length === 0 ? (
              <p class="empty">{search ? w.queues.notFound : w.queues.empty}</p>
            ) : (
              <ul class="cards">
                {list.value.items.map((item) =>
                  queue === 'drivers' ? (
                    <DriverCard key={item._id} driver={item as Driver} />
                  ) : (
                    <VehicleCard key={item._id} vehicle={item as Vehicle} />
                  ),
                )}
              </ul>
            )}
            <nav class="pager" aria-label={w.pager.label}>
              <span>{w.pager.page(pageNumber)}</span>
              {after && <a href={href(queue, { q: search })}>{w.pager.first}</a>}
              {list.value.next && (
                <a href={href(queue, { q: search, after: list.value.next, page: String(pageNumber + 1) })}>
                  {w.pager.next}
                </a>
              )}
            </nav>
          </>
        )}
      </section>
    </>
  );
}

function VehicleCard({ vehicle }: { vehicle: Vehicle }) {
  const checklist = vehicle.inspectionChecklist ?? {};
  const failed = Object.entries(checklist)
    .filter(([, passed]) => !passed)
    .map(([item]) => w.checklist[item] ?? item);
  return (
    <li>
      <a href={`#/vehicles/${vehicle._id}`} class="card-title">
        {vehicle.registrationNumber}
      </a>
      <span>
        {vehicle.make} {vehicle.model} · {colourName(vehicle.color)}
      </span>
      <span class="muted">
        {vehicle.inspected
          ? `${w.queues.inspectedOn} ${day(vehicle.dateInspected)}`
          : `${w.queues.registered} ${day(vehicle.createdAt)}`}
      </span>
      {failed.length > 0 && <span class="failed">{w.queues.failedItems(failed.join(', '))}</span>}
      {vehicle.reinspectionDueBy && (
        <span class="muted">{w.evidence.windowEnds(dateTime(vehicle.reinspectionDueBy))}</span>
      )}
    </li>
  );
}

function DriverCard({ driver }: { driver: Driver }) {
  return (
    <li>
      <a href={`#/drivers/${driver._id}`} class="card-title">
        {driver.name}
      </a>
      <span>{driver.email}</span>
      <span class="muted">
        {w.queues.registered} {day(driver.createdAt)}
      </span>
    </li>
  );
}
