import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  CommonErrors,
  DomainError,
  parseCallbackPayload,
  Transaction,
  type ApplyOutcome,
  type CallbackPayload,
  type Clock,
  type IdGenerator,
  type PaymentProvider,
  type PaymentRequestInput,
  type TransactionState,
} from '@transport/domain';
import type { Prisma, PrismaClient } from '../generated/prisma/client';
import { problemError } from '../http/problem';
import type { JobQueue } from '../jobs/job-queue';
import { toTransactionResponse } from '../payment/transaction.response';
import { PrismaAuditLog } from '../persistence/prisma-audit-log';
import { prismaRepositories } from '../persistence/prisma-repositories';
import { auditEntriesFor, type Actor, SYSTEM_ACTOR } from './audit-log';

export interface PaymentDeps {
  prisma: PrismaClient;
  provider: PaymentProvider;
  clock: Clock;
  ids: IdGenerator;
  /** Base of the callback URLs handed to the provider, e.g. https://pay.example.com (no trailing slash). */
  callbackBase: string;
  /** Checks the merchant's callBackUrl (no server-side request forgery). */
  checkCallbackUrl: (url: string) => void;
  jobs: JobQueue;
  /** A pending transaction is checked against the provider's status API this long after it was requested. */
  reconcileAfterSeconds: number;
}

/** Everything the payment use cases and jobs need, built once (api/ports.module.ts). */
export type PaymentServices = PaymentDeps & { callbackSecret?: string };

/** What the durable side effects of payment changes need: enqueueing, in the changing transaction. */
export type FollowUpDeps = Pick<PaymentDeps, 'jobs' | 'ids' | 'clock'>;

export const QUEUES = { notify: 'payment-notify', reconcile: 'payment-reconcile', sweep: 'payment-callback-sweep' } as const;

/**
 * What a transaction's new state calls for, written in the same database transaction as the state: a final state
 * gets its merchant notification (an outbox row, the exact body to sign, and the job that delivers it); a pending one
 * that needs the provider's word gets a status check.
 */
export async function scheduleFollowUps(
  tx: Prisma.TransactionClient,
  deps: FollowUpDeps,
  state: TransactionState,
  options: { reconcileAfterSeconds?: number } = {},
): Promise<void> {
  if (state.status !== 'pending') {
    const exists = await tx.paymentNotification.findUnique({ where: { transactionId: state.id }, select: { id: true } });
    if (exists) return;
    const id = deps.ids.next();
    await tx.paymentNotification.create({
      data: { id, transactionId: state.id, url: state.callBackUrl, body: JSON.stringify(toTransactionResponse(state)), status: 'pending', createdAt: deps.clock.now() },
    });
    await deps.jobs.sendInTransaction(tx, QUEUES.notify, { notificationId: id });
    return;
  }
  if (options.reconcileAfterSeconds !== undefined) {
    await deps.jobs.sendInTransaction(tx, QUEUES.reconcile, { transactionId: state.id }, { startAfterSeconds: options.reconcileAfterSeconds });
  } else if (state.needsStatusCheck) {
    await deps.jobs.sendInTransaction(tx, QUEUES.reconcile, { transactionId: state.id });
  }
}

const tokenHash = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

const referenceConflict = () =>
  new DomainError('TRANSACTION_REFERENCE_CONFLICT', 'This reference was already used for a different payment request', 'conflict', 'reference');

/**
 * Requests a payment. Idempotent on (merchant, reference): the same request again returns the stored transaction
 * (`created: false`); a different one under the same reference is a conflict. The provider is asked outside any
 * database transaction; the transaction, its callback token and the audit entry are then written together.
 */
export async function requestPayment(deps: PaymentDeps, input: PaymentRequestInput, actor: Actor): Promise<{ transaction: Transaction; created: boolean }> {
  const checked = Transaction.checkRequest(input);
  deps.checkCallbackUrl(checked.callBackUrl);
  const repos = prismaRepositories(deps.prisma);
  const existing = await repos.transactions.findByMerchantReference(checked.merchantId, checked.reference);
  if (existing) {
    if (!existing.matchesRequest(input)) throw referenceConflict();
    return { transaction: existing, created: false };
  }
  const token = randomBytes(32).toString('base64url');
  const requestInfo = await deps.provider.requestPayment({
    reference: checked.reference,
    amount: checked.amount,
    description: checked.description,
    customerName: checked.customerName,
    customerPhone: checked.customerPhone,
    customerEmail: checked.customerEmail,
    requestType: checked.requestType,
    providerCallbackUrl: `${deps.callbackBase}/payment/callback/${token}`,
  });
  const now = deps.clock.now();
  const transaction = Transaction.request(input, requestInfo, deps.ids, now);
  try {
    const saved = await deps.prisma.$transaction(async (tx) => {
      const stored = await prismaRepositories(tx).transactions.add(transaction);
      await tx.paymentCallbackToken.create({ data: { tokenHash: tokenHash(token), transactionId: stored.id, createdAt: now } });
      await new PrismaAuditLog(tx).append(auditEntriesFor('transaction', transaction.pullEvents(), actor, null, stored.toState()));
      await scheduleFollowUps(tx, deps, stored.toState(), { reconcileAfterSeconds: deps.reconcileAfterSeconds });
      return stored;
    });
    return { transaction: saved, created: true };
  } catch (error) {
    // Two identical requests raced: the loser answers like a repeat.
    if ((error as { code?: string }).code === 'TRANSACTION_REFERENCE_TAKEN') {
      const winner = await repos.transactions.findByMerchantReference(checked.merchantId, checked.reference);
      if (winner && winner.matchesRequest(input)) return { transaction: winner, created: false };
      throw referenceConflict();
    }
    throw error;
  }
}

