import type { TransactionStatus } from './transaction';

/** What the rule reads of an attempt: its state, and its place in time. */
export interface ReferenceAttempt {
  id: string;
  /** A TransactionStatus (a row read from the database holds it as text). */
  status: string;
  createdAt: Date;
}

/**
 * Whether an attempt holds its merchant's reference. The original service let a merchant use a reference again once
 * the payment under it failed (a retry), and kept every attempt: so only an attempt that has not failed holds it, and
 * at most one attempt per (merchant, reference) holds it at a time (a partial unique index in the database).
 */
export const holdsReference = (status: TransactionStatus): boolean => status !== 'failed';

/** Made once, not per call (every status check by reference runs the rule). */
const later = (a: ReferenceAttempt, b: ReferenceAttempt) =>
  a.createdAt.getTime() - b.createdAt.getTime() || (a.id > b.id ? 1 : -1);
const rank = (a: ReferenceAttempt) => (holdsReference(a.status as TransactionStatus) ? 1 : 0);

/**
 * Of the attempts under one merchant reference, the one a status check by reference (operation 9) answers, as the
 * original did: the one that holds the reference (a success, or a payment still open: at most one) over any
 * failure, otherwise the latest failure (by creation, then id).
 */
export function answeringAttempt<T extends ReferenceAttempt>(attempts: readonly T[]): T | undefined {
  return attempts.reduce<T | undefined>(
    (best, a) =>
      best === undefined || rank(a) - rank(best) > 0 || (rank(a) === rank(best) && later(a, best) > 0) ? a : best,
    undefined,
  );
}
