import { useState } from 'preact/hooks';
import { api, downloadComplianceCsv, page, type ComplianceEntry } from '../api';
import { words as w } from '../i18n';
import { go } from '../router';
import { day, Loading, ProblemMessage, Title, useLoad } from '../ui';

const WINDOWS = [0, 30, 60, 90];
const PAGE_SIZE = 50;

/** The window the address names (`#/compliance?within=60`), so Back returns to the list that was shown. */
export function complianceWindow(query: URLSearchParams): number {
  const within = Number(query.get('within') ?? '30');
  return WINDOWS.includes(within) ? within : 30;
}

/** The compliance list of one window (keyed by it in main.tsx: another window starts at its first page). */
export function Compliance({ within }: { within: number }) {
  const [after, setAfter] = useState<string[]>([]);
  const [download, setDownload] = useState<{ busy?: boolean; error?: unknown }>({});
  const cursor = after[after.length - 1];
  const list = useLoad(
    () =>
      page<ComplianceEntry>(
        api.GET('/vehicles/compliance', {
          params: { query: { within, limit: PAGE_SIZE, count: 'true', after: cursor } },
        }),
      ),
    [within, cursor],
  );
  const next = list.value?.next;

  return (
    <>
      <Title>{w.compliance.title}</Title>
      <p class="help">{w.compliance.intro}</p>
      <form
        class="search"
        onSubmit={(event) => {
          event.preventDefault();
          const data = new FormData(event.currentTarget as HTMLFormElement);
          go(`/compliance?within=${Number(data.get('within'))}`);
        }}
      >
        <label for="within">{w.compliance.within}</label>
        <div class="row">
          <select id="within" name="within">
            {WINDOWS.map((n) => (
              <option key={n} value={n} {...{ defaultSelected: n === within }}>
                {w.compliance.days(n)}
              </option>
            ))}
          </select>
          <button type="submit">{w.compliance.show}</button>
          <button
            type="button"
            class="primary"
            disabled={download.busy}
            onClick={async () => {
              setDownload({ busy: true });
              try {
                await downloadComplianceCsv(within);
                setDownload({});
              } catch (error) {
                setDownload({ error });
              }
            }}
          >
            {download.busy ? w.compliance.downloading : w.compliance.download}
          </button>
        </div>
      </form>
      {download.error !== undefined && <ProblemMessage error={download.error} />}
      {list.error !== undefined && <ProblemMessage error={list.error} retry={list.reload} />}
      {list.value === undefined && list.error === undefined && <Loading />}
      {list.value && (
        <section aria-labelledby="compliance-list">
          <h2 id="compliance-list">{w.compliance.total(list.value.total ?? list.value.items.length)}</h2>
          {list.value.items.length === 0 ? (
            <p class="empty">{w.compliance.empty}</p>
          ) : (
            <ul class="cards">
              {list.value.items.map(({ vehicle, reasons }) => (
                <li key={vehicle._id}>
                  <a href={`#/vehicles/${vehicle._id}`} class="card-title">
                    {vehicle.registrationNumber}
                  </a>
                  <span>
                    {vehicle.make} {vehicle.model}
                  </span>
                  <ul class="reasons">
                    {reasons.map((r) => (
                      <li key={r.code}>
                        {w.compliance.reasons[r.code] ?? r.code}
                        {r.code.startsWith('ROADWORTHY') && ` (${day(vehicle.roadWorthyExpiryDate)})`}
                        {r.code.startsWith('INSURANCE') && ` (${day(vehicle.insuranceExpiryDate)})`}
                      </li>
                    ))}
                  </ul>
                </li>
              ))}
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
              <button type="button" class="quiet" onClick={() => setAfter([...after, next as string])}>
                {w.pager.next}
              </button>
            )}
          </nav>
        </section>
      )}
    </>
  );
}
