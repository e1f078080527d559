import { createHash, randomBytes } from 'node:crypto';
import {
  CommonErrors,
  DomainError,
  parseCallbackPayload,
  Transaction,
  type ApplyOutcome,
  type Clock,
  type IdGenerator,
  type PaymentProvider,
  type PaymentRequestInput,
} from '@transport/domain';
import type { PrismaClient } from '../generated/prisma/client';
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
export async function receiveCallback(deps: Pick<PaymentDeps, 'prisma' | 'clock'>, token: string, rawBody: string, headers: Record<string, string>): Promise<CallbackResult> {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) throw CommonErrors.notFound('callback', 'token');
  const link = await deps.prisma.paymentCallbackToken.findUnique({ where: { tokenHash: tokenHash(token) } });
  if (!link) throw CommonErrors.notFound('callback', 'token');
  const receivedAt = deps.clock.now();
  const inbox = await deps.prisma.paymentCallback.create({ data: { transactionId: link.transactionId, receivedAt, headers, body: rawBody } });

  let payload;
  try {
    payload = parseCallbackPayload(JSON.parse(rawBody));
  } catch (error) {
    await deps.prisma.paymentCallback.update({ where: { id: inbox.id }, data: { outcome: 'malformed', processedAt: deps.clock.now() } });
    throw error instanceof DomainError ? error : new DomainError('INVALID_CALLBACK', 'The callback body is not valid JSON', 'validation', 'callback');
  }

  // Duplicates may arrive at the same moment: the one that loses the revision race re-reads and finds a duplicate.
  for (let attempt = 1; ; attempt++) {
    try {
      return { stored: true, outcome: await applyStored(deps, link.transactionId, inbox.id, payload, receivedAt) };
    } catch (error) {
      if ((error as { code?: string }).code !== 'CONCURRENT_UPDATE' || attempt >= 5) throw error;
    }
  }
}

async function applyStored(
  deps: Pick<PaymentDeps, 'prisma' | 'clock'>,
  transactionId: string,
  inboxId: bigint,
  payload: ReturnType<typeof parseCallbackPayload>,
  receivedAt: Date,
): Promise<ApplyOutcome['result']> {
  return deps.prisma.$transaction(async (tx) => {
    const repos = prismaRepositories(tx);
    const transaction = await repos.transactions.findById(transactionId);
    if (!transaction) throw CommonErrors.notFound('transaction', transactionId);
    const before = transaction.toState();
    const result = transaction.applyCallback(payload, receivedAt);
    if (result.result !== 'duplicate') {
      const saved = await repos.transactions.update(transaction);
      await new PrismaAuditLog(tx).append(auditEntriesFor('transaction', transaction.pullEvents(), SYSTEM_ACTOR, before, saved.toState()));
    }
    await tx.paymentCallback.update({ where: { id: inboxId }, data: { outcome: result.result, processedAt: deps.clock.now() } });
    return result.result;
  });
}
