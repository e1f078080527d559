import { Controller, Get, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { pageItems } from '../core/http/paging';
import { pageRequest } from '../core/http/query-values';
import { ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, Roles } from '../core/auth/auth.decorators';
import { actorOf, type Principal } from '../core/auth/principal';
import { ApiProblems } from '../core/http/openapi';
import { View } from '../core/http/view.interceptor';
import { AuditBrowseQuery, AuditEntryResponse, AuditQuery } from './admin.dto';
import { AdminService } from './admin.service';

@ApiTags('admin')
@ApiSecurity('apiKey')
@Controller('audit')
export class AuditController {
  constructor(private readonly admin: AdminService) {}

  @Get('entries')
  @Roles('admin')
  @View('auditEntry')
  @ApiOperation({
    summary: 'Browse the audit log: by actor, kind of actor, kind of record and time range',
    description:
      'Newest first; every filter optional and combinable; `limit` 1..500 (default 50) with a `Link: <...>; rel="next"` header ' +
      'carrying the `after` cursor. Each entry as in GET /audit (before and after: whole states, or only the changed fields for corrections).',
  })
  @ApiOkResponse({ type: AuditEntryResponse, isArray: true })
  @ApiProblems(400, 401, 403)
  async browse(
    @Query() query: AuditBrowseQuery,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) response: FastifyReply,
  ): Promise<AuditEntryResponse[]> {
    const page = await this.admin.browseAudit(
      { entity: query.entity, actorId: query.actor, actorRole: query.actorRole, from: query.from, to: query.to },
      pageRequest(query),
    );
    return pageItems(request, response, page);
  }

  @Get()
  @Roles('admin', 'assembly')
  @View('auditEntry')
  @ApiOperation({
    summary: 'The append-only history of a record',
    description:
      'Oldest first: each state change with its actor, time, and the state before and after. Secrets (key hashes) are never recorded. ' +
      "Assembly staff may read the history of their own assembly's vehicles, drivers and owners (another assembly's record is 404; other kinds of record 403).",
  })
  @ApiOkResponse({ type: AuditEntryResponse, isArray: true })
  @ApiProblems(400, 401, 403, 404)
  history(@Query() query: AuditQuery, @CurrentPrincipal() principal: Principal): Promise<AuditEntryResponse[]> {
    return this.admin.auditFor(query.entity, query.id, actorOf(principal));
  }
}
