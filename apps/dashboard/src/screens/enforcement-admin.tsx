import { useState } from 'preact/hooks';
import type { components } from '@transport/api-client';
import { api, ApiProblem, must } from '../api';
import { words as w } from '../i18n';
import { ActionForm, dateTime, Loading, ProblemMessage, Title, useLoad, useNotice } from '../ui';

type Notice = components['schemas']['NoticeResponse'];
type Report = components['schemas']['EnforcementReportResponse'];

const cedis = (pesewas: number) => `GHS ${(pesewas / 100).toFixed(2)}`;
/** Today in Ghana's time, as YYYY-MM-DD. */
const today = () =>
  new Intl.DateTimeFormat('en-CA', {
    timeZone: 'Africa/Accra',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(new Date());

/** The roadside office (issue 47): the contests awaiting a decision, and the assembly's reports. */
export function EnforcementAdmin() {
  const { notice, announce } = useNotice();
  const contests = useLoad(() => must(api.GET('/enforcement/contests', {})), []);
  return (
    <>
      <Title>{w.enforcementAdmin.title}</Title>
      {notice}
      <section aria-labelledby="contests">
        <h2 id="contests">{w.enforcementAdmin.contests}</h2>
        {contests.error !== undefined && <ProblemMessage error={contests.error} retry={contests.reload} />}
        {contests.value === undefined && contests.error === undefined && <Loading />}
        {contests.value?.length === 0 && <p class="empty">{w.enforcementAdmin.noContests}</p>}
        {contests.value?.map((n) => (
          <Contest
            key={n._id}
            notice={n}
            decided={() => {
              announce({ words: w.enforcementAdmin.decided });
              contests.reload();
            }}
          />
        ))}
      </section>
      <Reports />
    </>
  );
}

function Contest({ notice: n, decided }: { notice: Notice; decided: () => void }) {
  const codes = n.offences.map((o) => o.code).join(', ');
  const id = `decide-${n._id}`;
  return (
    <article class="panel" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>{w.enforcementAdmin.notice(n._id.slice(-8).toUpperCase(), codes, cedis(n.fine))}</h3>
      {n.contest && (
        <>
          <p>{w.enforcementAdmin.contestedOn(dateTime(n.contest.at))}</p>
          <blockquote>{n.contest.text}</blockquote>
          {n.contest.photo && (
            <p>
              <a href={`/enforcement/notices/${n._id}/contest-photo`} target="_blank" rel="noopener">
                {w.enforcementAdmin.photo}
              </a>
            </p>
          )}
        </>
      )}
      <ActionForm
        label={`${w.enforcementAdmin.decide} ${n._id.slice(-8).toUpperCase()}`}
        submit={w.enforcementAdmin.record}
        done={w.enforcementAdmin.decided}
        announce={() => decided()}
        action={async (data) => {
          const outcome = String(data.get('outcome')) as 'upheld' | 'reduced' | 'cancelled';
          const amount = String(data.get('amount') ?? '').trim();
          await must(
            api.POST('/enforcement/notices/{id}/decision', {
              params: { path: { id: n._id } },
              body: {
                outcome,
                reason: String(data.get('reason') ?? ''),
                ...(outcome === 'reduced' && amount !== '' && { amount: Math.round(Number(amount) * 100) }),
              },
            }),
          );
        }}
      >
        <label for={`${id}-outcome`}>{w.enforcementAdmin.outcome}</label>
        <select id={`${id}-outcome`} name="outcome">
          {(['upheld', 'reduced', 'cancelled'] as const).map((o) => (
            <option key={o} value={o}>
              {w.enforcementAdmin.outcomes[o]}
            </option>
          ))}
        </select>
        <label for={`${id}-amount`}>{w.enforcementAdmin.amount}</label>
        <input id={`${id}-amount`} name="amount" inputMode="decimal" />
        <label for={`${id}-reason`}>{w.enforcementAdmin.reason}</label>
        <textarea id={`${id}-reason`} name="reason" rows={3} maxLength={500} required />
      </ActionForm>
    </article>
  );
}

/** The report of a range of days: totals, a bar chart of notices per day and the tables it is drawn from. */
function Reports() {
  const [range, setRange] = useState({ from: today(), to: today() });
  const report = useLoad(
    () => must(api.GET('/enforcement/reports', { params: { query: range } })),
    [range.from, range.to],
  );
  const forbidden = report.error instanceof ApiProblem && report.error.problem.status === 403;
  return (
    <section aria-labelledby="report">
      <h2 id="report">{w.enforcementAdmin.report}</h2>
      <form
        class="search"
        onSubmit={(event) => {
          event.preventDefault();
          const data = new FormData(event.currentTarget as HTMLFormElement);
          setRange({ from: String(data.get('from')), to: String(data.get('to')) });
        }}
      >
        <label for="report-from">{w.enforcementAdmin.from}</label>
        <input id="report-from" name="from" type="date" value={range.from} required />
        <label for="report-to">{w.enforcementAdmin.to}</label>
        <input id="report-to" name="to" type="date" value={range.to} required />
        <button type="submit">{w.enforcementAdmin.show}</button>
      </form>
      {forbidden && <p class="help">{w.enforcementAdmin.adminsOnly}</p>}
      {report.error !== undefined && !forbidden && <ProblemMessage error={report.error} retry={report.reload} />}
      {report.value === undefined && report.error === undefined && <Loading />}
      {report.value && <ReportTables report={report.value} />}
    </section>
  );
}

function ReportTables({ report: r }: { report: Report }) {
  const t = r.totals;
  const most = Math.max(1, ...r.days.map((d) => d.notices));
  const barWidth = 100 / Math.max(1, r.days.length);
  return (
    <>
      <p class="totals">
        {w.enforcementAdmin.totals({ ...t, issued: cedis(t.issued), collected: cedis(t.collected) })}
      </p>
      {/* The chart draws the table below (its accessible source): one bar of notices per day. */}
      <figure>
        <svg viewBox="0 0 100 40" width="100%" height="120" role="img" aria-label={w.enforcementAdmin.chart}>
          {r.days.map((d, i) => {
            const height = (d.notices / most) * 38;
            return (
              <rect
                key={d.day}
                x={i * barWidth + barWidth * 0.1}
                y={40 - height}
                width={barWidth * 0.8}
                height={height}
                fill="#0b6b2e"
              />
            );
          })}
        </svg>
        <figcaption>{w.enforcementAdmin.chart}</figcaption>
      </figure>
      {/* A region that scrolls sideways on a narrow phone, reachable with the keyboard. */}
      <div class="table-wrap" role="region" aria-label={w.enforcementAdmin.byDay} tabIndex={0}>
        <table>
          <caption>{w.enforcementAdmin.byDay}</caption>
          <thead>
            <tr>
              <th scope="col">{w.enforcementAdmin.day}</th>
              <th scope="col">{w.enforcementAdmin.notices}</th>
              <th scope="col">{w.enforcementAdmin.offences}</th>
              <th scope="col">{w.enforcementAdmin.issued}</th>
              <th scope="col">{w.enforcementAdmin.collected}</th>
              <th scope="col">{w.enforcementAdmin.checks}</th>
            </tr>
          </thead>
          <tbody>
            {r.days.map((d) => (
              <tr key={d.day}>
                <th scope="row">{d.day}</th>
                <td>{d.notices}</td>
                <td>{d.offences}</td>
                <td>{cedis(d.issued)}</td>
                <td>{cedis(d.collected)}</td>
                <td>{d.checks}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {/* A region that scrolls sideways on a narrow phone, reachable with the keyboard. */}
      <div class="table-wrap" role="region" aria-label={w.enforcementAdmin.byCode} tabIndex={0}>
        <table>
          <caption>{w.enforcementAdmin.byCode}</caption>
          <thead>
            <tr>
              <th scope="col">{w.enforcementAdmin.code}</th>
              <th scope="col">{w.enforcementAdmin.offences}</th>
              <th scope="col">{w.enforcementAdmin.issued}</th>
            </tr>
          </thead>
          <tbody>
            {r.codes.map((c) => (
              <tr key={c.code}>
                <th scope="row">{c.code}</th>
                <td>{c.offences}</td>
                <td>{cedis(c.issued)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {/* A region that scrolls sideways on a narrow phone, reachable with the keyboard. */}
      <div class="table-wrap" role="region" aria-label={w.enforcementAdmin.byOfficer} tabIndex={0}>
        <table>
          <caption>{w.enforcementAdmin.byOfficer}</caption>
          <thead>
            <tr>
              <th scope="col">{w.enforcementAdmin.officer}</th>
              <th scope="col">{w.enforcementAdmin.notices}</th>
              <th scope="col">{w.enforcementAdmin.issued}</th>
              <th scope="col">{w.enforcementAdmin.checks}</th>
            </tr>
          </thead>
          <tbody>
            {r.officers.map((o) => (
              <tr key={o.officer}>
                <th scope="row">{o.name || o.officer.slice(-6).toUpperCase()}</th>
                <td>{o.notices}</td>
                <td>{cedis(o.issued)}</td>
                <td>{o.checks}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
