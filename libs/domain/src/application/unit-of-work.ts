import type { Repositories } from '../repositories';
import type { NoticeLedger } from '../enforcement/notice-payment';
import type { AuditLog } from './audit-log';
import type { PaymentStores } from './payment-stores';

/**
 * Every store a use case may touch: the domain's repositories and the payment pipeline's inbox, tokens, outbox and
 * follow-up jobs. Outside a unit of work each call stands alone; inside one they share its transaction.
 */
export interface DataStores extends Repositories, PaymentStores {}

/**
 * What a use case may touch inside one transaction: every store, the audit log, and the notices with their payments
 * (a notice payment's final state settles its notice in the same transaction).
 */
export interface WorkContext extends DataStores {
  audit: AuditLog;
  notices: NoticeLedger;
}

/**
 * Port: runs a use case atomically. Everything written inside `run` (state, audit entries, inbox marks, outbox rows,
 * follow-up jobs) is committed together, or not at all. Every read inside `run`, lists and searches included, sees
 * what the unit wrote before it (`unitOfWorkContract` in the contract suite checks an adapter keeps this).
 */
export interface UnitOfWork {
  run<T>(work: (context: WorkContext) => Promise<T>): Promise<T>;
}
