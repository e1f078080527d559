import { requireText } from '../shared/contact';
import { DomainError } from '../shared/domain-error';
import type { DomainEvent } from '../shared/events';
import type { GeoPoint } from '../shared/geo-point';
import { assertObjectId, type IdGenerator } from '../shared/id-generator';
import { assertPesewas } from '../shared/money';
import type { Mutable } from '../shared/mutable';
import { validDate } from '../shared/values';
import { OffenceCatalogue, type OffenceCatalogueState, type OffenceTerms } from './offence-catalogue';
import { NoticeErrors } from './notice.errors';

/**
 * `issued`: owed, within its days to pay; `overdue`: owed, past them (the surcharge applies); `contested`: the owner
 * contested it, a supervisor decides; `decided`: upheld or reduced, owed again from the decision; `paid` and
 * `cancelled` are final. A notice is never deleted.
 */
export const NOTICE_STATUSES = ['issued', 'overdue', 'contested', 'decided', 'paid', 'cancelled'] as const;
export type NoticeStatus = (typeof NOTICE_STATUSES)[number];
export const DECISIONS = ['upheld', 'reduced', 'cancelled'] as const;
export type Decision = (typeof DECISIONS)[number];

export const MAX_OFFENCES_PER_NOTICE = 10;
/** The most characters of an owner's contest. */
export const CONTEST_MAX_CHARS = 1000;
const DAY_MS = 86_400_000;

export interface NoticeDecision {
  readonly outcome: Decision;
  readonly by: string;
  readonly reason: string;
  readonly at: Date;
  /** The reduced fine (pesewas), for `reduced`. */
  readonly amount?: number;
}

export interface NoticeState {
  readonly id: string;
  readonly assemblyId: string;
  readonly vehicleId: string;
  readonly driverId?: string;
  /** Who recorded the offence. */
  readonly officerId: string;
  readonly catalogueVersion: number;
  /** The offences' terms as they were when the notice was issued. */
  readonly offences: readonly OffenceTerms[];
  readonly notes?: string;
  /** When and where the officer's phone says the offence was recorded; `createdAt` is when the service received it. */
  readonly madeAt: Date;
  readonly madeWhere?: GeoPoint;
  readonly status: NoticeStatus;
  /** The sum of the offences' fines (pesewas). */
  readonly fine: number;
  /** The sum of their surcharges, owed once overdue (pesewas). */
  readonly surcharge: number;
  /** Pay by this time without the surcharge (from the offence; from the decision after a contest). */
  readonly dueAt: Date;
  /** Contest by this time; absent when no offence can be contested. */
  readonly contestBy?: Date;
  /** The owner's contest: a short text and, optionally, the object-storage key of a photo (its location stripped). */
  readonly contest?: { readonly text: string; readonly at: Date; readonly photo?: string };
  readonly decision?: NoticeDecision;
  readonly cancellation?: { readonly by: string; readonly reason: string; readonly at: Date };
  /** Received and kept for the notice so far (pesewas). */
  readonly paid: number;
  /** Received and owed back (pesewas): paid beyond what was owed, or paid for a notice since cancelled. */
  readonly refundDue: number;
  readonly paidAt?: Date;
  /** The stored revision (the repository moves it on each save). */
  readonly version: number;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

export interface NoticeInput {
  catalogue: OffenceCatalogueState;
  codes: readonly string[];
  vehicleId: string;
  driverId?: string;
  officerId: string;
  madeAt: Date;
  madeWhere?: GeoPoint;
  notes?: string;
}

/** What a confirmed payment did: the part the notice took, and the part beyond what it owed (to refund). */
export interface NoticePayment {
  readonly applied: number;
  readonly excess: number;
  readonly status: NoticeStatus;
}

const earliest = (days: number[]) => Math.min(...days);
const addDays = (at: Date, days: number) => new Date(at.getTime() + days * DAY_MS);

/**
 * Refuses (VEHICLE_HAS_OVERDUE_NOTICES) approving or renewing a vehicle with a notice owed past its due time, when its
 * assembly set that overdue notices block it (off by default).
 */
export function assertNoOverdueNotices(blocking: boolean, openNotices: readonly Notice[], at: Date): void {
  if (blocking && openNotices.some((n) => n.isOverdue(at))) throw NoticeErrors.overdueBlocksVehicle();
}

/** A spot-fine notice against a vehicle (and its driver, if identified), under its assembly's offence catalogue. */
export class Notice {
  private events: DomainEvent[] = [];

