import {
  Body,
  Controller,
  Get,
  Headers,
  HttpCode,
  Inject,
  Param,
  Post,
  Query,
  Req,
  Res,
  StreamableFile,
} from '@nestjs/common';
import { clientAddressKey } from '../core/http/client-address';
import { listOrCsv } from '../core/http/csv-export';
import type { AppConfig } from '../config';
import { AppError } from '../core/errors';
import { parseDateRange } from '../core/http/date-range';
import { APP_CONFIG } from '../core/tokens';
import { NoStore } from '../core/http/no-store';
import {
  ApiAcceptedResponse,
  ApiBody,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiSecurity,
  ApiTags,
} from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { moneyFromCedis } from '@transport/domain';
import { CurrentPrincipal, Public, Roles } from '../core/auth/auth.decorators';
import { actorOf, type Principal } from '../core/auth/principal';
import { ApiListOrCsv, ApiProblems } from '../core/http/openapi';
import { ObjectIdPipe } from '../core/http/params';
import {
  CallbackReceipt,
  CheckTransactionQuery,
  DeliveriesResponse,
  PaymentRequestBody,
  ResumedResponse,
  RotatedSecretResponse,
  RotateSecretBody,
  toTransactionResponse,
  TRANSACTION_CSV,
  TransactionListQuery,
  TransactionResponse,
} from './payments.dto';
import { MerchantNotificationsService } from './merchant-notifications.service';
import { MerchantViewsService } from './merchant-views.service';
import { PaymentCallbacksService } from './payment-callbacks.service';
import { PaymentRequestsService } from './payment-requests.service';

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
  constructor(
    private readonly requests: PaymentRequestsService,
    private readonly callbacks: PaymentCallbacksService,
    private readonly notifications: MerchantNotificationsService,
    private readonly views: MerchantViewsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post('request')
  @Roles('merchant')
  @ApiSecurity('apiKey')
  @ApiOperation({
    summary: 'Request a mobile-money or online-checkout payment',
    description:
      'Idempotent on your reference: the same request again answers 200 with the stored transaction; a different request under a used reference is a 409. ' +
      'Once the payment under a reference failed, the reference is free again (as the original service allowed): a request under it is a new payment (201), every attempt is kept, and check_transaction answers the attempt that holds the reference over the failed ones. ' +
      'The transaction is stored before the provider is asked. 201: the provider answered; the transaction is pending when it accepted (requestInfo.ResponseCode 0001), failed if it refused; its final state arrives by the provider callback. ' +
      "202: the provider could not be reached or its answer was lost; the transaction is `requesting` (no requestInfo) and the provider's status API settles it; repeat the same request to read it. " +
      'Towards the provider the payment is named by its own id (ClientReference), never by your reference, so references of different merchants can never meet there. ' +
      'Limits (429 RATE_LIMITED with Retry-After, shared by every instance): PAYMENT_LIMIT_PER_MERCHANT_PER_MINUTE requests per merchant per minute (default 300) and PAYMENT_LIMIT_PER_PHONE_PER_HOUR prompts by this merchant to one customer phone per hour (default 10; other merchants count on their own). ' +
      'For mobile_money, customerPhone must be on a Ghanaian mobile-money network (MTN, Telecel, AirtelTigo); the channel is taken from its prefix. ' +
      'callBackUrl must be http(s); outside development mode it must be https on port 443 to a name or a global unicast address (no loopback, private, link-local, documentation, NAT64 or 6to4 ranges), else CALLBACK_URL_REFUSED. Names are checked again on the address actually connected to when sending.',
  })
  @ApiBody({ type: PaymentRequestBody })
  @ApiCreatedResponse({ type: TransactionResponse, description: 'A new transaction; the provider answered.' })
  @ApiOkResponse({ type: TransactionResponse, description: 'The same request again: the stored transaction.' })
  @ApiAcceptedResponse({ type: TransactionResponse, description: 'Stored, the provider not yet answered.' })
  @ApiProblems(400, 401, 403, 409, 413, 415, 429)
  async request(
    @Body() body: PaymentRequestBody,
    @CurrentPrincipal() principal: Principal,
    @Res({ passthrough: true }) res: FastifyReply,
  ): Promise<TransactionResponse> {
    const { transaction, created } = await this.requests.request(
      { ...body, amount: moneyFromCedis(body.amount, 'amount', 2), merchantId: principal.principalId },
      actorOf(principal),
    );
    res.status(!created ? 200 : transaction.status === 'requesting' ? 202 : 201);
    return toTransactionResponse(transaction.toState());
  }

  @Post('callback/:token')
  @HttpCode(200)
  @Public()
  @ApiSecurity({})
  @ApiOperation({
    summary: "The provider's final-state callback",
    description:
      'The token in the path names one transaction (unguessable). The raw body and headers are stored before anything is applied; every field is kept. ' +
      '200 once stored, duplicates included; 400 for a body that is not a callback (stored for inspection); 413 for a body over 16 KiB (nothing stored). ' +
      '404 for a token that names no transaction and 410 CALLBACK_TOKEN_EXPIRED for one whose transaction was settled more than CALLBACK_TOKEN_GRACE_HOURS ago (default 168): the callback is kept in the dead-letter table for DEAD_LETTER_RETENTION_DAYS (default 7), never applied; ' +
      'past STRAY_CALLBACK_LIMIT_PER_ADDRESS_PER_HOUR such callbacks from one address (default 60) they are refused with 429 RATE_LIMITED and Retry-After, and not kept. ' +
      '429 TOO_MANY_CALLBACKS past CALLBACKS_PER_TRANSACTION stored callbacks for one transaction (default 20): nothing more is stored. ' +
      'When the service is configured with PAYMENT_PROVIDER_CALLBACK_SECRET, the callback must also carry `X-Provider-Signature: sha256=<hex HMAC-SHA256 of the raw body>` ' +
      '(a missing or wrong signature is a 401 and nothing is stored, whatever the token), and a signed final state is final at once. Without it the token alone is not trusted: a final state is kept in the inbox only ' +
      "and confirmed with the provider's status API before the transaction becomes final (outcome `deferred`); only then does the callback the status API agrees with become callBackInfo. " +
      "A callback whose ClientReference, provider TransactionId or amount differs is stored and recorded as an anomaly: the status does not change, and the provider's status API decides.",
  })
  @ApiOkResponse({
    type: CallbackReceipt,
    description: '`{ "received": true, "outcome": "applied" | "duplicate" | "deferred" | "anomaly" }`',
  })
  @ApiProblems(400, 401, 404, 410, 413, 429)
  async callback(
    @Param('token') token: string,
    @Req() req: FastifyRequest,
    @Headers() headers: Record<string, string>,
  ): Promise<CallbackReceipt> {
    const raw =
      typeof req.body === 'string'
        ? req.body
        : Buffer.isBuffer(req.body)
          ? req.body.toString('utf8')
          : JSON.stringify(req.body ?? '');
    const kept = Object.fromEntries(KEPT_HEADERS.filter((h) => headers[h] !== undefined).map((h) => [h, headers[h]]));
    const { outcome } = await this.callbacks.receiveCallback(token, raw, kept, clientAddressKey(req.ip));
    return { received: true, outcome };
  }

  @Get('check_transaction')
  @Roles('merchant')
  @ApiSecurity('apiKey')
  @ApiOperation({
    summary: 'Transaction status (operation 9)',
    description:
      "On the payment base URL, with a merchant key. A merchant sees only its own transactions: another merchant's reference is a 404, exactly like an unknown one. " +
      'A reference retried after a failure names several attempts: this answers the one that holds it (a success, or a payment still open) over the failed ones, otherwise the latest failure. ' +
      "status is requesting, pending, success or failed. requestInfo is the provider's answer to the payment request (ResponseCode 0001: pending, a callback will follow; absent while requesting); " +
      'callBackInfo and callBackTime are present once the final callback has arrived (ResponseCode 0000: success). Amounts are cedis.',
  })
  @ApiOkResponse({ type: TransactionResponse })
  @ApiProblems(400, 401, 403, 404)
  async check(
    @Query() query: CheckTransactionQuery,
    @CurrentPrincipal() principal: Principal,
  ): Promise<TransactionResponse> {
    return toTransactionResponse((await this.views.ownTransaction(principal.principalId, query.reference)).toState());
  }

  @Get('transactions')
  @Roles('merchant')
  @ApiSecurity('apiKey')
  @ApiOperation({
    summary: "The calling merchant's own transactions, newest first",
    description:
      'On the payment base URL, with a merchant key: only its own transactions, each as GET check_transaction shows it. ' +
      'Optional `status`; optional `startDate` and `endDate` together (date-only values are days in TZ_DEFAULT, a date-only endDate includes that day; ' +
      'one without the other, startDate after endDate or a range over 366 days: 400). `limit` 1..500 with a `Link` header carrying the `after` cursor.',
  })
  @ApiListOrCsv(TransactionResponse, TRANSACTION_CSV)
  @ApiProblems(400, 401, 403)
  async transactions(
    @Query() query: TransactionListQuery,
    @CurrentPrincipal() principal: Principal,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) res: FastifyReply,
  ): Promise<TransactionResponse[] | StreamableFile> {
    if ((query.startDate === undefined) !== (query.endDate === undefined))
      throw new AppError('VALIDATION_FAILED', 'startDate and endDate go together: send both or neither', {
        errors: [
          { field: query.startDate === undefined ? 'startDate' : 'endDate', message: 'is required with the other' },
        ],
      });
    const range =
      query.startDate && query.endDate ? parseDateRange(query.startDate, query.endDate, this.config.timeZone) : {};
    return listOrCsv(req, res, TRANSACTION_CSV, query, (page) =>
      this.views.listOwn(principal.principalId, { status: query.status, ...range }, page),
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
      'At most NOTIFY_PER_MERCHANT deliveries to one merchant run at once in each instance (default 2); when your endpoint has failed for NOTIFY_PAUSE_AFTER_HOURS (default 12), your notifications are paused (status `paused`) until an operator resumes them. ' +
      'After POST /payment/signing-secret/rotate, each delivery carries a signature by the new and by the previous secret (space-separated) until the overlap ends. ' +
      "`notification` is null until the transaction is final. Another merchant's reference is a 404, like an unknown one.",
  })
  @ApiOkResponse({ type: DeliveriesResponse })
  @ApiProblems(400, 401, 403, 404)
  async deliveries(
    @Query() query: CheckTransactionQuery,
    @CurrentPrincipal() principal: Principal,
  ): Promise<DeliveriesResponse> {
    return this.views.deliveries(principal.principalId, query.reference);
  }

  @Post('signing-secret/rotate')
  @HttpCode(200)
  @NoStore()
  @Roles('merchant')
  @ApiSecurity('apiKey')
  @ApiOperation({
    summary: 'Replace your notification signing secret, with an overlap',
    description:
      'Answers the new `whsec_` secret, shown this once. Until previousSecretValidUntil (overlapHours, default 24, at most 168) every delivery is signed ' +
      'by both the new and the previous secret (`webhook-signature: v1,<new> v1,<previous>`), so you can switch your verifier without missing one. Audited, without the secrets.',
  })
  @ApiBody({ type: RotateSecretBody, required: false })
  @ApiOkResponse({ type: RotatedSecretResponse })
  @ApiProblems(400, 401, 403)
  async rotate(
    @Body() body: RotateSecretBody,
    @CurrentPrincipal() principal: Principal,
    @Res({ passthrough: true }) res: FastifyReply,
  ): Promise<RotatedSecretResponse> {
    res.header('Cache-Control', 'no-store');
    return this.notifications.rotateSigningSecret(principal.principalId, body?.overlapHours ?? 24, actorOf(principal));
  }

  @Post('notifications/:id/redeliver')
  @HttpCode(204)
  @Roles('admin')
  @ApiSecurity('apiKey')
  @ApiOperation({
    summary: 'Operators: send a failed or paused notification again',
    description:
      'A new delivery run with the same notification id (the merchant deduplicates on webhook-id). 409 NOTIFICATION_NOT_REDELIVERABLE when it is unknown, still pending or delivered. Audited.',
  })
  @ApiNoContentResponse({ description: 'Queued.' })
  @ApiProblems(400, 401, 403, 409)
  async redeliver(@Param('id', ObjectIdPipe) id: string, @CurrentPrincipal() principal: Principal): Promise<void> {
    await this.notifications.redeliver(id, actorOf(principal));
  }

  @Post('merchants/:id/notifications/resume')
  @HttpCode(200)
  @Roles('admin')
  @ApiSecurity('apiKey')
  @ApiOperation({
    summary: "Operators: lift a merchant's notification pause",
    description:
      'Notifications to a merchant whose endpoint failed for NOTIFY_PAUSE_AFTER_HOURS are paused and reported (log event payment.notifications_paused); this sends them again. Audited.',
  })
  @ApiOkResponse({ type: ResumedResponse })
  @ApiProblems(400, 401, 403, 404)
  async resume(
    @Param('id', ObjectIdPipe) id: string,
    @CurrentPrincipal() principal: Principal,
  ): Promise<ResumedResponse> {
    return this.notifications.resumeNotifications(id, actorOf(principal));
  }
}
