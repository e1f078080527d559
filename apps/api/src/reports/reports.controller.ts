import { Controller, Get, Query, Req, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CurrentPrincipal, Roles } from '../core/auth/auth.decorators';
import { actorOf, type Principal } from '../core/auth/principal';
import { ApiProblems } from '../core/http/openapi';
import { pageItems } from '../core/http/paging';
import { pageRequest } from '../core/http/query-values';
import { VehicleReportResponse, VehicleReportsQuery } from './reports.dto';
import { ReportsService } from './reports.service';

@ApiTags('vehicles (management)')
@ApiSecurity('apiKey')
@Controller('vehicle-reports')
export class ReportsController {
  constructor(private readonly reports: ReportsService) {}

  @Get()
  @Roles('admin', 'assembly')
  @ApiOperation({
    summary: 'Vehicles the public reported over USSD',
    description:
      'Newest first; every filter optional and combinable; `limit` 1..500 (default 50) with a `Link: <...>; rel="next"` header carrying the `after` cursor. ' +
      "Assembly staff (any role) read their own assembly's reports (`assembly` naming another is 403); the national admin reads every report, " +
      'those about a plate no vehicle has (`assembly: null`) included. No caller’s phone number is kept, so none is shown.',
  })
  @ApiOkResponse({ type: VehicleReportResponse, isArray: true })
  @ApiProblems(400, 401, 403)
  async list(
    @Query() query: VehicleReportsQuery,
    @CurrentPrincipal() principal: Principal,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) response: FastifyReply,
  ): Promise<VehicleReportResponse[]> {
    const page = await this.reports.list(
      { assemblyId: query.assembly, vehicleId: query.vehicle, reason: query.reason, from: query.from, to: query.to },
      pageRequest(query),
      actorOf(principal),
    );
    return pageItems(request, response, page);
  }
}