  private constructor(private state: Mutable<NoticeState>) {}

  static issue(input: NoticeInput, ids: IdGenerator, at: Date): Notice {
    const codes = input.codes;
    if (!Array.isArray(codes) || codes.length === 0 || codes.length > MAX_OFFENCES_PER_NOTICE)
      throw new DomainError('INVALID_VALUE', `offences must name 1 to ${MAX_OFFENCES_PER_NOTICE} offences`, 'offences');
    const offences = OffenceCatalogue.termsOf(input.catalogue, codes);
    if (new Set(offences.map((o) => o.code)).size !== offences.length)
      throw new DomainError('INVALID_VALUE', 'offences: an offence is named twice', 'offences');
    const madeAt = validDate(input.madeAt, 'madeAt');
    const contestable = offences.flatMap((o) => (o.daysToContest === undefined ? [] : [o.daysToContest]));
    const state: Mutable<NoticeState> = {
      id: ids.next(),
      assemblyId: input.catalogue.assemblyId,
      vehicleId: assertObjectId(input.vehicleId, 'vehicle'),
      officerId: input.officerId,
      catalogueVersion: input.catalogue.version,
      offences,
      madeAt,
      status: 'issued',
      fine: offences.reduce((sum, o) => sum + o.fine, 0),
      surcharge: offences.reduce((sum, o) => sum + o.surcharge, 0),
      dueAt: addDays(madeAt, earliest(offences.map((o) => o.daysToPay))),
      paid: 0,
      refundDue: 0,
      version: 0,
      createdAt: at,
      updatedAt: at,
    };
    if (input.driverId !== undefined) state.driverId = assertObjectId(input.driverId, 'driver');
    if (input.madeWhere !== undefined) state.madeWhere = input.madeWhere;
    if (input.notes !== undefined) state.notes = requireText(input.notes, 'notes', 500);
    if (contestable.length > 0) state.contestBy = addDays(madeAt, earliest(contestable));
    const notice = new Notice(state);
    notice.record('NoticeIssued', at, { codes: offences.map((o) => o.code), fine: state.fine });
    return notice;
  }

  static restore(state: NoticeState): Notice {
    return new Notice({ ...state });
  }

  get id(): string {
    return this.state.id;
  }
  get status(): NoticeStatus {
    return this.state.status;
  }

  toState(): NoticeState {
    return { ...this.state };
  }

  pullEvents(): DomainEvent[] {
    const out = this.events;
    this.events = [];
    return out;
  }

  /** Owed and past its due time (whether or not `markOverdue` has recorded it yet). */
  isOverdue(at: Date): boolean {
    const s = this.state;
    return s.status === 'overdue' || ((s.status === 'issued' || s.status === 'decided') && at > s.dueAt);
  }

  /** What is still owed at `at` (pesewas): the fine (or the reduced fine), the surcharge once overdue, less payments. */
  amountDue(at: Date): number {
    const s = this.state;
    if (s.status === 'paid' || s.status === 'cancelled') return 0;
    const fine = s.decision?.amount ?? s.fine;
    const owed = fine + (this.isOverdue(at) ? s.surcharge : 0);
    return Math.max(0, owed - s.paid);
  }

  /** Refuses what cannot be paid now, before the owner is sent a mobile-money prompt. */
  assertPayable(): void {
    const s = this.state;
    if (s.status === 'paid') throw NoticeErrors.alreadyPaid();
    if (s.status === 'cancelled') throw NoticeErrors.cancelled();
    if (s.status === 'contested') throw NoticeErrors.contested();
  }

  /** Records that the notice passed its due time unpaid: the surcharge is owed from now on. */
  markOverdue(at: Date): void {
    const s = this.state;
    if (s.status !== 'issued' && s.status !== 'decided') this.assertPayable();
    if (s.status === 'overdue' || !this.isOverdue(at)) throw NoticeErrors.notOverdue(s.dueAt);
    s.status = 'overdue';
    this.touch(at);
    this.record('NoticeOverdue', at, { surcharge: s.surcharge });
  }

