import { Inject, Injectable } from '@nestjs/common';
import { CommonErrors, type Actor, type DataStores, type NoticeState } from '@transport/domain';
import type { AppConfig } from '../config';
import { assertAssemblyDuty } from '../core/auth/duties';
import { parseDateRange } from '../core/http/date-range';
import type { EnforcementStore, RoadsideCheckRecord } from '../core/ports';
import { APP_CONFIG, ENFORCEMENT_STORE, STORES } from '../core/tokens';
import type {
  EnforcementReportResponse,
  ReportCodeRow,
  ReportDayRow,
  ReportOfficerRow,
  ReportTotals,
} from './notice-decisions.dto';

const DAY_MS = 86_400_000;

/**
 * What the roadside did (issue 47, item 7): an assembly's (or every assembly's) offences by day, code and officer,
 * amounts issued and collected (pesewas) and checks made; (an officer's own day is the officer module's). Days are the assembly's time zone.
 */
@Injectable()
export class EnforcementReportsService {
  constructor(
    @Inject(ENFORCEMENT_STORE) private readonly enforcement: EnforcementStore,
    @Inject(STORES) private readonly stores: DataStores,
    @Inject(APP_CONFIG) private readonly config: Pick<AppConfig, 'timeZone'>,
  ) {}

  /** The report of a range of days: an assembly admin their assembly's (duty readCheckLog), the national admin any. */
  async report(
    query: { from: string; to: string; assembly?: string },
    actor: Actor,
  ): Promise<EnforcementReportResponse> {
    await assertAssemblyDuty(this.stores.assemblyUsers, actor, 'readCheckLog');
    if (actor.role !== 'admin' && query.assembly !== undefined && query.assembly !== actor.assemblyId)
      throw CommonErrors.notFound('assembly', query.assembly);
    const assemblyId = actor.role === 'admin' ? query.assembly : actor.assemblyId;
    const zone = this.config.timeZone;
    const range = parseDateRange(query.from, query.to, zone);
    const rows = await this.enforcement.reportRows({ ...(assemblyId && { assemblyId }), ...range });
    const issued = rows.notices.filter((n) => within(n.createdAt, range));
    const days = new Map<string, ReportDayRow>();
    // Every day of the range, in order, zeros included (a chart has no gaps).
    for (let at = range.from.getTime(); at < range.to.getTime(); at += DAY_MS / 2) {
      const day = dayOf(new Date(at), zone);
      if (!days.has(day)) days.set(day, { day, notices: 0, offences: 0, issued: 0, collected: 0, checks: 0 });
    }
    const dayRow = (at: Date) => days.get(dayOf(at, zone));
    for (const n of issued) {
      const row = dayRow(n.createdAt);
      if (row) Object.assign(row, add(row, n));
    }
    for (const n of rows.notices) {
      const row = n.paidAt && within(n.paidAt, range) ? dayRow(n.paidAt) : undefined;
      if (row && n.paidAt) row.collected += n.paid;
    }
    for (const c of rows.checks) {
      const row = dayRow(c.createdAt);
      if (row) row.checks += 1;
    }
    return {
      assembly: assemblyId ?? null,
      from: query.from,
      to: query.to,
      timeZone: zone,
      totals: totalsOf(issued, rows.notices, rows.checks, range),
      days: [...days.values()],
      codes: codesOf(issued),
      officers: await this.officersOf(issued, rows.checks),
    };
  }

  private async officersOf(notices: NoticeState[], checks: RoadsideCheckRecord[]): Promise<ReportOfficerRow[]> {
    const rows = new Map<string, ReportOfficerRow>();
    const row = (officer: string) => {
      let found = rows.get(officer);
      if (!found) rows.set(officer, (found = { officer, name: '', notices: 0, issued: 0, checks: 0 }));
      return found;
    };
    for (const n of notices) {
      const r = row(n.officerId);
      r.notices += 1;
      r.issued += n.fine;
    }
    for (const c of checks) row(c.officerId).checks += 1;
    for (const r of rows.values()) r.name = (await this.stores.assemblyUsers.findById(r.officer))?.toState().name ?? '';
    return [...rows.values()].sort((a, b) => b.notices - a.notices || b.checks - a.checks);
  }
}

const within = (at: Date, range: { from: Date; to: Date }) => at >= range.from && at < range.to;

const dayFormats = new Map<string, Intl.DateTimeFormat>();
/** The day of an instant in the time zone, as YYYY-MM-DD. */
function dayOf(at: Date, timeZone: string): string {
  let format = dayFormats.get(timeZone);
  if (!format)
    dayFormats.set(
      timeZone,
      (format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' })),
    );
  return format.format(at);
}

const add = <T extends { notices: number; offences: number; issued: number }>(row: T, n: NoticeState): T => ({
  ...row,
  notices: row.notices + 1,
  offences: row.offences + n.offences.length,
  issued: row.issued + n.fine,
});

function totalsOf(
  issued: NoticeState[],
  all: NoticeState[],
  checks: RoadsideCheckRecord[],
  range: { from: Date; to: Date },
): ReportTotals {
  const counted = issued.reduce((t, n) => add(t, n), { notices: 0, offences: 0, issued: 0 });
  const collected = all.reduce((sum, n) => (n.paidAt && within(n.paidAt, range) ? sum + n.paid : sum), 0);
  return { ...counted, collected, checks: checks.length };
}

function codesOf(notices: NoticeState[]): ReportCodeRow[] {
  const rows = new Map<string, ReportCodeRow>();
  for (const n of notices)
    for (const o of n.offences) {
      const row = rows.get(o.code) ?? { code: o.code, offences: 0, issued: 0 };
      row.offences += 1;
      row.issued += o.fine;
      rows.set(o.code, row);
    }
  return [...rows.values()].sort((a, b) => b.offences - a.offences || a.code.localeCompare(b.code));
}
