import { ApiExtraModels, ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ApiNullableObject } from '../core/http/openapi';
import { IsIn, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import {
  answeredValue,
  moneyToCedis,
  REQUEST_TYPES,
  TRANSACTION_STATUSES,
  type CallbackPayload,
  type NotificationRecord,
  type RequestInfo,
  type TransactionState,
  type TransactionStatus,
} from '@transport/domain';
import { IsCedis } from '../core/http/dto-support';
import { RecordResponse } from '../core/http/record-response';
import type { CsvList } from '../core/http/csv-export';
import { IdParam, LimitParam, CountParam } from '../core/http/query-values';

// Requests and responses of the payment routes, declared once: validation, the OpenAPI document and the types.

export class PaymentRequestBody {
  @ApiProperty({
    example: 25.5,
    description: 'Cedis, at most two decimals (a JSON number, not text); more decimals are refused, never rounded.',
  })
  @IsCedis()
  @Min(0.01)
  @Max(20_000_000)
  amount!: number;
  @ApiProperty({ example: 'Trip payment' }) @IsString() @MaxLength(200) description!: string;
  @ApiProperty({
    example: 'TRIP-TKT-0001',
    description:
      'Your reference; unique per merchant. Repeating a request with it returns the same transaction; once that payment failed, a request with it is a new attempt.',
  })
  @IsString()
  @MaxLength(64)
  reference!: string;
  @ApiProperty({
    example: 'https://merchant.example.com/payments/callback',
    description: 'Where you want the final state (http or https).',
  })
  @IsString()
  @MaxLength(2048)
  callBackUrl!: string;
  @ApiPropertyOptional({ example: 'Akua Sarpong' }) @IsOptional() @IsString() @MaxLength(120) customerName?: string;
  @ApiProperty({ example: '0244987654' }) @IsString() @MaxLength(20) customerPhone!: string;
  @ApiPropertyOptional({ example: 'akua@example.com' })
  @IsOptional()
  @IsString()
  @MaxLength(254)
  customerEmail?: string;
  @ApiProperty({ enum: REQUEST_TYPES }) @IsIn(REQUEST_TYPES as unknown as string[]) requestType!: string;
}

export class CheckTransactionQuery {
  @ApiProperty({ description: 'The merchant reference of the transaction.', example: 'TRIP-TKT-0001' })
  @IsString()
  @Matches(/^[A-Za-z0-9._:-]{1,64}$/, {
    message: 'reference must be 1 to 64 letters, digits, dots, underscores, colons or hyphens',
  })
  reference!: string;
}

/** A merchant's own transactions: by state, by creation date (both bounds or neither), paged. */
export class TransactionListQuery {
  @ApiPropertyOptional({ enum: TRANSACTION_STATUSES, description: 'Only transactions in this state.' })
  @IsOptional()
  @IsIn(TRANSACTION_STATUSES as unknown as string[])
  status?: TransactionStatus;

  @ApiPropertyOptional({
    description: 'With endDate: YYYY-MM-DD (a day in TZ_DEFAULT) or an ISO 8601 date-time; created at or after it.',
    example: '2026-11-01',
  })
  @IsOptional()
  @IsString()
  @MaxLength(40)
  startDate?: string;

  @ApiPropertyOptional({
    description: 'With startDate: YYYY-MM-DD (the whole day is included) or an ISO 8601 date-time. At most 366 days.',
    example: '2026-11-30',
  })
  @IsOptional()
  @IsString()
  @MaxLength(40)
  endDate?: string;

  @LimitParam() limit?: number;
  @CountParam() count?: string;
  @IdParam('Cursor: the `_id` of the last transaction of the previous page.') after?: string;
}

export class RequestInfoData {
  @ApiPropertyOptional({ example: '5f3c1d2e0a1b4c5d' }) TransactionId?: string;
  @ApiPropertyOptional({ example: 'Trip payment' }) Description?: string;
  @ApiPropertyOptional({ example: 'TRIP-TKT-0001' }) ClientReference?: string;
  @ApiPropertyOptional({ example: 25.5 }) Amount?: number;
  @ApiPropertyOptional({ example: 0.05 }) Charges?: number;
  @ApiPropertyOptional({ example: 25.45 }) AmountAfterCharges?: number;
  @ApiPropertyOptional({ example: 25.5 }) AmountCharged?: number;
  @ApiPropertyOptional({ example: 0 }) DeliveryFee?: number;
}

export class RequestInfoResponse implements RequestInfo {
  @ApiProperty({ example: 'Transaction pending. Expect callback request for final state' }) Message!: string;
  @ApiProperty({ example: '0001' }) ResponseCode!: string;
  @ApiProperty({ type: RequestInfoData }) Data!: RequestInfoData;
}

export class CallBackInfoData {
  @ApiProperty({ example: 25.5 }) Amount!: number;
  @ApiProperty({ example: 0.05 }) Charges!: number;
  @ApiProperty({ example: 25.45 }) AmountAfterCharges!: number;
  @ApiProperty({ example: 25.5 }) AmountCharged!: number;
  @ApiProperty({ example: 'The Mobile Money payment has been approved and processed successfully.' })
  Description!: string;
  @ApiProperty({ example: 'TRIP-TKT-0001' }) ClientReference!: string;
  @ApiProperty({ example: '5f3c1d2e0a1b4c5d' }) TransactionId!: string;
  @ApiProperty({ example: '000011112222' }) ExternalTransactionId!: string;
  @ApiProperty({ example: '6b0262850000000000000001' }) OrderId!: string;
  /** Every other field the provider sent (PaymentDate, ...), kept as received. */
  [field: string]: unknown;
}

export class CallBackInfoResponse implements CallbackPayload {
  @ApiProperty({ example: '0000' }) ResponseCode!: string;
  @ApiProperty({ example: 'success' }) Message!: string;
  @ApiProperty({
    type: CallBackInfoData,
    description: 'Every field the provider sent is kept as received, including ones not listed here (PaymentDate).',
  })
  Data!: CallBackInfoData;
  [field: string]: unknown;
}

const EXACT =
  'Kept exactly to six decimals and answered with every decimal it carries, never rounded: 25.5, or 10.125 and ' +
  '0.195 (a 1.95% fee of 10.00) for a transaction imported from the original service. New payments have at most two.';

/** The Transaction of the interface (operation 9). Amounts are cedis, exact (docs/payments.md: amounts). */
export class TransactionResponse extends RecordResponse {
  @ApiProperty({ example: 25.5, description: `Cedis. ${EXACT}` }) amount!: number;
  @ApiPropertyOptional({
    example: 0.05,
    description:
      `Cedis: the provider's charges. ${EXACT} Absent when not known: an imported fee with more than six decimals ` +
      'is kept out rather than rounded (docs/importing.md).',
  })
  fees?: number;
  @ApiProperty({
    type: String,
    example: 'success',
    description:
      `One of ${TRANSACTION_STATUSES.join(', ')}. ` +
      'requesting: stored, the provider has not answered yet (or could not be reached; its status API is asked). ' +
      'pending: the provider accepted it; the final state follows. success and failed are final. ' +
      "A transaction imported from the original service answers the original's own spelling (say `Success`) until its state changes here.",
  })
  status!: string;
  @ApiProperty({
    type: String,
    example: 'mobile_money',
    description:
      `One of ${REQUEST_TYPES.join(', ')}; a transaction imported from the original service answers the value the ` +
      'original stored (say `direct`), as the original did.',
  })
  requestType!: string;
  @ApiProperty({ example: '65a1b2c3d4e5f60718293a4b' }) merchant!: string;
  @ApiProperty({ example: 'Trip payment' }) description!: string;
  @ApiProperty({ example: 'TRIP-TKT-0001' }) reference!: string;
  @ApiProperty({ example: 'https://merchant.example.com/payments/callback', format: 'uri' }) callBackUrl!: string;
  @ApiProperty({ example: '', description: 'May be empty.' }) customerEmail!: string;
  @ApiProperty({ example: 'Akua Sarpong', description: 'May be empty.' }) customerName!: string;
  @ApiProperty({ example: '+233244987654' }) customerPhone!: string;
  @ApiPropertyOptional({
    type: RequestInfoResponse,
    description: "The provider's answer to the request; absent while the transaction is requesting.",
  })
  requestInfo?: RequestInfoResponse;
  @ApiPropertyOptional({ type: CallBackInfoResponse, description: 'Present once the final callback was received.' })
  callBackInfo?: CallBackInfoResponse;
  @ApiPropertyOptional({
    format: 'date-time',
    example: '2026-11-22T08:31:00.000Z',
    description: 'When the callback was received.',
  })
  callBackTime?: string;
}

export function toTransactionResponse(t: TransactionState): TransactionResponse {
  const out: TransactionResponse = {
    _id: t.id,
    amount: moneyToCedis(t.amount),
    // In the interface's order; absent when not known (never a made-up 0).
    ...(t.fees !== undefined && { fees: moneyToCedis(t.fees) }),
    status: answeredValue(t, 'status'),
    requestType: answeredValue(t, 'requestType'),
    merchant: t.merchantId,
    description: t.description,
    reference: t.reference,
    callBackUrl: t.callBackUrl,
    customerEmail: t.customerEmail,
    customerName: t.customerName,
    customerPhone: t.customerPhone,
    createdAt: t.createdAt.toISOString(),
    updatedAt: t.updatedAt.toISOString(),
    __v: t.version,
  };
  if (t.requestInfo) out.requestInfo = t.requestInfo;
  if (t.callBackInfo) out.callBackInfo = t.callBackInfo;
  if (t.callBackTime) out.callBackTime = t.callBackTime.toISOString();
  return out;
}

export class CallbackReceipt {
  @ApiProperty({ example: true }) received!: true;
  @ApiProperty({ enum: ['applied', 'duplicate', 'deferred', 'anomaly'] }) outcome!: string;
}

export class RotateSecretBody {
  @ApiPropertyOptional({
    minimum: 0,
    maximum: 168,
    default: 24,
    description: 'Hours during which the replaced secret keeps signing beside the new one.',
  })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(168)
  overlapHours?: number;
}

export class RotatedSecretResponse {
  @ApiProperty({ example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', description: 'Shown this once.' })
  signingSecret!: string;
  @ApiProperty({ format: 'date-time', description: 'Until then, deliveries carry a signature by each secret.' })
  previousSecretValidUntil!: string;
}

export class ResumedResponse {
  @ApiProperty({ example: 3, description: 'Paused notifications sent again.' }) resumed!: number;
}

export class NotificationResponse {
  @ApiProperty({
    example: '6740a1b2c3d4e5f601234567',
    description: 'The idempotency id: Webhook-Id and Idempotency-Key on every attempt.',
  })
  id!: string;
  @ApiProperty({ example: 'https://merchant.example.com/hooks/payments' }) url!: string;
  @ApiProperty({
    enum: ['pending', 'delivered', 'failed'],
    description: 'failed: no 2xx answer within the retry window (at least 24 hours).',
  })
  status!: string;
  @ApiProperty({ example: 1 }) attempts!: number;
  @ApiProperty({ example: '2026-11-22T10:00:00.000Z' }) createdAt!: string;
  @ApiProperty({ example: '2026-11-22T10:00:00.120Z', nullable: true, type: String }) lastAttemptAt!: string | null;
  @ApiProperty({ example: '2026-11-22T10:00:00.120Z', nullable: true, type: String }) deliveredAt!: string | null;
}

export class DeliveryAttemptResponse {
  @ApiProperty({ example: 1 }) attempt!: number;
  @ApiProperty({ example: '2026-11-22T10:00:00.000Z' }) at!: string;
  @ApiProperty({
    example: 200,
    nullable: true,
    type: Number,
    description: 'null when no answer came (refused, reset, timed out).',
  })
  statusCode!: number | null;
  @ApiProperty({ example: 120 }) latencyMs!: number;
  @ApiProperty({ enum: ['delivered', 'retry', 'failed'] }) outcome!: string;
  @ApiProperty({ example: null, nullable: true, type: String }) error!: string | null;
}

@ApiExtraModels(NotificationResponse)
export class DeliveriesResponse {
  @ApiProperty({ example: 'TRIP-TKT-0001' }) reference!: string;
  @ApiProperty({ example: '6740a1b2c3d4e5f601234560', description: 'The transaction _id.' }) transaction!: string;
  @ApiNullableObject(NotificationResponse, { description: 'null while the transaction is pending.' })
  notification!: NotificationResponse | null;
  @ApiProperty({ type: [DeliveryAttemptResponse], description: 'Oldest first.' }) attempts!: DeliveryAttemptResponse[];
}

export function toDeliveriesResponse(
  reference: string,
  transactionId: string,
  n: NotificationRecord | undefined,
): DeliveriesResponse {
  return {
    reference,
    transaction: transactionId,
    notification: n
      ? {
          id: n.id,
          url: n.url,
          status: n.status,
          attempts: n.attempts,
          createdAt: n.createdAt.toISOString(),
          lastAttemptAt: n.lastAttemptAt?.toISOString() ?? null,
          deliveredAt: n.deliveredAt?.toISOString() ?? null,
        }
      : null,
    attempts: (n?.attemptLog ?? []).map((a) => ({
      attempt: a.attempt,
      at: a.at.toISOString(),
      statusCode: a.statusCode,
      latencyMs: a.latencyMs,
      outcome: a.outcome,
      error: a.error,
    })),
  };
}

/** The merchant's export (Accept: text/csv on GET /payment/transactions), for its accountants. */
export const TRANSACTION_CSV: CsvList = {
  filename: 'transactions.csv',
  columns: [
    '_id',
    'reference',
    'status',
    'amount',
    'fees',
    'description',
    'requestType',
    'customerName',
    'customerPhone',
    'customerEmail',
    'createdAt',
    'updatedAt',
    'callBackTime',
    'requestInfo.ResponseCode',
    'requestInfo.Data.TransactionId',
    'requestInfo.Data.Charges',
    'callBackInfo.ResponseCode',
    'callBackInfo.Data.TransactionId',
    'callBackInfo.Data.ExternalTransactionId',
    'callBackInfo.Data.AmountCharged',
  ],
};
