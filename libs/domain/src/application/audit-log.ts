import type { DomainEvent } from '../shared/events';

export type PrincipalRole = 'admin' | 'assembly' | 'merchant' | 'platform' | 'system' | 'anonymous';

/** Who is acting: an API key's principal, or the system itself (seed, reconciliation). */
export interface Actor {
  role: PrincipalRole;
  id: string;
  /** For assembly staff: the assembly they act in (their jurisdiction). */
  assemblyId?: string;
}

export const SYSTEM_ACTOR: Actor = { role: 'system', id: 'system' };
export const ANONYMOUS_ACTOR: Actor = { role: 'anonymous', id: 'anonymous' };

export interface AuditEntryInput {
  entity: string;
  entityId: string;
  action: string;
  actor: Actor;
  before: unknown;
  after: unknown;
  at: Date;
}

/** Port: the append-only history of state changes. Entries are written in the same transaction as the change. */
export interface AuditLog {
  append(entries: readonly AuditEntryInput[]): Promise<void>;
}

/** One entry per domain event of a change, each with the record's state before and after the whole change. */
export function auditEntriesFor(
  entity: string,
  events: readonly DomainEvent[],
  actor: Actor,
  before: unknown,
  after: unknown,
): AuditEntryInput[] {
  return events.map((event) => ({
    entity,
    entityId: event.aggregateId,
    action: event.type,
    actor,
    before,
    after,
    at: event.at,
  }));
}

/**
 * One entry per domain event, carrying the event's own data instead of whole states: for records whose state holds
 * what outsiders sent (a payment's callbacks), so an entry stays small however large a message was.
 */
export function eventEntriesFor(entity: string, events: readonly DomainEvent[], actor: Actor): AuditEntryInput[] {
  return events.map((event) => ({
    entity,
    entityId: event.aggregateId,
    action: event.type,
    actor,
    before: null,
    after: event.data ?? null,
    at: event.at,
  }));
}
