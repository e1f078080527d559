import { Body, Controller, Inject, Param, Post, Req, Res } from '@nestjs/common';
import {
  ApiBody,
  ApiConsumes,
  ApiOperation,
  ApiProduces,
  ApiProperty,
  ApiResponse,
  ApiSecurity,
  ApiTags,
} from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppConfig } from '../config';
import { Public } from '../core/auth/auth.decorators';
import { AppError } from '../core/errors';
import { clientAddressKey } from '../core/http/client-address';
import { preferredType } from '../core/http/negotiation';
import { ApiProblems } from '../core/http/openapi';
import { problemOf } from '../core/http/problem.filter';
import { APP_CONFIG } from '../core/tokens';
import { cedis } from './notice-page';
import { numberEnding, payAnswerPage } from './notice-pay-page';
import { NoticePaymentsService } from './notice-payments.service';

/** The form on the notice page: the mobile-money number to prompt. */
export class PayNoticeBody {
  @ApiProperty({
    description:
      'A Ghanaian mobile-money number (MTN, Telecel or AirtelTigo), in any usual spelling: 0244123456, +233 24 412 3456',
    example: '0244123456',
    maxLength: 30,
  })
  phone!: string;
}

const TITLES: Record<number, string> = {
  400: 'Check the number',
  403: 'Open the notice from its link',
  404: 'Notice not found',
  409: 'Nothing to pay',
  422: 'This notice cannot be paid now',
  429: 'Please wait before asking again',
};

/** Paying a notice by mobile money from its public page (issue 47): a plain form, answered by a small page. */
@ApiTags('enforcement')
@Controller('n')
export class NoticePaymentsController {
  constructor(
    private readonly payments: NoticePaymentsService,
    @Inject(APP_CONFIG) private readonly config: Pick<AppConfig, 'publicBaseUrl'>,
  ) {}

  @Post(':token/pay')
  @Public()
  @ApiSecurity({})
  @ApiOperation({
    summary: "Pay a notice by mobile money from its page: a prompt on the owner's phone",
    description:
      'The notice page’s form (application/x-www-form-urlencoded, or JSON) with the mobile-money number. The payment goes through the intent-first payment flow with the assembly as merchant, for the amount due now (with the surcharge once overdue); the provider’s callback or status check confirms it, never this page, and settles the notice in the same database transaction. ' +
      '202: the prompt was sent. 200: a payment of this notice is still waiting for approval: that one is answered, and nobody is prompted again. ' +
      'Refused before any prompt: a notice paid (409 NOTICE_ALREADY_PAID), cancelled (422 NOTICE_CANCELLED) or contested (422 NOTICE_CONTESTED); a number that is not a Ghanaian mobile-money one (400 INVALID_PHONE); past 3 prompts per notice, 3 per phone number and 30 per client address an hour (429 RATE_LIMITED with Retry-After); a form posted from another site (403 CSRF_REJECTED). The token is the page’s: anything else is 404. ' +
      'Answers a small HTML page to a browser (Accept: text/html), the same refusals as problem+json otherwise.',
  })
  @ApiConsumes('application/x-www-form-urlencoded', 'application/json')
  @ApiBody({ type: PayNoticeBody })
  @ApiProduces('text/html', 'application/json')
  @ApiResponse({
    status: 202,
    description: 'The prompt was sent.',
    content: { 'text/html': { schema: { type: 'string' } } },
  })
  @ApiResponse({
    status: 200,
    description: 'A payment of the notice is still waiting for approval: that one is answered.',
    content: { 'text/html': { schema: { type: 'string' } } },
  })
  @ApiProblems(400, 403, 404, 409, 413, 415, 422, 429)
  async pay(
    @Param('token') token: string,
    @Body() body: unknown,
    @Req() req: FastifyRequest,
    @Res() res: FastifyReply,
  ): Promise<void> {
    const browser = preferredType(req, ['application/json', 'text/html']) === 'text/html';
    try {
      this.refuseCrossSite(req);
      const phone = body && typeof body === 'object' ? (body as Record<string, unknown>).phone : undefined;
      const { kind, payment, notice } = await this.payments.pay(token, phone, clientAddressKey(req.ip));
      const ask = `${cedis(payment.amount)} to ${numberEnding(payment.phone)}`;
      const page =
        kind === 'prompted'
          ? payAnswerPage(
              'Check your phone to approve',
              `A mobile-money prompt for ${ask} is on its way. Approve it on that phone with your PIN (only you type it). The notice shows the payment once the provider confirms it.`,
              token,
            )
          : payAnswerPage(
              'A payment is already waiting for approval',
              `A prompt for ${ask} was sent already: approve it on that phone, or wait a few minutes for it to expire before asking again.`,
              token,
            );
      const status = kind === 'prompted' ? 202 : 200;
      res.status(status).header('Cache-Control', 'no-store');
      if (browser) await res.header('Content-Type', 'text/html; charset=utf-8').send(page);
      else
        await res.send({
          status: kind,
          notice: notice.id,
          transaction: payment.transactionId,
          amount: payment.amount,
          transactionStatus: payment.status,
        });
    } catch (error) {
      if (!browser) throw error;
      const problem = problemOf(error, req);
      if (problem.status >= 500) throw error;
      const retryAfter = error instanceof AppError ? error.extra.retryAfter : undefined;
      if (problem.status === 429 && retryAfter) res.header('Retry-After', String(retryAfter));
      await res
        .status(problem.status)
        .header('Cache-Control', 'no-store')
        .header('Content-Type', 'text/html; charset=utf-8')
        .send(payAnswerPage(TITLES[problem.status] ?? 'Not possible', problem.detail ?? '', token));
    }
  }

  /**
   * A form posted from another site's page: refused. The token is the only credential (no cookie, no session), so a
   * cross-site post can do nothing its sender could not do with the token itself; refusing it keeps a hostile page
   * from spreading prompts over its visitors' addresses. A post without an Origin (an old browser, a script) is taken.
   */
  private refuseCrossSite(req: FastifyRequest): void {
    const origin = req.headers.origin;
    if (origin === undefined) return;
    if (origin !== new URL(this.config.publicBaseUrl).origin)
      throw new AppError('CSRF_REJECTED', 'This form is sent from the notice page on the service’s own address only');
  }
}