export type CallbackResult = { stored: true; outcome: ApplyOutcome['result'] | 'malformed' };

/**
 * A provider callback: found by its token, stored raw in the inbox first (so nothing received is ever lost), then
 * applied through the domain in one transaction with its audit entry. Unknown tokens store nothing.
 */
export async function receiveCallback(deps: CallbackDeps, token: string, rawBody: string, headers: Record<string, string>): Promise<CallbackResult> {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) throw CommonErrors.notFound('callback', 'token');
  const link = await deps.prisma.paymentCallbackToken.findUnique({ where: { tokenHash: tokenHash(token) } });
  if (!link) throw CommonErrors.notFound('callback', 'token');
  if (deps.callbackSecret !== undefined && !validProviderSignature(deps.callbackSecret, rawBody, headers[PROVIDER_SIGNATURE_HEADER])) {
    throw problemError(401, `${PROVIDER_SIGNATURE_HEADER} is missing or does not match the body`, 'INVALID_SIGNATURE');
  }
  const receivedAt = deps.clock.now();
  const inbox = await deps.prisma.paymentCallback.create({ data: { transactionId: link.transactionId, receivedAt, headers, body: rawBody } });
  const parsed = parseStoredCallback(rawBody);
  const outcome = await processStoredCallback(deps, inbox, parsed);
  if ('error' in parsed) throw parsed.error;
  return { stored: true, outcome: outcome ?? 'duplicate' };
}

/** Headers of provider callbacks: the signature, when the provider is configured with a secret. */
export const PROVIDER_SIGNATURE_HEADER = 'x-provider-signature';

/** `sha256=<hex HMAC-SHA256(secret, raw body)>`, compared in constant time. */
export function validProviderSignature(secret: string, rawBody: string, given: string | undefined): boolean {
  const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(rawBody, 'utf8').digest('hex')}`);
  const actual = Buffer.from(given ?? '');
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

export type CallbackDeps = Pick<PaymentDeps, 'prisma' | 'clock' | 'jobs' | 'ids'> & { callbackSecret?: string };

type ParsedCallback = { payload: CallbackPayload } | { error: DomainError };

function parseStoredCallback(body: string): ParsedCallback {
  try {
    return { payload: parseCallbackPayload(JSON.parse(body)) };
  } catch (error) {
    return { error: error instanceof DomainError ? error : new DomainError('INVALID_CALLBACK', 'The callback body is not valid JSON', 'validation', 'callback') };
  }
}

/**
 * Applies one stored callback, at most once: the inbox row is locked and skipped if another worker already processed
 * it (the request that stored it, or the recovery sweep after a crash). Returns undefined when it was already done.
 */
export async function processStoredCallback(
  deps: CallbackDeps,
  inbox: { id: bigint; transactionId: string | null; body: string; receivedAt: Date },
  parsed: ParsedCallback = parseStoredCallback(inbox.body),
): Promise<CallbackResult['outcome'] | undefined> {
  return retryOnConcurrentUpdate(() =>
    deps.prisma.$transaction(async (tx) => {
      const [row] = await tx.$queryRaw<Array<{ processedAt: Date | null }>>`
        SELECT "processedAt" FROM payment_callbacks WHERE id = ${inbox.id} FOR UPDATE`;
      if (!row || row.processedAt) return undefined;
      const outcome =
        'payload' in parsed && inbox.transactionId
          ? (await applyProviderMessage(tx, deps, inbox.transactionId, (t) => t.applyCallback(parsed.payload, inbox.receivedAt), { scheduleStatusCheck: true })).result
          : 'malformed';
      await tx.paymentCallback.update({ where: { id: inbox.id }, data: { outcome, processedAt: deps.clock.now() } });
      return outcome;
    }),
  );
}

/**
 * Applies a provider message (callback or status answer) to a transaction inside the caller's database transaction:
 * the domain decides, the change is saved with its audit entries, and what the new state calls for is scheduled
 * (a final state: the merchant notification; a pending one that now needs the provider's word: a status check, unless
 * the caller is that status check and retries by itself).
 */
export async function applyProviderMessage(
  tx: Prisma.TransactionClient,
  deps: FollowUpDeps,
  transactionId: string,
  apply: (transaction: Transaction) => ApplyOutcome,
  options: { scheduleStatusCheck: boolean },
): Promise<{ result: ApplyOutcome['result']; status: TransactionState['status'] }> {
  const repos = prismaRepositories(tx);
  const transaction = await repos.transactions.findById(transactionId);
  if (!transaction) throw CommonErrors.notFound('transaction', transactionId);
  const before = transaction.toState();
  const outcome = apply(transaction);
  if (outcome.result !== 'duplicate') {
    const after = (await repos.transactions.update(transaction)).toState();
    await new PrismaAuditLog(tx).append(auditEntriesFor('transaction', transaction.pullEvents(), SYSTEM_ACTOR, before, after));
    const finished = after.status !== before.status;
    const nowNeedsCheck = after.needsStatusCheck && !before.needsStatusCheck;
    if (finished || (nowNeedsCheck && options.scheduleStatusCheck)) await scheduleFollowUps(tx, deps, after);
  }
  return { result: outcome.result, status: transaction.status };
}

/** Runs a change again when it lost an optimistic-concurrency race (a duplicate arriving at the same moment). */
export async function retryOnConcurrentUpdate<T>(change: () => Promise<T>, attempts = 5): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await change();
    } catch (error) {
      if ((error as { code?: string }).code !== 'CONCURRENT_UPDATE' || attempt >= attempts) throw error;
    }
  }
}
