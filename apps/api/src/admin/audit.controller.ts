import { Controller, Get, Query, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { pageItems } from '../core/http/paging';
import { pageRequest } from '../core/http/query-values';
import { ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { Roles } from '../core/auth/auth.decorators';
import { ApiProblems } from '../core/http/openapi';
import { View } from '../core/http/view.interceptor';
import { AuditBrowseQuery, AuditEntryResponse, AuditQuery } from './admin.dto';
import { AdminService } from './admin.service';

@ApiTags('admin')
@ApiSecurity('apiKey')
@Roles('admin')
@Controller('audit')
export class AuditController {
  constructor(private readonly admin: AdminService) {}

  @Get('entries')
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
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<AuditEntryResponse[]> {
    const page = await this.admin.browseAudit(
      { entity: query.entity, actorId: query.actor, actorRole: query.actorRole, from: query.from, to: query.to },
      pageRequest(query),
    );
    return pageItems(request, response, page);
  }

  @Get()
  @View('auditEntry')
  @ApiOperation({
    summary: 'The append-only history of a record',
    description:
      'Oldest first: each state change with its actor, time, and the state before and after. Secrets (key hashes) are never recorded.',
  })
  @ApiOkResponse({ type: AuditEntryResponse, isArray: true })
  @ApiProblems(400, 401, 403)
  history(@Query() query: AuditQuery): Promise<AuditEntryResponse[]> {
    return this.admin.auditFor(query.entity, query.id);
  }
}
