import { AuditEntryDoc, IssuedKeyDoc, KeySummaryDoc, MerchantCreatedDoc, RevokedKeyDoc } from './management.openapi';
import { Body, Controller, Get, HttpCode, Inject, Param, Post, Query } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { Clock, IdGenerator } from '@transport/domain';
import { issueApiKey, listApiKeys, revokeApiKey } from '../application/api-keys';
import { auditEntriesFor } from '../application/audit-log';
import { CLOCK, ID_GENERATOR } from '../api/tokens';
import { CurrentPrincipal, Roles } from '../auth/auth.decorators';
import { actorOf, type Principal } from '../auth/principal';
import type { Database } from '../database/database';
import { DATABASE } from '../database/database.module';
import { ApiProblems } from '../http/openapi';
import { ObjectIdPipe } from '../http/params';
import { PrismaAuditLog } from '../persistence/prisma-audit-log';
import { newApiKey } from '../platform/secrets';
import { AddMerchantBody, AuditQuery, IssueKeyBody } from './management.dto';

@ApiTags('admin')
@ApiSecurity('apiKey')
@Roles('admin')
@Controller()
export class AdminController {
  constructor(
    @Inject(DATABASE) private readonly database: Database,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
  ) {}

  @Get('audit')
  @ApiOperation({ summary: 'The append-only history of a record', description: 'Oldest first: each state change with its actor, time, and the state before and after. Secrets (key hashes) are never recorded.' })
  @ApiOkResponse({ type: AuditEntryDoc, isArray: true })
  @ApiProblems(400, 401, 403)
  async audit(@Query() query: AuditQuery) {
    const rows = await this.database.prisma.auditEntry.findMany({ where: { entity: query.entity, entityId: query.id }, orderBy: { id: 'asc' }, take: 1000 });
    return rows.map((r) => ({ _id: r.id.toString(), entity: r.entity, entityId: r.entityId, action: r.action, actor: { role: r.actorRole, id: r.actorId }, before: r.before, after: r.after, at: r.at.toISOString() }));
  }

  @Post('admin/merchants/add')
  @HttpCode(201)
  @ApiOperation({
    summary: 'Add a merchant',
    description: 'Answers with the `signingSecret` the merchant uses to verify the notifications this service signs (HMAC-SHA256); it is shown this once.',
  })
  @ApiBody({ type: AddMerchantBody })
  @ApiCreatedResponse({ type: MerchantCreatedDoc })
  @ApiProblems(400, 401, 403, 413, 415)
  async addMerchant(@Body() body: AddMerchantBody, @CurrentPrincipal() p: Principal) {
    const now = this.clock.now();
    const id = this.ids.next();
    const signingSecret = newApiKey('whsec');
    const merchant = await this.database.prisma.$transaction(async (tx) => {
      const row = await tx.merchant.create({ data: { id, name: body.name.trim(), signingSecret, createdAt: now, updatedAt: now } });
      await new PrismaAuditLog(tx).append(auditEntriesFor('merchant', [{ type: 'MerchantCreated', aggregateId: id, at: now }], actorOf(p), null, { id, name: row.name }));
      return row;
    });
    return { _id: merchant.id, name: merchant.name, signingSecret, createdAt: merchant.createdAt.toISOString(), updatedAt: merchant.updatedAt.toISOString(), __v: merchant.version };
  }

  @Post('admin/keys')
  @HttpCode(201)
  @ApiOperation({ summary: 'Issue an API key for an admin, assembly user, merchant or platform', description: 'Answers `{ _id, key, role, principal }`; the key is shown this once.' })
  @ApiBody({ type: IssueKeyBody })
  @ApiCreatedResponse({ type: IssuedKeyDoc })
  @ApiProblems(400, 401, 403, 413, 415, 422)
  issue(@Body() body: IssueKeyBody) {
    return issueApiKey(this.database.prisma, this.ids, this.clock, body.role, body.principal, body.label ?? '');
  }

  @Post('admin/keys/:id/revoke')
  @HttpCode(200)
  @ApiOperation({ summary: 'Revoke a key: it stops working at once' })
  @ApiOkResponse({ type: RevokedKeyDoc })
  @ApiProblems(400, 401, 403, 404)
  async revoke(@Param('id', ObjectIdPipe) id: string) {
    await revokeApiKey(this.database.prisma, this.clock, id);
    return { _id: id, revoked: true };
  }

  @Get('admin/keys')
  @ApiOperation({ summary: 'Every key (never the key itself)' })
  @ApiOkResponse({ type: KeySummaryDoc, isArray: true })
  @ApiProblems(401, 403)
  list() {
    return listApiKeys(this.database.prisma);
  }
}
