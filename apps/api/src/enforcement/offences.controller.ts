import { Body, Controller, Get, HttpCode, Inject, Param, Post, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import {
  ApiBody,
  ApiCreatedResponse,
  ApiOkResponse,
  ApiOperation,
  ApiProduces,
  ApiSecurity,
  ApiTags,
} from '@nestjs/swagger';
import type { Clock } from '@transport/domain';
import { CurrentPrincipal, Public, Roles } from '../core/auth/auth.decorators';
import { actorOf, type Principal } from '../core/auth/principal';
import { Idempotent } from '../core/http/idempotency';
import { ApiProblems } from '../core/http/openapi';
import { ObjectIdPipe } from '../core/http/params';
import { CLOCK } from '../core/tokens';
import {
  CatalogueQuery,
  CatalogueResponse,
  NoticeResponse,
  PublishCatalogueBody,
  RecordOffenceBody,
  toCatalogueResponse,
  toNoticeResponse,
} from './enforcement.dto';
import { NoticePaymentsService } from './notice-payments.service';
import { NoticesService } from './notices.service';
import { OffencesService } from './offences.service';

@ApiTags('enforcement')
@ApiSecurity('apiKey')
@Controller('enforcement')
export class OffencesController {
  constructor(
    private readonly offences: OffencesService,
    private readonly notices: NoticesService,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Post('catalogue')
  @HttpCode(201)
  @Roles('admin', 'assembly')
  @ApiOperation({
    summary: "Publish the next version of an assembly's offence catalogue (assembly admins; the national admin)",
    description:
      'The whole catalogue, each time: code, description, bye-law, fine and surcharge in pesewas, days to pay, days to contest (absent: not contestable). ' +
      "An assembly admin publishes their own assembly's (duty manageOffences, else 403 DUTY_NOT_ALLOWED; naming another: 422 OTHER_ASSEMBLY); the national admin names the assembly (422 ASSEMBLY_NOT_FOUND). " +
      'Each publication is the next version; notices keep the version they were issued under. Audited (OffenceCataloguePublished).',
  })
  @ApiBody({ type: PublishCatalogueBody })
  @ApiCreatedResponse({ type: CatalogueResponse })
  @ApiProblems(400, 401, 403, 409, 413, 415, 422)
  async publish(@Body() body: PublishCatalogueBody, @CurrentPrincipal() p: Principal): Promise<CatalogueResponse> {
    return toCatalogueResponse(await this.offences.publish(body.assembly, body.offences, actorOf(p)));
  }

  @Get('catalogue')
  @Roles('admin', 'assembly')
  @ApiOperation({
    summary: "An assembly's current offence catalogue (any staff; assembly staff: their own unless named)",
  })
  @ApiOkResponse({ type: CatalogueResponse })
  @ApiProblems(400, 401, 403, 404)
  async catalogue(@Query() query: CatalogueQuery, @CurrentPrincipal() p: Principal): Promise<CatalogueResponse> {
    return toCatalogueResponse(await this.offences.current(query.assembly, actorOf(p)));
  }

  @Post('offences')
  @HttpCode(201)
  @Roles('assembly')
  @Idempotent()
  @ApiOperation({
    summary: 'Record an offence against a vehicle: a notice (enforcers)',
    description:
      'For enforcers (another role: 403 DUTY_NOT_ALLOWED), against any vehicle (422 VEHICLE_NOT_FOUND) and its driver if identified (422 DRIVER_NOT_FOUND). ' +
      "Task-force officers under their assembly's current catalogue; nationwide officers under that of the assembly they name (where the offence was made). " +
      'Every code must be in the catalogue (422 OFFENCE_NOT_FOUND, also when the assembly has none yet). The notice keeps the catalogue version, fine, surcharge and due dates of this moment. ' +
      'Send an Idempotency-Key (a phone queues offences offline): a replay answers the first answer and records nothing more. Audited on the notice and in the vehicle’s history (NoticeIssued). ' +
      'The owner (once verified by the assembly) and the identified driver get an SMS naming the offences, the amount, the due date and the link to the public notice page (GET /n/{token}). ' +
      'Evidence photos follow the notice: POST /enforcement/notices/{id}/photos.',
  })
  @ApiBody({ type: RecordOffenceBody })
  @ApiCreatedResponse({ type: NoticeResponse })
  @ApiProblems(400, 401, 403, 409, 413, 415, 422)
  async record(@Body() body: RecordOffenceBody, @CurrentPrincipal() p: Principal): Promise<NoticeResponse> {
    const notice = await this.offences.record(
      {
        vehicleId: body.vehicle,
        codes: body.codes,
        ...(body.driver !== undefined && { driverId: body.driver }),
        ...(body.assembly !== undefined && { assemblyId: body.assembly }),
        ...(body.madeAt !== undefined && { madeAt: body.madeAt }),
        ...(body.madeWhere !== undefined && { madeWhere: body.madeWhere }),
        ...(body.notes !== undefined && { notes: body.notes }),
      },
      actorOf(p),
    );
    // After the commit: the SMS is not part of the notice (a refused SMS leaves it issued); a replay sends none.
    await this.notices.tellIssued(notice);
    return toNoticeResponse(notice, this.clock.now());
  }

  @Get('notices/:id')
  @Roles('admin', 'assembly')
  @ApiOperation({
    summary: 'One notice (the national admin; its assembly’s staff; the officer who recorded it)',
    description: "Another assembly's notice is 404, as a missing one.",
  })
  @ApiOkResponse({ type: NoticeResponse })
  @ApiProblems(400, 401, 403, 404)
  async notice(@Param('id', ObjectIdPipe) id: string, @CurrentPrincipal() p: Principal): Promise<NoticeResponse> {
    return toNoticeResponse(await this.notices.visible(id, actorOf(p)), this.clock.now());
  }
}

/** The public notice page the SMS links to: the service's own address, an unguessable signed token. */
@ApiTags('enforcement')
@Controller('n')
export class NoticePageController {
  constructor(
    private readonly notices: NoticesService,
    private readonly payments: NoticePaymentsService,
  ) {}

  @Get(':token')
  @Public()
  @ApiSecurity({})
  @ApiOperation({
    summary: 'The public notice page (what the SMS links to)',
    description:
      "A phone-sized HTML page of a few kB, no script: the offences, time and place, the officer's number (never a name), the amount due now (with the surcharge once overdue) and the due date, how to pay and how to contest, and how to recognise a genuine notice. Nothing else about the owner. " +
      'The token is the notice id with an HMAC under the service secret: anything else is 404, as a notice that does not exist.',
  })
  @ApiProduces('text/html')
  @ApiOkResponse({ description: 'The page.', content: { 'text/html': { schema: { type: 'string' } } } })
  @ApiProblems(404)
  async page(@Param('token') token: string, @Res({ passthrough: true }) res: FastifyReply): Promise<string> {
    const page = await this.notices.publicPage(token, await this.payments.paySection(token));
    res.header('Content-Type', 'text/html; charset=utf-8');
    res.header('Cache-Control', 'no-store');
    return page;
  }
}
