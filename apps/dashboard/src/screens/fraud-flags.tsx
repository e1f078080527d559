import { useState } from 'preact/hooks';
import type { components } from '@transport/api-client';
import { api, must, page, type AssemblyUser } from '../api';
import { words as w } from '../i18n';
import { go } from '../router';
import { dateTime, Done, Loading, ProblemMessage, Title, useLoad } from '../ui';

type Flag = components['schemas']['FraudFlagResponse'];
const KINDS = ['quick-succession', 'far-from-station', 'photo-reused', 'pass-rate-outlier', 'sticker-without-photos'];
const STATUSES = ['open', 'cleared', 'all'] as const;
const PAGE_SIZE = 50;

/** The filters the address names (`#/fraud-flags?status=cleared&kind=photo-reused`), so Back returns to them. */
export function fraudFilters(query: URLSearchParams): { status: (typeof STATUSES)[number]; kind: string } {
  const status = STATUSES.find((s) => s === query.get('status')) ?? 'open';
  const kind = KINDS.find((k) => k === query.get('kind')) ?? '';
  return { status, kind };
}

/**
 * The assembly admin's review of signs of fraud (docs/fraud-flags.md): each flag with its plain explanation, the
 * vehicle and the inspector, and for an open one a reason to clear it with (audited by the API). Flags stop no work.
 */
export function FraudFlags({ status, kind }: { status: (typeof STATUSES)[number]; kind: string }) {
  const [after, setAfter] = useState<string[]>([]);
  const [said, setSaid] = useState<{ done?: boolean; error?: unknown }>({});
  const cursor = after[after.length - 1];
  const list = useLoad(
    () =>
      page<Flag>(
        api.GET('/assembly/fraud-flags', {
          params: {
            query: {
              limit: PAGE_SIZE,
              after: cursor,
              ...(status !== 'all' && { status }),
              ...(kind && { kind: kind as Flag['kind'] }),
            },
          },
        }),
      ),
    [status, kind, cursor],
  );
  // Names for the ids a flag carries (the admin's own staff list).
  const staff = useLoad(() => must(api.GET('/assembly/users', { params: { query: { limit: 200 } } })), []);
  const name = (id: string | null) => (id && staff.value?.find((u: AssemblyUser) => u._id === id)?.name) || (id ?? '');

  return (
    <>
      <Title>{w.fraud.title}</Title>
      <p class="help">{w.fraud.intro}</p>
      <form
        class="search"
        onSubmit={(event) => {
          event.preventDefault();
          const data = new FormData(event.currentTarget as HTMLFormElement);
          const k = String(data.get('kind') ?? '');
          go(`/fraud-flags?status=${String(data.get('status'))}${k ? `&kind=${k}` : ''}`);
        }}
      >
        <label for="fraud-status">{w.fraud.show}</label>
        <select id="fraud-status" name="status">
          {STATUSES.map((s) => (
            <option key={s} value={s} {...{ defaultSelected: s === status }}>
              {w.fraud.status[s]}
            </option>
          ))}
        </select>
        <label for="fraud-kind">{w.fraud.kind}</label>
        <div class="row">
          <select id="fraud-kind" name="kind">
            <option value="" {...{ defaultSelected: kind === '' }}>
              {w.fraud.allKinds}
            </option>
            {KINDS.map((k) => (
              <option key={k} value={k} {...{ defaultSelected: k === kind }}>
                {w.fraud.kinds[k]}
              </option>
            ))}
          </select>
          <button type="submit">{w.compliance.show}</button>
        </div>
      </form>
      <div aria-live="polite">{said.done && <Done>{w.fraud.clearedNow}</Done>}</div>
      {said.error !== undefined && <ProblemMessage error={said.error} />}
      {list.error !== undefined && <ProblemMessage error={list.error} retry={list.reload} />}
      {list.value === undefined && list.error === undefined && <Loading />}
      {list.value && (
        <section aria-labelledby="fraud-list">
          <h2 id="fraud-list">{status === 'all' ? w.fraud.status.all : w.fraud.status[status]}</h2>
          {list.value.items.length === 0 ? (
            <p class="empty">{w.fraud.none}</p>
          ) : (
            <ul class="cards">
              {list.value.items.map((flag) => {
                const what = w.fraud.kinds[flag.kind] ?? flag.kind;
                return (
                  <li key={flag._id}>
                    <span class="card-title">{what}</span>
                    <span>{w.fraud.explain(flag.kind, flag.details)}</span>
                    {flag.vehicle && (
                      <a href={`#/vehicles/${flag.vehicle}`}>
                        {w.fraud.vehicle(flag.registrationNumber ?? flag.vehicle)}
                      </a>
                    )}
                    {flag.inspector && <span>{w.fraud.inspector(name(flag.inspector))}</span>}
                    <span class="muted">{w.fraud.raised(dateTime(flag.raisedAt))}</span>
                    {flag.cleared ? (
                      <span>
                        {w.fraud.cleared(dateTime(flag.cleared.at), name(flag.cleared.by), flag.cleared.reason)}
                      </span>
                    ) : (
                      <form
                        class="clear-flag"
                        onSubmit={async (event) => {
                          event.preventDefault();
                          const data = new FormData(event.currentTarget as HTMLFormElement);
                          setSaid({});
                          try {
                            await must(
                              api.POST('/assembly/fraud-flags/{id}/clear', {
                                params: { path: { id: flag._id } },
                                body: { reason: String(data.get('reason') ?? '').trim() },
                              }),
                            );
                            setSaid({ done: true });
                            list.reload();
                          } catch (error) {
                            setSaid({ error });
                          }
                        }}
                      >
                        <label for={`reason-${flag._id}`}>{w.fraud.reason}</label>
                        <input id={`reason-${flag._id}`} name="reason" required maxLength={500} autocomplete="off" />
                        <button type="submit" aria-label={w.fraud.clearWhat(what)}>
                          {w.fraud.clear}
                        </button>
                      </form>
                    )}
                  </li>
                );
              })}
            </ul>
          )}
          <nav class="pager" aria-label={w.pager.label}>
            <span>{w.pager.page(after.length + 1)}</span>
            {after.length > 0 && (
              <button type="button" class="quiet" onClick={() => setAfter([])}>
                {w.pager.first}
              </button>
            )}
            {list.value.next && (
              <button type="button" class="quiet" onClick={() => setAfter([...after, list.value?.next as string])}>
                {w.pager.next}
              </button>
            )}
          </nav>
        </section>
      )}
    </>
  );
}
