// The words of the roadside office (issue 47): the open contests a supervisor decides and the assembly's reports. Part
// of `Words` (words.ts) as its `enforcementAdmin` entry.

import type { Translate } from './messages';

export const enforcementAdminWords = (t: Translate) => ({
  nav: t('enforcementAdmin.nav'),
  title: t('enforcementAdmin.title'),
  contests: t('enforcementAdmin.contests'),
  noContests: t('enforcementAdmin.noContests'),
  notice: (number: string, codes: string, fine: string) => t('enforcementAdmin.notice', { number, codes, fine }),
  contestedOn: (when: string) => t('enforcementAdmin.contestedOn', { when }),
  photo: t('enforcementAdmin.photo'),
  decide: t('enforcementAdmin.decide'),
  outcome: t('enforcementAdmin.outcome'),
  outcomes: {
    upheld: t('enforcementAdmin.upheld'),
    reduced: t('enforcementAdmin.reduced'),
    cancelled: t('enforcementAdmin.cancelled'),
  } as Record<string, string>,
  amount: t('enforcementAdmin.amount'),
  reason: t('enforcementAdmin.reason'),
  record: t('enforcementAdmin.record'),
  decided: t('enforcementAdmin.decided'),
  report: t('enforcementAdmin.report'),
  from: t('enforcementAdmin.from'),
  to: t('enforcementAdmin.to'),
  show: t('enforcementAdmin.show'),
  adminsOnly: t('enforcementAdmin.adminsOnly'),
  totals: (v: { notices: number; offences: number; issued: string; collected: string; checks: number }) =>
    t('enforcementAdmin.totals', v),
  chart: t('enforcementAdmin.chart'),
  byDay: t('enforcementAdmin.byDay'),
  byCode: t('enforcementAdmin.byCode'),
  byOfficer: t('enforcementAdmin.byOfficer'),
  day: t('enforcementAdmin.day'),
  notices: t('enforcementAdmin.notices'),
  offences: t('enforcementAdmin.offences'),
  issued: t('enforcementAdmin.issued'),
  collected: t('enforcementAdmin.collected'),
  checks: t('enforcementAdmin.checks'),
  code: t('enforcementAdmin.code'),
  officer: t('enforcementAdmin.officer'),
});
