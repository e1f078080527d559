import { Body, Controller, Get, HttpCode, Inject, Param, Post, Put, Query, Res, StreamableFile } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ApiBody, ApiOkResponse, ApiOperation, ApiProduces, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { Clock } from '@transport/domain';
import { CurrentPrincipal, Roles } from '../core/auth/auth.decorators';
import { actorOf, type Principal } from '../core/auth/principal';
import { ApiProblems } from '../core/http/openapi';
import { ObjectIdPipe } from '../core/http/params';
import type { EnforcementSettings } from '../core/ports';
import { CLOCK } from '../core/tokens';
import { NoticeResponse, toNoticeResponse } from './enforcement.dto';
import { EnforcementReportsService } from './enforcement-reports.service';
import {
  CancelBody,
  ContestsQuery,
  DecisionBody,
  EnforcementReportQuery,
  EnforcementReportResponse,
  EnforcementSettingsBody,
} from './notice-decisions.dto';
import { NoticeDecisionsService } from './notice-decisions.service';

const SUPERVISORS =
  "Assembly staff with the duty decideNotices (admins and approvers) of the notice's assembly (another assembly's notice is 404), or the national admin; " +
  'never the officer who recorded the offence (403 NOTICE_DECIDER_IS_OFFICER or NOTICE_CANCEL_BY_OFFICER). ';

