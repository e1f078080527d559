import { Controller, Get, Query, Req, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CurrentPrincipal, Roles } from '../core/auth/auth.decorators';
import { actorOf, type Principal } from '../core/auth/principal';
import { ApiProblems } from '../core/http/openapi';
import { pageItems } from '../core/http/paging';
import { pageRequest } from '../core/http/query-values';
import { View } from '../core/http/view.interceptor';
import { SearchHitResponse, SearchQuery } from './search.dto';
import { SearchService } from './search.service';

@ApiTags('search')
@ApiSecurity('apiKey')
@Controller('search')
export class SearchController {
  constructor(private readonly search: SearchService) {}

  @Get()
  @Roles('admin', 'assembly')
  @ApiOperation({
    summary: 'Find vehicles, drivers and owners from one search box',
    description:
      'Every record of the registry, whatever its state (not only the work queues), within the caller’s jurisdiction: assembly keys and ' +
      'dashboard sessions find their own assembly’s records only (`X-Total-Count` counts only those), admins every record. ' +
      'Each hit says its `kind`, `_id`, a `label`, a `detail` and its `state`, to link to `GET /vehicles/:id`, `/drivers/:id` or the owner. ' +
      'Newest first across kinds; `limit` (default 50, at most 500), an `after` cursor with a `Link` header, `count=true` for `X-Total-Count`, as for every list. ' +
      'Answered from indexes (trigram indexes on each compared field, the plate by its letters and digits), so it can run as a person types.',
  })
  @View('searchHit')
  @ApiOkResponse({
    description: 'A JSON array of hits (empty when nothing matches).',
    type: SearchHitResponse,
    isArray: true,
  })
  @ApiProblems(400, 401, 403)
  async registry(
    @Query() query: SearchQuery,
    @CurrentPrincipal() principal: Principal,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) res: FastifyReply,
  ): Promise<SearchHitResponse[]> {
    return pageItems(
      req,
      res,
      await this.search.search(query.query, query.kind, pageRequest(query), actorOf(principal)),
    );
  }
}
