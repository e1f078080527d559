import { CommonErrors } from '../shared/common.errors';
import type { DomainError } from '../shared/domain-error';
import type { ListOrder, Page, PageRequest } from '../shared/page';

interface Stored {
  readonly id: string;
  readonly version: number;
  readonly createdAt: Date;
}

export interface UniqueKey<S> {
  key: (state: S) => string | undefined;
  error: () => DomainError;
}

/** Newest first: createdAt descending, then id descending (the order every list of the API uses by default). */
export function newestFirst(a: Stored, b: Stored): number {
  return b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
}

const ascending = <T>(x: T, y: T) => (x < y ? -1 : x > y ? 1 : 0);

/**
 * A list's order as the repository contract gives it: by the field, then by id, both the same way; a record without
 * the field after every other ascending, before them descending (PostgreSQL's place for NULL).
 */
export function inOrder<S extends Stored>(order: ListOrder<string> | undefined): (a: S, b: S) => number {
  if (!order) return newestFirst;
  const value = (s: S) => {
    const v = (s as unknown as Record<string, unknown>)[order.by];
    return v instanceof Date ? v.getTime() : (v as string | number | undefined);
  };
  const compare = (a: S, b: S) => {
    const [x, y] = [value(a), value(b)];
    if (x === undefined || y === undefined) return (x === undefined ? 1 : 0) - (y === undefined ? 1 : 0);
    return ascending(x, y);
  };
  const sign = order.descending ? -1 : 1;
  return (a, b) => sign * (compare(a, b) || ascending(a.id, b.id));
}

/**
 * The shared behaviour of the in-memory repositories: copies in and out (callers cannot reach stored state),
 * unique keys, optimistic revisions, newest-first keyset paging. It is what the repository contract says, in memory.
 */
export class InMemoryCollection<E, S extends Stored> {
  private rows = new Map<string, S>();

  constructor(
    private readonly what: string,
    private readonly toState: (entity: E) => S,
    private readonly restore: (state: S) => E,
    private readonly uniqueKeys: UniqueKey<S>[] = [],
  ) {}

  async add(entity: E): Promise<E> {
    const state = this.toState(entity);
    if (this.rows.has(state.id))
      throw CommonErrors.duplicate('DUPLICATE_ID', `A ${this.what} with id ${state.id} already exists`);
    this.assertUnique(state);
    this.rows.set(state.id, state);
    return this.restore(state);
  }

  async update(entity: E): Promise<E> {
    const state = this.toState(entity);
    const current = this.rows.get(state.id);
    if (!current) throw CommonErrors.notFound(this.what, state.id);
    if (current.version !== state.version) throw CommonErrors.concurrentUpdate(this.what, state.id);
    this.assertUnique(state);
    const next = { ...state, version: state.version + 1 };
    this.rows.set(state.id, next);
    return this.restore(next);
  }

  async findById(id: string): Promise<E | undefined> {
    const state = this.rows.get(id);
    return state ? this.restore(state) : undefined;
  }

  async findByIds(ids: readonly string[]): Promise<E[]> {
    return ids.flatMap((id) => {
      const state = this.rows.get(id);
      return state ? [this.restore(state)] : [];
    });
  }

  find(predicate: (state: S) => boolean): E | undefined {
    for (const state of this.rows.values()) if (predicate(state)) return this.restore(state);
    return undefined;
  }

  all(): S[] {
    return [...this.rows.values()];
  }

  page(predicate: (state: S) => boolean, request: PageRequest<string>): Page<E> {
    const order = inOrder<S>(request.order);
    const sorted = this.all().filter(predicate).sort(order);
    let start = 0;
    if (request.after !== undefined) {
      const anchor = this.rows.get(request.after);
      // An unknown cursor yields an empty page rather than silently restarting from the top.
      start = anchor ? sorted.findIndex((s) => order(s, anchor) > 0) : sorted.length;
      if (start === -1) start = sorted.length;
    }
    const slice = sorted.slice(start, start + request.limit);
    const hasMore = start + request.limit < sorted.length;
    return {
      items: slice.map((s) => this.restore(s)),
      next: hasMore ? slice[slice.length - 1].id : undefined,
      ...(request.count && { total: sorted.length }),
    };
  }

  /** A copy of every stored state, for an in-memory unit of work to roll back to. */
  snapshot(): Map<string, S> {
    return new Map(this.rows);
  }

  rollback(snapshot: Map<string, S>): void {
    this.rows = new Map(snapshot);
  }

  private assertUnique(state: S): void {
    for (const unique of this.uniqueKeys) {
      const key = unique.key(state);
      if (key === undefined) continue;
      const clash = this.all().find((other) => other.id !== state.id && unique.key(other) === key);
      if (clash) throw unique.error();
    }
  }
}
