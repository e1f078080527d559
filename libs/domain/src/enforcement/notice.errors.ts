import { DomainError } from '../shared/domain-error';

/** The refusals of an offence catalogue and of a notice (issue 47). */
export const NoticeErrors = {
  duplicateOffence: (code: string) =>
    new DomainError('INVALID_VALUE', `offences: the code ${code} is listed twice`, 'offences'),
  offenceNotFound: (code: string, version: number) =>
    new DomainError(
      'OFFENCE_NOT_FOUND',
      `The assembly's offence catalogue (version ${version}) has no offence ${code}`,
      'offences',
    ),
  alreadyPaid: () => new DomainError('NOTICE_ALREADY_PAID', 'The notice is paid'),
  cancelled: () => new DomainError('NOTICE_CANCELLED', 'The notice was cancelled: nothing is owed'),
  contested: () =>
    new DomainError('NOTICE_CONTESTED', 'The notice is contested: it can be paid once a supervisor has decided'),
  notContestable: () =>
    new DomainError('NOTICE_NOT_CONTESTABLE', "None of the notice's offences can be contested under its catalogue"),
  contestClosed: (by: Date) =>
    new DomainError('NOTICE_CONTEST_CLOSED', `The notice could be contested until ${by.toISOString()}`),
  alreadyContested: () => new DomainError('NOTICE_ALREADY_CONTESTED', 'The notice has been contested once already'),
  notContested: () => new DomainError('NOTICE_NOT_CONTESTED', 'Only a contested notice is decided'),
  deciderIsOfficer: () =>
    new DomainError('NOTICE_DECIDER_IS_OFFICER', 'The officer who recorded the offence cannot decide its contest'),
  cancelByOfficer: () =>
    new DomainError('NOTICE_CANCEL_BY_OFFICER', 'The officer who recorded the offence cannot cancel the notice'),
  overdueBlocksVehicle: () =>
    new DomainError(
      'VEHICLE_HAS_OVERDUE_NOTICES',
      'The vehicle has overdue roadside notices: its assembly approves or renews it once they are settled',
    ),
  notOverdue: (due: Date) => new DomainError('NOTICE_NOT_OVERDUE', `The notice is due by ${due.toISOString()}`),
  reductionNotBelowFine: (fine: number) =>
    new DomainError(
      'INVALID_AMOUNT',
      `A reduced fine must be from 1 pesewa to less than the fine (${(fine / 100).toFixed(2)})`,
      'amount',
    ),
};
