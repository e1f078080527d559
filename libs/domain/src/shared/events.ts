/** Something that happened to an aggregate, for the audit log and for counting. */
export interface DomainEvent {
  readonly type: string;
  readonly aggregateId: string;
  readonly at: Date;
  readonly data?: Readonly<Record<string, unknown>>;
}
