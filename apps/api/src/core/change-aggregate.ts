import { CommonErrors, covers, type Clock, type DomainEvent, type Jurisdiction, type Placed } from '@transport/domain';
import { auditEntriesFor, DomainError, type Actor, type AssemblyUserRepository } from '@transport/domain';
import { assertAssemblyDuty } from './auth/duties';
import type { UnitOfWork, WorkContext } from '@transport/domain';

export interface UseCaseDeps {
  uow: UnitOfWork;
  clock: Clock;
}

interface Aggregate {
  readonly id: string;
  readonly version: number;
  toState(): object;
  pullEvents?(): DomainEvent[];
}

interface Store<A> {
  findById(id: string): Promise<A | undefined>;
  update(aggregate: A): Promise<A>;
}

export interface ChangeSpec<A> {
  /** Audit entity name, e.g. 'vehicle'. */
  entity: string;
  store: (context: WorkContext) => Store<A>;
  id: string;
  actor: Actor;
  /** The client's If-Match: the revision it last saw. */
  expectedVersion?: number;
  /** Audit action when the aggregate records no events of its own. */
  action: string;
  /** Keeps secrets (hashes) out of the audit log. */
  redact?: (state: object) => object;
  /** Where the actor may act: a record outside it answers like a missing one. Absent: nationwide. */
  jurisdiction?: Jurisdiction;
  /** Audit before/after with only the fields that changed (corrections), instead of whole states. */
  auditChangedFieldsOnly?: boolean;
}

/** Bookkeeping fields every change moves; not what a person changed. */
const BOOKKEEPING = new Set(['version', 'updatedAt']);

/** The top-level fields whose values differ, before and after (a field that appears or disappears counts). */
export function changedFields(before: object, after: object): [Record<string, unknown>, Record<string, unknown>] {
  const was = before as Record<string, unknown>;
  const now = after as Record<string, unknown>;
  const fields = [...new Set([...Object.keys(was), ...Object.keys(now)])].filter(
    (f) => !BOOKKEEPING.has(f) && JSON.stringify(was[f]) !== JSON.stringify(now[f]),
  );
  return [
    Object.fromEntries(fields.map((f) => [f, was[f] ?? null])),
    Object.fromEntries(fields.map((f) => [f, now[f] ?? null])),
  ];
}

/** One domain transition applied to a loaded aggregate, inside the unit of work. */
export type Transition<A, R = void> = (aggregate: A, at: Date, context: WorkContext) => R | Promise<R>;

/**
 * The shape of every state change: load (within the actor's jurisdiction), check the revision the client saw, apply one domain transition, save
 * optimistically, and write one audit entry per event (before/after state, actor), all in one transaction.
 * A refused transition throws before anything is written.
 */
export async function changeAggregate<A extends Aggregate, R = void>(
  deps: UseCaseDeps,
  spec: ChangeSpec<A>,
  transition: Transition<A, R>,
): Promise<{ saved: A; result: R }> {
  return deps.uow.run(async (context) => {
    const store = spec.store(context);
    const aggregate = await store.findById(spec.id);
    if (!aggregate || (spec.jurisdiction && !covers(spec.jurisdiction, aggregate.toState() as Placed))) {
      throw CommonErrors.notFound(spec.entity, spec.id);
    }
    if (spec.expectedVersion !== undefined && spec.expectedVersion !== aggregate.version) {
      throw CommonErrors.concurrentUpdate(spec.entity, spec.id);
    }
    const redact = spec.redact ?? ((s: object) => s);
    const unchanged = JSON.stringify(aggregate.toState());
    const before = redact(aggregate.toState());
    const at = deps.clock.now();
    const result = await transition(aggregate, at, context);
    // A transition that changed nothing (going online when online) writes nothing: no new revision, no audit entry.
    // Compared whole, secrets included: a change only to a redacted field (a new key's hash) is still a change.
    if (JSON.stringify(aggregate.toState()) === unchanged) {
      aggregate.pullEvents?.();
      return { saved: aggregate, result };
    }
    const saved = await store.update(aggregate);
    const events = aggregate.pullEvents?.() ?? [];
    const recorded = events.length > 0 ? events : [{ type: spec.action, aggregateId: spec.id, at }];
    const after = redact(saved.toState());
    const [auditBefore, auditAfter] = spec.auditChangedFieldsOnly ? changedFields(before, after) : [before, after];
    await context.audit.append(auditEntriesFor(spec.entity, recorded, spec.actor, auditBefore, auditAfter));
    return { saved, result };
  });
}

/**
 * The shape of every correction: at least one field sent (else 400), the actor's `correctRecords` duty, the revision
 * the client saw (If-Match is required: the caller passes it), one domain `correct`, and audit entries holding only
 * the fields that changed.
 */
export async function correctAggregate<A extends Aggregate>(
  deps: UseCaseDeps & { users: Pick<AssemblyUserRepository, 'findById'> },
  spec: ChangeSpec<A> & { expectedVersion: number },
  changes: object,
  fields: readonly string[],
  correct: (aggregate: A, at: Date, context: WorkContext) => unknown,
): Promise<A> {
  if (!Object.values(changes).some((v) => v !== undefined))
    throw new DomainError('INVALID_VALUE', `Send at least one of ${fields.join(', ')}`);
  await assertAssemblyDuty(deps.users, spec.actor, 'correctRecords');
  const { saved } = await changeAggregate(
    deps,
    { ...spec, auditChangedFieldsOnly: true },
    async (a, at, context) => void (await correct(a, at, context)),
  );
  return saved;
}

/**
 * The shape of every creation of a record that records no events of its own: make and store it, and write one
 * `<entity>Created` audit entry, in one unit of work.
 */
export function createRecord<T extends { id: string; toState(): object }>(
  deps: UseCaseDeps,
  entity: string,
  actor: Actor,
  make: (context: WorkContext, at: Date) => Promise<T>,
): Promise<T> {
  return deps.uow.run(async (context) => {
    const at = deps.clock.now();
    const saved = await make(context, at);
    await context.audit.append(
      auditEntriesFor(entity, [{ type: `${entity}Created`, aggregateId: saved.id, at }], actor, null, saved.toState()),
    );
    return saved;
  });
}
