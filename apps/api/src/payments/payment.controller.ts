import { Body, Controller, Get, Headers, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { cedisToPesewas } from '@transport/domain';
import { CurrentPrincipal, Roles } from '../core/auth/auth.decorators';
import { actorOf, type Principal } from '../core/auth/principal';
import { ApiProblems } from '../core/http/openapi';
import {
  CallbackReceipt,
  CheckTransactionQuery,
  DeliveriesResponse,
  PaymentRequestBody,
  toTransactionResponse,
  TransactionResponse,
} from './payments.dto';
import { PaymentsService } from './payments.service';

/** Headers worth keeping with a stored callback (never credentials). */
const KEPT_HEADERS = [
  'content-type',
  'content-length',
  'user-agent',
  'x-forwarded-for',
  'x-request-id',
  'x-provider-signature',
];

/** The payment routes, under PAYMENT_BASE_PATH (the interface's {pay_url}). */
@ApiTags('payment')
@Controller('payment')
export class PaymentController {
  constructor(private readonly payments: PaymentsService) {}

  @Post('request')
  @Roles('merchant')
  @ApiSecurity('apiKey')
  @ApiOperation({
    summary: 'Request a mobile-money or online-checkout payment',
    description:
      'Idempotent on your reference: the same request again answers 200 with the stored transaction; a different request under a used reference is a 409. ' +
      'The transaction starts pending when the provider accepts (requestInfo.ResponseCode 0001), failed if it refuses; its final state arrives by the provider callback. ' +
      'callBackUrl must be http(s); outside development mode it must be https on port 443 to a name or a global unicast address (no loopback, private, link-local, documentation, NAT64 or 6to4 ranges), else CALLBACK_URL_REFUSED. Names are checked again on the address actually connected to when sending.',
  })
  @ApiBody({ type: PaymentRequestBody })
  @ApiCreatedResponse({
    type: TransactionResponse,
    description: 'A new transaction (200 with the same shape for a repeated request).',
  })
  @ApiProblems(400, 401, 403, 409, 413, 415, 502)
  async request(
    @Body() body: PaymentRequestBody,
    @CurrentPrincipal() principal: Principal,
    @Res({ passthrough: true }) res: Response,
  ): Promise<TransactionResponse> {
    const { transaction, created } = await this.payments.request(
      { ...body, amount: cedisToPesewas(body.amount, 'amount'), merchantId: principal.principalId },
      actorOf(principal),
    );
    res.status(created ? 201 : 200);
    return toTransactionResponse(transaction.toState());
  }

  @Post('callback/:token')
  @HttpCode(200)
  @ApiSecurity({})
  @ApiOperation({
    summary: "The provider's final-state callback",
    description:
      'The token in the path is the credential (unguessable, one per transaction). The raw body and headers are stored before anything is applied. ' +
      '200 once stored, duplicates included; 404 for an unknown token (nothing stored); 400 for a body that is not a callback (stored for inspection). ' +
      'When the service is configured with PAYMENT_PROVIDER_CALLBACK_SECRET, the callback must also carry `X-Provider-Signature: sha256=<hex HMAC-SHA256 of the raw body>`; ' +
      'a missing or wrong signature is a 401 and nothing is stored. A callback whose amount differs from the request is stored and recorded as an anomaly: the status does not change, ' +
      "and the provider's status API decides (reconciliation).",
  })
  @ApiOkResponse({
    type: CallbackReceipt,
    description: '`{ "received": true, "outcome": "applied" | "duplicate" | "deferred" | "anomaly" }`',
  })
  @ApiProblems(400, 401, 404, 413)
  async callback(
    @Param('token') token: string,
    @Req() req: Request,
    @Headers() headers: Record<string, string>,
  ): Promise<CallbackReceipt> {
    const raw =
      typeof req.body === 'string'
        ? req.body
        : Buffer.isBuffer(req.body)
          ? req.body.toString('utf8')
          : JSON.stringify(req.body ?? '');
    const kept = Object.fromEntries(KEPT_HEADERS.filter((h) => headers[h] !== undefined).map((h) => [h, headers[h]]));
    const { outcome } = await this.payments.receiveCallback(token, raw, kept);
    return { received: true, outcome };
  }

  @Get('check_transaction')
  @Roles('merchant')
  @ApiSecurity('apiKey')
  @ApiOperation({
    summary: 'Transaction status (operation 9)',
    description:
      "On the payment base URL, with a merchant key. A merchant sees only its own transactions: another merchant's reference is a 404, exactly like an unknown one. " +
      "status is pending, success or failed. requestInfo is the provider's answer to the payment request (ResponseCode 0001: pending, a callback will follow); " +
      'callBackInfo and callBackTime are present once the final callback has arrived (ResponseCode 0000: success). Amounts are cedis.',
  })
  @ApiOkResponse({ type: TransactionResponse })
  @ApiProblems(400, 401, 403, 404)
  async check(
    @Query() query: CheckTransactionQuery,
    @CurrentPrincipal() principal: Principal,
  ): Promise<TransactionResponse> {
    return toTransactionResponse(
      (await this.payments.ownTransaction(principal.principalId, query.reference)).toState(),
    );
  }

  @Get('deliveries')
  @Roles('merchant')
  @ApiSecurity('apiKey')
  @ApiOperation({
    summary: 'Notifications we sent you for a transaction, with every attempt',
    description:
      'When a transaction reaches its final state the service POSTs it (the operation-9 shape) to your callBackUrl, signed as Standard Webhooks: ' +
      '`webhook-id` (the notification id, the same on every attempt; also sent as `Idempotency-Key`), `webhook-timestamp` (unix seconds) and ' +
      '`webhook-signature: v1,<base64 HMAC-SHA256(key, "<webhook-id>.<webhook-timestamp>.<raw body>")>` where the key is the base64 part of your `whsec_` signingSecret. ' +
      'Any Standard Webhooks library verifies it (`standardwebhooks` on npm); by hand, compare in constant time and refuse old timestamps. ' +
      'Any 2xx answer delivers it; anything else (or no answer within the timeout) is retried with exponential backoff for at least 24 hours. ' +
      "`notification` is null until the transaction is final. Another merchant's reference is a 404, like an unknown one.",
  })
  @ApiOkResponse({ type: DeliveriesResponse })
  @ApiProblems(400, 401, 403, 404)
  async deliveries(
    @Query() query: CheckTransactionQuery,
    @CurrentPrincipal() principal: Principal,
  ): Promise<DeliveriesResponse> {
    return this.payments.deliveries(principal.principalId, query.reference);
  }
}
