import { Controller, Get, Inject, Query, Req, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import type { RegionState } from '@transport/domain';
import { REPOSITORIES } from '../api/tokens';
import { CurrentPrincipal, Roles } from '../auth/auth.decorators';
import type { Principal } from '../auth/principal';
import { ApiProblems } from '../http/openapi';
import { setNextLink } from '../http/paging';
import { DEFAULT_LIMIT, IdParam, LimitParam } from '../http/query-values';
import { MappingError } from '../persistence/mapping-error';
import type { RepositoryBackendPorts } from '../persistence/repositories';
import { AssemblyDoc, AssemblyUserDoc } from './assembly.openapi';
import { toAssemblyResponse, toAssemblyUserResponse, type AssemblyResponse, type AssemblyUserResponse } from './assembly.response';

export class PageQuery {
  @LimitParam() limit?: number;
  @IdParam('Cursor: the `_id` of the last record of the previous page.') after?: string;
}

@ApiTags('assembly')
@ApiSecurity('apiKey')
@Controller('assembly')
export class AssemblyController {
  constructor(@Inject(REPOSITORIES) private readonly repos: RepositoryBackendPorts) {}

  @Get('all')
  @Roles('admin', 'assembly', 'merchant')
  @ApiOperation({ summary: 'List assemblies (operation 7)', description: 'Each with its region embedded. Newest first; `limit`/`after` paging with a `Link` header.' })
  @ApiOkResponse({ type: AssemblyDoc, isArray: true })
  @ApiProblems(400, 401, 403)
  async all(@Query() query: PageQuery, @Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<AssemblyResponse[]> {
    const page = await this.repos.assemblies.list({ limit: query.limit ?? DEFAULT_LIMIT, after: query.after });
    const states = page.items.map((a) => a.toState());
    const regions = new Map<string, RegionState>(
      (await this.repos.regions.findByIds([...new Set(states.map((a) => a.regionId))])).map((r) => [r.id, r.toState()]),
    );
    setNextLink(req, res, page);
    return states.map((a) => {
      const region = regions.get(a.regionId);
      if (!region) throw new MappingError('assemblies', a.id, `region ${a.regionId} does not exist`);
      return toAssemblyResponse(a, region);
    });
  }

  @Get('users')
  @Roles('admin', 'assembly')
  @ApiOperation({
    summary: 'List assembly users (operation 8)',
    description: 'Admin keys see every assembly user; an assembly user\'s key sees the users of its own assembly. Never credentials or hashes.',
  })
  @ApiOkResponse({ type: AssemblyUserDoc, isArray: true })
  @ApiProblems(400, 401, 403)
  async users(
    @Query() query: PageQuery,
    @CurrentPrincipal() principal: Principal,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<AssemblyUserResponse[]> {
    let assemblyId: string | undefined;
    if (principal.role === 'assembly') {
      const self = await this.repos.assemblyUsers.findById(principal.principalId);
      if (!self) return [];
      assemblyId = self.assemblyId;
    }
    const page = await this.repos.assemblyUsers.list({ assemblyId }, { limit: query.limit ?? DEFAULT_LIMIT, after: query.after });
    setNextLink(req, res, page);
    return page.items.map((u) => toAssemblyUserResponse(u.toState()));
  }
}
