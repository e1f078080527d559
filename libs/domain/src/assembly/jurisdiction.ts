import type { Actor } from '../application/audit-log';
import { CommonErrors } from '../shared/common.errors';
import { DomainError } from '../shared/domain-error';
import { assertObjectId } from '../shared/id-generator';

/**
 * Where a caller may read and act. Vehicle owners, vehicles and drivers belong to an assembly, or to none yet
 * (unassigned: registered by an admin, or a driver who chose none). Assembly staff work within their own assembly;
 * everyone else works nationwide (admins; the platform, whose drivers cross assembly lines; anonymous passengers,
 * whose views carry no personal data). Outside its jurisdiction a record answers like a missing one, so a caller
 * learns nothing of its existence.
 */
export type Jurisdiction = { readonly assemblyId: string } | typeof NATIONWIDE;
export const NATIONWIDE = 'nationwide' as const;

/** A record that belongs to an assembly; absent: unassigned. */
export interface Placed {
  readonly assemblyId?: string;
}

/**
 * An assembly actor's jurisdiction is its assembly. One that carries none (its user is gone) covers nothing: an
 * empty id matches no record.
 */
export function jurisdictionOf(actor: Actor): Jurisdiction {
  return actor.role === 'assembly' ? { assemblyId: actor.assemblyId ?? '' } : NATIONWIDE;
}

/** The assembly a list is narrowed to; undefined: every record. */
export function assemblyScope(jurisdiction: Jurisdiction): string | undefined {
  return jurisdiction === NATIONWIDE ? undefined : jurisdiction.assemblyId;
}

export function covers(jurisdiction: Jurisdiction, record: Placed): boolean {
  return jurisdiction === NATIONWIDE || record.assemblyId === jurisdiction.assemblyId;
}

/** The record, if this jurisdiction covers it; otherwise the same NOT_FOUND as a missing record. */
export function withinJurisdiction<T extends { toState(): Placed }>(
  jurisdiction: Jurisdiction,
  record: T | undefined,
  entity: string,
  id: string,
): T {
  if (!record || !covers(jurisdiction, record.toState())) throw CommonErrors.notFound(entity, id);
  return record;
}

/**
 * The assembly a new record belongs to. Assembly staff register in their own assembly (naming another is
 * OTHER_ASSEMBLY); a nationwide caller names one, or the record takes the assembly it derives from (a vehicle its
 * owner's), or stays unassigned.
 */
export function placeNewRecord(
  jurisdiction: Jurisdiction,
  requested: string | undefined,
  inherited?: string,
): string | undefined {
  if (jurisdiction !== NATIONWIDE) {
    if (requested !== undefined && requested !== jurisdiction.assemblyId) {
      throw new DomainError('OTHER_ASSEMBLY', 'Assembly staff register records in their own assembly only', 'assembly');
    }
    return jurisdiction.assemblyId;
  }
  return requested !== undefined ? assertObjectId(requested, 'assembly') : inherited;
}

/** The checked destination of a transfer: an assembly id other than the record's own. */
export function transferDestination(record: Placed, to: string): string {
  const assemblyId = assertObjectId(to, 'assembly');
  if (record.assemblyId === assemblyId) {
    throw new DomainError('ALREADY_IN_ASSEMBLY', 'The record already belongs to this assembly', 'assembly');
  }
  return assemblyId;
}