/** A supervisor's side of a notice: contests to decide, decisions, cancellations, settings and reports (issue 47). */
@ApiTags('enforcement')
@ApiSecurity('apiKey')
@Controller('enforcement')
export class NoticeDecisionsController {
  constructor(
    private readonly decisions: NoticeDecisionsService,
    private readonly reports: EnforcementReportsService,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Get('contests')
  @Roles('admin', 'assembly')
  @ApiOperation({
    summary: 'The contests awaiting a decision, oldest first (supervisors: admins and approvers; the national admin)',
    description:
      "Assembly staff with the duty decideNotices read their assembly's (naming another: 404); the national admin all, or one assembly's. At most 200.",
  })
  @ApiOkResponse({ type: [NoticeResponse] })
  @ApiProblems(400, 401, 403, 404)
  async contests(@Query() query: ContestsQuery, @CurrentPrincipal() p: Principal): Promise<NoticeResponse[]> {
    const now = this.clock.now();
    return (await this.decisions.openContests(query.assembly, actorOf(p))).map((n) => toNoticeResponse(n, now));
  }

  @Post('notices/:id/decision')
  @HttpCode(200)
  @Roles('admin', 'assembly')
  @ApiOperation({
    summary: 'Decide a contested notice: upheld, reduced or cancelled, with a reason the owner sees',
    description:
      SUPERVISORS +
      'Only a contested notice (422 NOTICE_NOT_CONTESTED). Upheld or reduced (amount: 1 pesewa to less than the fine, else 400 INVALID_AMOUNT) are owed again, the days to pay counted from the decision; cancelled owes nothing. ' +
      'Audited on the notice and in the vehicle’s history (NoticeDecided); the owner (once verified) and the identified driver are told by SMS after the commit.',
  })
  @ApiBody({ type: DecisionBody })
  @ApiOkResponse({ type: NoticeResponse })
  @ApiProblems(400, 401, 403, 404, 409, 413, 415, 422)
  async decide(
    @Param('id', ObjectIdPipe) id: string,
    @Body() body: DecisionBody,
    @CurrentPrincipal() p: Principal,
  ): Promise<NoticeResponse> {
    const decision = {
      outcome: body.outcome,
      reason: body.reason,
      ...(body.amount !== undefined && { amount: body.amount }),
    };
    return toNoticeResponse(await this.decisions.decide(id, decision, actorOf(p)), this.clock.now());
  }

  @Post('notices/:id/cancel')
  @HttpCode(200)
  @Roles('admin', 'assembly')
  @ApiOperation({
    summary: 'Cancel a notice, with a reason the owner sees',
    description:
      SUPERVISORS +
      'Not a paid notice (409 NOTICE_ALREADY_PAID) nor a cancelled one (422 NOTICE_CANCELLED); anything paid is to be refunded. A notice is never deleted. ' +
      'Audited on the notice and in the vehicle’s history (NoticeCancelled); the owner and driver are told by SMS after the commit.',
  })
  @ApiBody({ type: CancelBody })
  @ApiOkResponse({ type: NoticeResponse })
  @ApiProblems(400, 401, 403, 404, 409, 413, 415, 422)
  async cancel(
    @Param('id', ObjectIdPipe) id: string,
    @Body() body: CancelBody,
    @CurrentPrincipal() p: Principal,
  ): Promise<NoticeResponse> {
    return toNoticeResponse(await this.decisions.cancel(id, body.reason, actorOf(p)), this.clock.now());
  }

  @Get('notices/:id/contest-photo')
  @Roles('admin', 'assembly')
  @ApiOperation({
    summary: "The photo sent with a notice's contest (supervisors of its assembly; the national admin)",
    description: 'Kept without the metadata that can say where it was taken. 404 when the contest has no photo.',
  })
  @ApiProduces('image/jpeg', 'image/png', 'image/webp')
  @ApiResponse({ status: 200, description: 'The image.' })
  @ApiProblems(400, 401, 403, 404)
  async contestPhoto(
    @Param('id', ObjectIdPipe) id: string,
    @Res({ passthrough: true }) reply: FastifyReply,
    @CurrentPrincipal() p: Principal,
  ): Promise<StreamableFile> {
    const photo = await this.decisions.contestPhoto(id, actorOf(p));
    reply.header('Cache-Control', 'private, no-store');
    reply.header('X-Content-Type-Options', 'nosniff');
    return new StreamableFile(photo.body as NodeJS.ReadableStream & import('node:stream').Readable, {
      type: photo.contentType,
      length: photo.size,
    });
  }

  @Get('settings/:id')
  @Roles('admin', 'assembly')
  @ApiOperation({
    summary: "An assembly's enforcement settings (its staff; the national admin)",
    description: "Another assembly's is a 404.",
  })
  @ApiOkResponse({ type: EnforcementSettingsBody })
  @ApiProblems(400, 401, 403, 404)
  settings(@Param('id', ObjectIdPipe) id: string, @CurrentPrincipal() p: Principal): Promise<EnforcementSettings> {
    return this.decisions.settings(id, actorOf(p));
  }

  @Put('settings/:id')
  @Roles('admin', 'assembly')
  @ApiOperation({
    summary: "Set an assembly's enforcement settings (its admin, duty manageOffences; the national admin)",
    description:
      'overdueBlocksVehicle (off by default): when on, approving or renewing a vehicle with overdue notices is refused (422 VEHICLE_HAS_OVERDUE_NOTICES) until they are settled. Audited on the assembly.',
  })
  @ApiBody({ type: EnforcementSettingsBody })
  @ApiOkResponse({ type: EnforcementSettingsBody })
  @ApiProblems(400, 401, 403, 404, 413, 415)
  setSettings(
    @Param('id', ObjectIdPipe) id: string,
    @Body() body: EnforcementSettingsBody,
    @CurrentPrincipal() p: Principal,
  ): Promise<EnforcementSettings> {
    return this.decisions.setSettings(id, { overdueBlocksVehicle: body.overdueBlocksVehicle }, actorOf(p));
  }

  @Get('reports')
  @Roles('admin', 'assembly')
  @ApiOperation({
    summary:
      'Offences by day, code and officer, amounts issued and collected, checks made (assembly admins; the national admin)',
    description:
      "Whole days in the assembly's time zone, from and to included (at most 366 days; 400 INVALID_DATE_RANGE). An assembly admin (duty readCheckLog) reads their assembly's (naming another: 404); the national admin every assembly's or one. " +
      'Amounts in pesewas: issued is the fines of the notices issued in the range; collected what was paid on notices paid in full in it.',
  })
  @ApiOkResponse({ type: EnforcementReportResponse })
  @ApiProblems(400, 401, 403, 404)
  report(@Query() query: EnforcementReportQuery, @CurrentPrincipal() p: Principal): Promise<EnforcementReportResponse> {
    return this.reports.report(query, actorOf(p));
  }
}
