import { Body, Controller, Get, HttpCode, Post, Query, Req, Res } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CurrentPrincipal, Roles } from '../core/auth/auth.decorators';
import { actorOf, type Principal } from '../core/auth/principal';
import { Idempotent } from '../core/http/idempotency';
import { ApiProblems } from '../core/http/openapi';
import { pageItems } from '../core/http/paging';
import { pageRequest } from '../core/http/query-values';
import {
  CheckLogEntryResponse,
  CheckLogQuery,
  RoadsideCheckBody,
  RoadsideCheckResponse,
  toCheckLogEntry,
} from './enforcement.dto';
import { RoadsideService } from './roadside.service';

@ApiTags('enforcement')
@ApiSecurity('apiKey')
@Controller('enforcement/checks')
export class RoadsideController {
  constructor(private readonly roadside: RoadsideService) {}

  @Post()
  @HttpCode(200)
  @Roles('assembly')
  @Idempotent()
  @ApiOperation({
    summary: 'Check a vehicle at the roadside (enforcers)',
    description:
      'For enforcers (task-force officers and police traffic officers; another role: 403 DUTY_NOT_ALLOWED), any vehicle of any assembly. ' +
      "By `plate` (any spelling, as the registry search reads it) or the certificate's QR `token` (exactly one, else 400 INVALID_VALUE): " +
      'whether the sticker is genuine and current, the roadworthy, insurance and driver licence dates, whether the licence number or phone typed is the approved driver of this vehicle, and its open notices. ' +
      "Every check is logged (who, when, where if given, which vehicle; the plate as typed, never a token) for the officer's assembly's admin (GET /enforcement/checks). " +
      'A plate nobody has is answered 200 with `vehicle: null` and sticker `unknown` (and logged too). ' +
      'A phone sending the log entry of a check made offline sends an Idempotency-Key: a replay answers the first answer and logs nothing more.',
  })
  @ApiBody({ type: RoadsideCheckBody })
  @ApiOkResponse({ type: RoadsideCheckResponse })
  @ApiProblems(400, 401, 403, 409, 413, 415, 422)
  check(@Body() body: RoadsideCheckBody, @CurrentPrincipal() p: Principal): Promise<RoadsideCheckResponse> {
    return this.roadside.check(body, actorOf(p));
  }

  @Get()
  @Roles('admin', 'assembly')
  @ApiOperation({
    summary: 'The log of roadside checks (assembly admins: their assembly; the national admin: all)',
    description:
      "Newest first, paged (`limit`, `after`, `count`; the next page in the `Link` header). An assembly admin reads the checks of their assembly's enforcers (another role: 403 DUTY_NOT_ALLOWED).",
  })
  @ApiOkResponse({ type: CheckLogEntryResponse, isArray: true })
  @ApiProblems(400, 401, 403)
  async checks(
    @Query() query: CheckLogQuery,
    @CurrentPrincipal() p: Principal,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) res: FastifyReply,
  ): Promise<CheckLogEntryResponse[]> {
    const page = await this.roadside.checks(pageRequest(query), actorOf(p));
    return pageItems(req, res, { ...page, items: page.items.map(toCheckLogEntry) });
  }
}