  /**
   * A payment the provider confirmed. Money already moved is never refused: whatever the notice no longer owes (it
   * was paid meanwhile, cancelled, or the amount was more than owed) is reported as excess, to be refunded.
   */
  recordPayment(amount: number, at: Date): NoticePayment {
    const s = this.state;
    if (assertPesewas(amount, 'amount') === 0)
      throw new DomainError('INVALID_AMOUNT', 'A payment must be more than zero', 'amount');
    const due = s.status === 'contested' ? 0 : this.amountDue(at);
    const applied = Math.min(amount, due);
    const excess = amount - applied;
    s.paid += applied;
    s.refundDue += excess;
    if (applied > 0 && applied === due) {
      s.status = 'paid';
      s.paidAt = at;
    }
    this.touch(at);
    this.record(s.status === 'paid' && applied > 0 ? 'NoticePaid' : 'NoticePaymentReceived', at, {
      amount,
      applied,
      excess,
    });
    return { applied, excess, status: s.status };
  }

  /** The owner contests the notice (once), within the catalogue's days, while it is owed and nothing is paid. */
  contest(text: string, at: Date, photo?: string): void {
    const s = this.state;
    if (s.status === 'contested' || s.decision) throw NoticeErrors.alreadyContested();
    this.assertPayable();
    if (s.contestBy === undefined) throw NoticeErrors.notContestable();
    if (at > s.contestBy) throw NoticeErrors.contestClosed(s.contestBy);
    s.contest = { text: requireText(text, 'contest', CONTEST_MAX_CHARS), at, ...(photo !== undefined && { photo }) };
    s.status = 'contested';
    this.touch(at);
    this.record('NoticeContested', at);
  }

  /**
   * A supervisor who did not record the offence decides a contest: upheld or reduced (owed again, with the days to
   * pay counted from the decision) or cancelled.
   */
  decide(decision: { outcome: Decision; by: string; reason: string; amount?: number }, at: Date): void {
    const s = this.state;
    if (s.status !== 'contested') throw NoticeErrors.notContested();
    if (decision.by === s.officerId) throw NoticeErrors.deciderIsOfficer();
    const reason = requireText(decision.reason, 'reason', 500);
    let amount: number | undefined;
    if (decision.outcome === 'reduced') {
      amount = assertPesewas(decision.amount ?? 0, 'amount');
      if (amount === 0 || amount >= s.fine) throw NoticeErrors.reductionNotBelowFine(s.fine);
    }
    s.decision = { outcome: decision.outcome, by: decision.by, reason, at, ...(amount !== undefined && { amount }) };
    if (decision.outcome === 'cancelled') {
      this.refundAll();
    } else {
      s.status = 'decided';
      s.dueAt = addDays(at, earliest(s.offences.map((o) => o.daysToPay)));
    }
    this.touch(at);
    this.record('NoticeDecided', at, { outcome: decision.outcome, ...(amount !== undefined && { amount }) });
  }

  /** A supervisor (never the officer who recorded it) cancels an unpaid notice; anything paid is to be refunded. */
  cancel(by: string, reason: string, at: Date): void {
    const s = this.state;
    if (by === s.officerId) throw NoticeErrors.cancelByOfficer();
    if (s.status === 'paid') throw NoticeErrors.alreadyPaid();
    if (s.status === 'cancelled') throw NoticeErrors.cancelled();
    s.cancellation = { by, reason: requireText(reason, 'reason', 500), at };
    this.refundAll();
    this.touch(at);
    this.record('NoticeCancelled', at);
  }

  /** Cancelled: nothing is owed, and whatever was paid is owed back. */
  private refundAll(): void {
    const s = this.state;
    s.status = 'cancelled';
    s.refundDue += s.paid;
    s.paid = 0;
  }

  private touch(at: Date): void {
    this.state.updatedAt = at;
  }

  private record(type: string, at: Date, data?: Record<string, unknown>): void {
    this.events.push({ type, aggregateId: this.state.id, at, data });
  }
}
