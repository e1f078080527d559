import { Controller, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiBody, ApiConsumes, ApiOperation, ApiProduces, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { Public } from '../core/auth/auth.decorators';
import { AppError } from '../core/errors';
import { clientAddressKey } from '../core/http/client-address';
import { ApiProblems } from '../core/http/openapi';
import { problemOf } from '../core/http/problem.filter';
import { CONTEST_REFUSALS, contestAnswerPage } from './notice-contest-page';
import { CONTEST_PHOTO_MAX_BYTES, NoticeDecisionsService, type ContestForm } from './notice-decisions.service';

const HTML = 'text/html; charset=utf-8';
const PAGE = { schema: { type: 'string' } };

/**
 * The contest form of the public notice page (no script): multipart/form-data (or a plain urlencoded form) with `text`
 * and an optional `photo`. The body reaches the route as raw bytes (request-body.ts RAW_BODY_ROUTES, at most 6 MB): a
 * multipart parser registered for every route would let any route take a cross-site form post.
 */
@ApiTags('enforcement')
@Controller('n')
export class NoticeContestController {
  constructor(private readonly decisions: NoticeDecisionsService) {}

  @Post(':token/contest')
  @Public()
  @ApiSecurity({})
  @ApiOperation({
    summary: "Contest a notice from its public page (the owner; the page's form)",
    description:
      'A form (multipart/form-data, or application/x-www-form-urlencoded without a photo): `text`, why (1 to 1,000 characters), and optionally `photo` (JPEG, PNG or WebP told by its bytes, at most 5 MB; kept without the metadata that can say where it was taken). ' +
      "Only within the catalogue's days to contest (422), for an offence that can be contested (422), once (409), while owed and while no mobile-money payment of it waits for approval (409 NOTICE_PAYMENT_OPEN). Audited on the notice and in the vehicle’s history (NoticeContested). " +
      'Answers are HTML for the owner: a page saying the contest was received (201), or, to a browser (Accept: text/html), a page saying in words why it was refused, with the refusal’s status; other clients get the refusal as a problem. At most 20 tries an hour from one address (429).',
  })
  @ApiConsumes('multipart/form-data', 'application/x-www-form-urlencoded')
  @ApiBody({
    schema: {
      type: 'object',
      required: ['text'],
      properties: { text: { type: 'string', maxLength: 1000 }, photo: { type: 'string', format: 'binary' } },
    },
  })
  @ApiProduces('text/html')
  @HttpCode(201)
  @ApiResponse({
    status: 201,
    description: 'Contested: a page saying so, with the way back to the notice (which shows the contest).',
    content: { 'text/html': PAGE },
  })
  @ApiProblems(400, 404, 409, 413, 415, 422, 429)
  async contest(
    @Param('token') token: string,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<string> {
    const back = `/n/${encodeURIComponent(token)}`;
    reply.header('Cache-Control', 'no-store');
    try {
      const form = await readForm(request);
      await this.decisions.contest(token, form, clientAddressKey(request.ip));
      reply.header('Content-Type', HTML);
      return contestAnswerPage(
        'Contest received',
        'Your contest was received. A supervisor who did not record the offence will decide, and you will be told the reason by SMS and on the notice page.',
        `${back}#contest`,
      );
    } catch (error) {
      // A browser (the page's form) is answered a page in words; any other client the API's problem.
      const problem = problemOf(error, request);
      if (problem.status >= 500 || !/text\/html/i.test(request.headers.accept ?? '')) throw error;
      const retryAfter = error instanceof AppError ? error.extra.retryAfter : undefined;
      if (problem.status === 429 && retryAfter) reply.header('Retry-After', String(retryAfter));
      reply.status(problem.status).header('Content-Type', HTML);
      const reason = (problem.code && CONTEST_REFUSALS[problem.code]) ?? problem.detail;
      return contestAnswerPage('The notice was not contested', reason, back);
    }
  }
}

/** The form's fields from the raw body: the platform's own form-data parser (undici's), over bytes already capped. */
async function readForm(request: FastifyRequest): Promise<ContestForm> {
  const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
  const type = request.headers['content-type'] ?? '';
  if (!/^\s*(multipart\/form-data|application\/x-www-form-urlencoded)\b/i.test(type))
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the contest as a form (multipart/form-data)');
  let data: FormData;
  try {
    data = await new Response(new Uint8Array(body), { headers: { 'content-type': type } }).formData();
  } catch {
    throw new AppError('BAD_BODY', 'The form could not be read: send it again from the notice page');
  }
  const text = data.get('text');
  const photo = data.get('photo');
  const form: ContestForm = { text: typeof text === 'string' ? text : undefined };
  if (photo !== null && typeof photo !== 'string') {
    if (photo.size > CONTEST_PHOTO_MAX_BYTES)
      throw new AppError('BODY_TOO_LARGE', `A photo is at most ${CONTEST_PHOTO_MAX_BYTES / 1024 / 1024} MB`);
    form.photo = new Uint8Array(await photo.arrayBuffer());
  }
  return form;
}
