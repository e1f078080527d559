import { useEffect, useRef, useState } from 'preact/hooks';
import type { components } from '@transport/api-client';
import { api, ApiProblem, page, type Session } from '../api';
import { words as w } from '../i18n';
import { ProblemMessage, Title } from '../ui';
import { searchPack, type PackVehicle } from '../offline/pack';
import { PackAge } from '../offline/pack-views';

export type SearchHit = components['schemas']['SearchHitResponse'];

const PAGE_SIZE = 20;
/** How long typing pauses before the search runs: one request per pause, not one per key. */
const PAUSE_MS = 300;
/** The API's own rule (docs/api.md, "Finding records"): at least 3 letters or digits. */
const enough = (text: string) => (text.match(/[\p{L}\p{N}]/gu) ?? []).length >= 3;

interface Found {
  query: string;
  hits: SearchHit[];
  total?: number;
  next?: string;
  /** Found in the work pack on this phone: there was no connection. */
  offline?: boolean;
}

/** Where a hit leads: a vehicle's or driver's record; an owner (who has no record page) to the list of their vehicles. */
function hitLink(hit: SearchHit): string {
  if (hit.kind === 'vehicle') return `#/vehicles/${hit._id}`;
  if (hit.kind === 'driver') return `#/drivers/${hit._id}`;
  return `#/vehicles?owner=${hit._id}`;
}

const search = (query: string, after?: string) =>
  page<SearchHit>(api.GET('/search', { params: { query: { query, limit: PAGE_SIZE, count: 'true', after } } }));

/** A vehicle of the work pack as a hit (without a signal, only plates are searched, in the pack). */
const packHit = (v: PackVehicle): SearchHit => ({
  kind: 'vehicle',
  _id: v._id,
  label: v.registrationNumber ?? v._id,
  detail: [v.make, v.model].filter(Boolean).join(' ') || undefined,
  state: v.state,
  assembly: null,
  createdAt: '',
});

/** The registry's search; without a connection, the plates of the work pack kept on this phone. */
async function searchOrPack(personId: string, query: string, after?: string): Promise<Found> {
  try {
    if (!navigator.onLine) throw new ApiProblem(0, {});
    const answer = await search(query, after);
    return { query, hits: answer.items, total: answer.total, next: answer.next };
  } catch (problem) {
    if (after || !(problem instanceof ApiProblem && problem.status === 0)) throw problem;
    return { query, hits: (await searchPack(personId, query)).map(packHit), offline: true };
  }
}

/**
 * One search box over the whole registry (vehicles, drivers, owners, in any state, within the person's assembly):
 * results as the person types, paged with "More results". What was typed stays in the address, so Back returns to it.
 */
export function Find({ initial, session }: { initial: string; session: Session }) {
  const [typed, setTyped] = useState(initial);
  const [found, setFound] = useState<Found | undefined>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  // Only the answer to the latest question is shown: an earlier one arriving late is dropped.
  const asked = useRef(0);

  const run = (query: string, after?: string) => {
    const round = ++asked.current;
    setBusy(true);
    setError(undefined);
    searchOrPack(session.person._id, query, after).then(
      (answer) => {
        if (round !== asked.current) return;
        setBusy(false);
        setFound((was) => ({
          ...answer,
          hits: after && was ? [...was.hits, ...answer.hits] : answer.hits,
          total: answer.total ?? was?.total,
        }));
      },
      (problem: unknown) => {
        if (round !== asked.current) return;
        setBusy(false);
        setError(problem);
      },
    );
  };

  useEffect(() => {
    const query = typed.trim();
    history.replaceState(null, '', query ? `#/find?q=${encodeURIComponent(query)}` : '#/find');
    if (!enough(query)) {
      asked.current++;
      setFound(undefined);
      setBusy(false);
      return;
    }
    const timer = setTimeout(() => run(query), PAUSE_MS);
    return () => clearTimeout(timer);
  }, [typed]);

  return (
    <>
      <Title>{w.find.title}</Title>
      <form
        role="search"
        class="search"
        onSubmit={(event) => {
          event.preventDefault();
          if (enough(typed.trim())) run(typed.trim());
        }}
      >
        <label for="find">{w.find.label}</label>
        <p class="help" id="find-help">
          {w.find.help}
        </p>
        <div class="row">
          <input
            id="find"
            name="q"
            type="search"
            autocomplete="off"
            aria-describedby="find-help"
            value={typed}
            onInput={(event) => setTyped((event.currentTarget as HTMLInputElement).value)}
          />
        </div>
      </form>
      <PackAge session={session} />
      <p class="muted" role="status">
        {busy
          ? w.find.searching
          : found?.offline
            ? found.hits.length === 0
              ? w.pack.offlineNone
              : w.pack.offlineFound(found.hits.length)
            : found
              ? found.hits.length === 0
                ? w.find.none
                : w.find.found(found.total ?? found.hits.length)
              : typed.trim()
                ? w.find.tooShort
                : ''}
      </p>
      {found?.offline && <p class="help">{w.pack.offlineOnlyPlates}</p>}
      {found?.offline && session.person.role === 'inspector' && (
        <p>
          <a href={`#/inspect-plate?plate=${encodeURIComponent(found.query)}`}>{w.pack.inspectUnknown(found.query)}</a>
        </p>
      )}
      {error !== undefined && <ProblemMessage error={error} />}
      {found && found.hits.length > 0 && (
        <ul class="cards hits">
          {found.hits.map((hit) => (
            <li key={`${hit.kind}${hit._id}`}>
              {hit.kind === 'owner' ? (
                <span class="card-title">{hit.label}</span>
              ) : (
                <a href={hitLink(hit)} class="card-title">
                  {hit.label}
                </a>
              )}
              <span>
                {w.find.kinds[hit.kind] ?? hit.kind}
                {hit.detail ? ` · ${hit.detail}` : ''}
              </span>
              <span class={hit.state === 'inspection_failed' || hit.state === 'revoked' ? 'failed' : 'muted'}>
                {w.find.states[hit.state] ?? hit.state}
              </span>
              {hit.kind === 'owner' && <a href={hitLink(hit)}>{w.find.ownerVehicles(hit.label)}</a>}
            </li>
          ))}
        </ul>
      )}
      {found?.next && (
        <button type="button" aria-disabled={busy} onClick={() => !busy && run(found.query, found.next)}>
          {w.find.more}
        </button>
      )}
    </>
  );
}
