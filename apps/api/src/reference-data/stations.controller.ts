import { Body, Controller, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { pageItems } from '../core/http/paging';
import { pageRequest } from '../core/http/query-values';
import { ReferenceListRoute } from './list-route';
import { ApiBody, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, Roles } from '../core/auth/auth.decorators';
import { actorOf, type Principal } from '../core/auth/principal';
import { ApiProblems } from '../core/http/openapi';
import { ObjectIdPipe } from '../core/http/params';
import { AddStationBody, PageQuery, StationRecordResponse } from './reference-data.dto';
import { ReferenceDataService } from './reference-data.service';

@ApiTags('reference data')
@ApiSecurity('apiKey')
@Controller('stations')
export class StationsController {
  constructor(private readonly reference: ReferenceDataService) {}

  @Post('add')
  @HttpCode(201)
  @Roles('admin')
  @ApiOperation({ summary: 'Add a station' })
  @ApiCreatedResponse({ type: StationRecordResponse })
  @ApiBody({ type: AddStationBody })
  @ApiProblems(400, 401, 403, 413, 415, 422)
  add(@Body() body: AddStationBody, @CurrentPrincipal() p: Principal): Promise<StationRecordResponse> {
    return this.reference.addStation(body, actorOf(p));
  }

  @ReferenceListRoute('all', 'stations', StationRecordResponse)
  async all(
    @Query() query: PageQuery,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) res: FastifyReply,
  ): Promise<StationRecordResponse[]> {
    return pageItems(req, res, await this.reference.listStations(pageRequest(query)));
  }

  @Get(':id')
  @Roles('admin', 'assembly', 'merchant', 'platform')
  @ApiOperation({ summary: 'One station' })
  @ApiOkResponse({ type: StationRecordResponse })
  @ApiProblems(400, 401, 403, 404)
  one(@Param('id', ObjectIdPipe) id: string): Promise<StationRecordResponse> {
    return this.reference.station(id);
  }
}
