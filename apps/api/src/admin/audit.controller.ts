import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { Roles } from '../core/auth/auth.decorators';
import { ApiProblems } from '../core/http/openapi';
import { AuditEntryResponse, AuditQuery } from './admin.dto';
import { AdminService } from './admin.service';

@ApiTags('admin')
@ApiSecurity('apiKey')
@Roles('admin')
@Controller('audit')
export class AuditController {
  constructor(private readonly admin: AdminService) {}

  @Get()
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
