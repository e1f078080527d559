import { Body, Controller, Get, HttpCode, Param, Post, Put, Query, Req, Res } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { FraudThresholds, GeoPoint } from '@transport/domain';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CurrentPrincipal, Roles } from '../core/auth/auth.decorators';
import { actorOf, type Principal } from '../core/auth/principal';
import { ApiProblems } from '../core/http/openapi';
import { pageItems } from '../core/http/paging';
import { ObjectIdPipe } from '../core/http/params';
import { pageRequest } from '../core/http/query-values';
import {
  ClearFraudFlagBody,
  FraudFlagResponse,
  FraudFlagsQuery,
  FraudSettingsBody,
  StationLocationBody,
  StationLocationResponse,
} from './fraud-flags.dto';
import { FraudFlagsService } from './fraud-flags.service';

const WHO =
  "Assembly admins (their assembly's; another role: 403 DUTY_NOT_ALLOWED) and the national admin (every assembly's).";

/** Signs of fraud (issue 46, item 6; docs/fraud-flags.md): the review list, clearing, thresholds, stations' places. */
@ApiTags('fraud flags')
@ApiSecurity('apiKey')
@Controller('assembly')
export class FraudFlagsController {
  constructor(private readonly fraud: FraudFlagsService) {}

  @Get('fraud-flags')
  @Roles('admin', 'assembly')
  @ApiOperation({
    summary: 'Signs of fraud to review: flags raised on inspections, photos and printed stickers',
    description:
      `${WHO} Newest first, paged (\`limit\`, \`after\`, \`count\`; the next page in the \`Link\` header), filtered by \`status\` and \`kind\`. ` +
      'A flag is raised after the work it concerns is stored and never refuses or undoes it: it asks a person to look.',
  })
  @ApiOkResponse({ type: FraudFlagResponse, isArray: true })
  @ApiProblems(400, 401, 403)
  async list(
    @Query() query: FraudFlagsQuery,
    @CurrentPrincipal() p: Principal,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) res: FastifyReply,
  ): Promise<FraudFlagResponse[]> {
    const page = await this.fraud.list({ status: query.status, kind: query.kind }, pageRequest(query), actorOf(p));
    return pageItems(req, res, page);
  }

  @Post('fraud-flags/:id/clear')
  @HttpCode(200)
  @Roles('admin', 'assembly')
  @ApiOperation({
    summary: 'Clear a flag, saying why (audited)',
    description:
      `${WHO} Another assembly's flag is a 404. The reason is plain text of 1 to 500 characters (400 INVALID_TEXT); ` +
      'a flag is cleared once (409 FRAUD_FLAG_ALREADY_CLEARED). Audited as FraudFlagCleared on the flag.',
  })
  @ApiBody({ type: ClearFraudFlagBody })
  @ApiOkResponse({ type: FraudFlagResponse })
  @ApiProblems(400, 401, 403, 404, 409, 413, 415)
  clear(
    @Param('id', ObjectIdPipe) id: string,
    @Body() body: ClearFraudFlagBody,
    @CurrentPrincipal() p: Principal,
  ): Promise<FraudFlagResponse> {
    return this.fraud.clear(id, body.reason, actorOf(p));
  }

  @Get('fraud-settings/:id')
  @Roles('admin', 'assembly')
  @ApiOperation({
    summary: "An assembly's thresholds for the signs of fraud (defaults 10 minutes, 5 km, 20 inspections)",
    description: `${WHO} Another assembly is a 404.`,
  })
  @ApiOkResponse({ type: FraudSettingsBody })
  @ApiProblems(400, 401, 403, 404)
  thresholds(@Param('id', ObjectIdPipe) id: string, @CurrentPrincipal() p: Principal): Promise<FraudThresholds> {
    return this.fraud.thresholds(id, actorOf(p));
  }

  @Put('fraud-settings/:id')
  @Roles('admin', 'assembly')
  @ApiOperation({
    summary: "Set an assembly's thresholds for the signs of fraud",
    description: `${WHO} All three, whole numbers within their bounds. They apply to the signs raised from then on. Audited on the assembly.`,
  })
  @ApiBody({ type: FraudSettingsBody })
  @ApiOkResponse({ type: FraudSettingsBody })
  @ApiProblems(400, 401, 403, 404, 413, 415)
  setThresholds(
    @Param('id', ObjectIdPipe) id: string,
    @Body() body: FraudSettingsBody,
    @CurrentPrincipal() p: Principal,
  ): Promise<FraudThresholds> {
    return this.fraud.setThresholds(id, body, actorOf(p));
  }

  @Put('station-locations/:id')
  @Roles('admin')
  @ApiOperation({
    summary: "Set where a station is: what an inspection's distance from the vehicle's station is measured from",
    description:
      'The national admin (who keeps the stations). A station without one raises no far-from-station flag. Audited on the station.',
  })
  @ApiBody({ type: StationLocationBody })
  @ApiOkResponse({ type: StationLocationResponse })
  @ApiProblems(400, 401, 403, 404, 413, 415)
  setStationLocation(
    @Param('id', ObjectIdPipe) id: string,
    @Body() body: StationLocationBody,
    @CurrentPrincipal() p: Principal,
  ): Promise<{ station: string; location: GeoPoint }> {
    return this.fraud.setStationLocation(id, body.location, actorOf(p));
  }
}
