import { Controller, Get, Inject, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { IsString, Matches } from 'class-validator';
import { CommonErrors, type Transaction } from '@transport/domain';
import { REPOSITORIES } from '../api/tokens';
import type { Database } from '../database/database';
import { DATABASE } from '../database/database.module';
import { DeliveriesDoc } from './deliveries.openapi';
import { CurrentPrincipal, Roles } from '../auth/auth.decorators';
import type { Principal } from '../auth/principal';
import { ApiProblems } from '../http/openapi';
import type { RepositoryBackendPorts } from '../persistence/repositories';
import { TransactionDoc } from './transaction.openapi';
import { toTransactionResponse, type TransactionResponse } from './transaction.response';

export class CheckTransactionQuery {
  @ApiProperty({ description: 'The merchant reference of the transaction.', example: 'TRIP-TKT-0001' })
  @IsString()
  @Matches(/^[A-Za-z0-9._:-]{1,64}$/, { message: 'reference must be 1 to 64 letters, digits, dots, underscores, colons or hyphens' })
  reference!: string;
}

@ApiTags('payment')
@ApiSecurity('apiKey')
@Controller('payment')
export class PaymentController {
  constructor(
    @Inject(REPOSITORIES) private readonly repos: RepositoryBackendPorts,
    @Inject(DATABASE) private readonly database: Database,
  ) {}

  @Get('check_transaction')
  @Roles('merchant')
  @ApiOperation({
    summary: 'Transaction status (operation 9)',
    description:
      'On the payment base URL, with a merchant key. A merchant sees only its own transactions: another merchant\'s reference is a 404, exactly like an unknown one. ' +
      'status is pending, success or failed. requestInfo is the provider\'s answer to the payment request (ResponseCode 0001: pending, a callback will follow); ' +
      'callBackInfo and callBackTime are present once the final callback has arrived (ResponseCode 0000: success). Amounts are cedis.',
  })
  @ApiOkResponse({ type: TransactionDoc })
  @ApiProblems(400, 401, 403, 404)
  async check(@Query() query: CheckTransactionQuery, @CurrentPrincipal() principal: Principal): Promise<TransactionResponse> {
    return toTransactionResponse((await this.ownTransaction(principal, query.reference)).toState());
  }

  /** The caller's own transaction; another merchant's reference is not found, exactly like an unknown one. */
  private async ownTransaction(principal: Principal, reference: string): Promise<Transaction> {
    const transaction = await this.repos.transactions.findByMerchantReference(principal.principalId, reference);
    if (!transaction) throw CommonErrors.notFound('transaction', `reference ${reference}`);
    return transaction;
  }

  @Get('deliveries')
  @Roles('merchant')
  @ApiOperation({
    summary: 'Notifications we sent you for a transaction, with every attempt',
    description:
      'When a transaction reaches its final state the service POSTs it (the operation-9 shape) to your callBackUrl, signed: ' +
      '`Webhook-Id` (the notification id, the same on every attempt; also sent as `Idempotency-Key`), `Webhook-Timestamp` (unix seconds) and ' +
      '`Webhook-Signature: v1=<hex HMAC-SHA256(signingSecret, "<Webhook-Timestamp>.<raw body>")>`. Verify in constant time and refuse old timestamps. ' +
      'Any 2xx answer delivers it; anything else (or no answer within the timeout) is retried with exponential backoff for at least 24 hours. ' +
      '`notification` is null until the transaction is final. Another merchant\'s reference is a 404, like an unknown one.',
  })
  @ApiOkResponse({ type: DeliveriesDoc })
  @ApiProblems(400, 401, 403, 404)
  async deliveries(@Query() query: CheckTransactionQuery, @CurrentPrincipal() principal: Principal): Promise<DeliveriesDoc> {
    const transaction = await this.ownTransaction(principal, query.reference);
    const notification = await this.database.prisma.paymentNotification.findUnique({
      where: { transactionId: transaction.id },
      include: { attemptLog: { orderBy: { id: 'asc' } } },
    });
    return {
      reference: query.reference,
      transaction: transaction.id,
      notification: notification
        ? {
            id: notification.id,
            url: notification.url,
            status: notification.status,
            attempts: notification.attempts,
            createdAt: notification.createdAt.toISOString(),
            lastAttemptAt: notification.lastAttemptAt?.toISOString() ?? null,
            deliveredAt: notification.deliveredAt?.toISOString() ?? null,
          }
        : null,
      attempts: (notification?.attemptLog ?? []).map((a) => ({
        attempt: a.attempt,
        at: a.at.toISOString(),
        statusCode: a.statusCode,
        latencyMs: a.latencyMs,
        outcome: a.outcome,
        error: a.error,
      })),
    };
  }
}
