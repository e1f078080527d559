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
import { AddUnionBody, PageQuery, TransportUnionRecordResponse } from './reference-data.dto';
import { ReferenceDataService } from './reference-data.service';

@ApiTags('reference data')
@ApiSecurity('apiKey')
@Controller('unions')
export class UnionsController {
  constructor(private readonly reference: ReferenceDataService) {}

  @Post('add')
  @HttpCode(201)
  @Roles('admin')
  @ApiOperation({ summary: 'Add a transport union (or a branch of one)' })
  @ApiCreatedResponse({ type: TransportUnionRecordResponse })
  @ApiBody({ type: AddUnionBody })
  @ApiProblems(400, 401, 403, 413, 415, 422)
  add(@Body() body: AddUnionBody, @CurrentPrincipal() p: Principal): Promise<TransportUnionRecordResponse> {
    const { transportUnion, ...rest } = body;
    return this.reference.addUnion({ ...rest, parentUnionId: transportUnion }, actorOf(p));
  }

  @ReferenceListRoute('all', 'transport unions', TransportUnionRecordResponse)
  async all(
    @Query() query: PageQuery,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) res: FastifyReply,
  ): Promise<TransportUnionRecordResponse[]> {
    return pageItems(req, res, await this.reference.listUnions(pageRequest(query)));
  }

  @Get(':id')
  @Roles('admin', 'assembly', 'merchant', 'platform')
  @ApiOperation({ summary: 'One transport union' })
  @ApiOkResponse({ type: TransportUnionRecordResponse })
  @ApiProblems(400, 401, 403, 404)
  one(@Param('id', ObjectIdPipe) id: string): Promise<TransportUnionRecordResponse> {
    return this.reference.union(id);
  }
}
