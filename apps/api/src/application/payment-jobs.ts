import { Logger } from '@nestjs/common';
import { prismaRepositories } from '../persistence/prisma-repositories';
import { applyProviderMessage, processStoredCallback, retryOnConcurrentUpdate, type PaymentServices } from './payment-use-cases';

const logger = new Logger('Payments');

export type PaymentJobDeps = Pick<PaymentServices, 'prisma' | 'provider' | 'jobs' | 'clock' | 'ids' | 'callbackSecret'>;

/** The attempt being run, as the job queue reports it. */
export interface AttemptInfo {
  retryCount: number;
  retryLimit: number;
}

/** Thrown to have the job retried with backoff; not an error worth a stack trace. */
export class RetryLater extends Error {}

/** One structured log line per event worth counting (JSON, so log pipelines can aggregate it). */
export function logEvent(event: string, fields: Record<string, unknown>): void {
  logger.log(JSON.stringify({ event, ...fields }));
}

/**
 * Reconciliation: asks the provider's status API about a transaction that is still pending, and applies the answer
 * through the domain's applyStatusCheck in one transaction with its audit entry (and the merchant notification when
 * it reached a final state). Still pending or unknown: RetryLater, so the queue asks again with backoff.
 */
export async function reconcileTransaction(deps: PaymentJobDeps, transactionId: string, attempt: AttemptInfo): Promise<void> {
  const current = await prismaRepositories(deps.prisma).transactions.findById(transactionId);
  if (!current || current.status !== 'pending') return;
  const answer = await deps.provider.checkStatus(current.toState().reference);
  const outcome = await retryOnConcurrentUpdate(() =>
    deps.prisma.$transaction((tx) =>
      // This job retries by itself while the transaction stays pending: no second status check is scheduled.
      applyProviderMessage(tx, deps, transactionId, (t) => t.applyStatusCheck(answer, deps.clock.now()), { scheduleStatusCheck: false }),
    ),
  );
  logEvent('payment.status_check', { transactionId, state: answer.state, outcome: outcome.result, status: outcome.status, attempt: attempt.retryCount + 1 });
  if (outcome.status !== 'pending') return;
  if (attempt.retryCount >= attempt.retryLimit) {
    logger.error(JSON.stringify({ event: 'payment.reconcile_gave_up', transactionId, attempts: attempt.retryCount + 1 }));
    return;
  }
  throw new RetryLater(`transaction ${transactionId} is still ${answer.state} at the provider`);
}

/**
 * The recovery sweep: callbacks stored but never applied (the process died between storing and applying, or applying
 * failed) are applied now, each at most once (processStoredCallback locks and skips processed rows).
 */
export async function sweepStoredCallbacks(deps: PaymentJobDeps, olderThanSeconds: number, batch = 500): Promise<number> {
  const cutoff = new Date(deps.clock.now().getTime() - olderThanSeconds * 1000);
  let done = 0;
  for (;;) {
    const rows = await deps.prisma.paymentCallback.findMany({
      where: { processedAt: null, receivedAt: { lte: cutoff } },
      orderBy: { id: 'asc' },
      take: batch,
      select: { id: true, transactionId: true, body: true, receivedAt: true },
    });
    for (const row of rows) {
      const outcome = await processStoredCallback(deps, row);
      if (outcome) logEvent('payment.callback_recovered', { callbackId: String(row.id), transactionId: row.transactionId, outcome });
      done += 1;
    }
    if (rows.length < batch) return done;
  }
}
