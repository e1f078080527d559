import { Body, Controller, Headers, HttpCode, Inject, Param, Post, Req, Res } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { cedisToPesewas } from '@transport/domain';
import { receiveCallback, requestPayment, type PaymentServices } from '../application/payment-use-cases';
import { PAYMENT_SERVICES } from '../api/tokens';
import { CurrentPrincipal, Roles } from '../auth/auth.decorators';
import { actorOf, type Principal } from '../auth/principal';
import { ApiProblems } from '../http/openapi';
import { PaymentRequestBody } from './payment-request.dto';
import { TransactionDoc } from './transaction.openapi';
import { toTransactionResponse, type TransactionResponse } from './transaction.response';

/** Headers worth keeping with a stored callback (never credentials). */
const KEPT_HEADERS = ['content-type', 'content-length', 'user-agent', 'x-forwarded-for', 'x-request-id', 'x-provider-signature'];

@ApiTags('payment')
@Controller('payment')
export class PaymentRequestController {
  constructor(@Inject(PAYMENT_SERVICES) private readonly payments: PaymentServices) {}

  @Post('request')
  @Roles('merchant')
  @ApiSecurity('apiKey')
  @ApiOperation({
    summary: 'Request a mobile-money or online-checkout payment',
    description:
      'Idempotent on your reference: the same request again answers 200 with the stored transaction; a different request under a used reference is a 409. ' +
      'The transaction starts pending when the provider accepts (requestInfo.ResponseCode 0001), failed if it refuses; its final state arrives by the provider callback. ' +
      'callBackUrl must be http(s) and, outside development mode, not a loopback, private or link-local address (CALLBACK_URL_REFUSED).',
  })
  @ApiBody({ type: PaymentRequestBody })
  @ApiCreatedResponse({ type: TransactionDoc, description: 'A new transaction (200 with the same shape for a repeated request).' })
  @ApiProblems(400, 401, 403, 409, 413, 415, 502)
  async request(@Body() body: PaymentRequestBody, @CurrentPrincipal() principal: Principal, @Res({ passthrough: true }) res: Response): Promise<TransactionResponse> {
    const { transaction, created } = await requestPayment(
      this.payments,
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
  @ApiOkResponse({ description: '`{ "received": true, "outcome": "applied" | "duplicate" | "deferred" | "anomaly" }`' })
  @ApiProblems(400, 401, 404, 413)
  async callback(@Param('token') token: string, @Req() req: Request, @Headers() headers: Record<string, string>) {
    const raw = typeof req.body === 'string' ? req.body : Buffer.isBuffer(req.body) ? req.body.toString('utf8') : JSON.stringify(req.body ?? '');
    const kept = Object.fromEntries(KEPT_HEADERS.filter((h) => headers[h] !== undefined).map((h) => [h, headers[h]]));
    const result = await receiveCallback(this.payments, token, raw, kept);
    return { received: true, outcome: result.outcome };
  }
}
