import { Body, Controller, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { NoStore } from '../core/http/no-store';
import { ApiBody, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, Roles } from '../core/auth/auth.decorators';
import { actorOf, type Principal } from '../core/auth/principal';
import { ApiProblems } from '../core/http/openapi';
import { pageItems } from '../core/http/paging';
import { ObjectIdPipe } from '../core/http/params';
import { pageRequest } from '../core/http/query-values';
import {
  AddMerchantBody,
  IssuedKeyResponse,
  IssueKeyBody,
  KeyListQuery,
  KeySummaryResponse,
  MerchantCreatedResponse,
  RevokedKeyResponse,
} from './admin.dto';
import { AdminService } from './admin.service';

@ApiTags('admin')
@ApiSecurity('apiKey')
@Roles('admin')
@Controller('admin')
export class AdminController {
  constructor(private readonly admin: AdminService) {}

  @Post('merchants/add')
  @HttpCode(201)
  @NoStore()
  @ApiOperation({
    summary: 'Add a merchant',
    description:
      'Answers with the `signingSecret` (`whsec_...`, Standard Webhooks) the merchant uses to verify the notifications this service signs; it is shown this once.',
  })
  @ApiBody({ type: AddMerchantBody })
  @ApiCreatedResponse({ type: MerchantCreatedResponse })
  @ApiProblems(400, 401, 403, 413, 415)
  addMerchant(@Body() body: AddMerchantBody, @CurrentPrincipal() p: Principal): Promise<MerchantCreatedResponse> {
    return this.admin.addMerchant(body.name, actorOf(p));
  }

  @Post('keys')
  @HttpCode(201)
  @NoStore()
  @ApiOperation({
    summary: 'Issue an API key for an admin, assembly user, merchant or platform',
    description: 'Answers `{ _id, key, role, principal }`; the key is shown this once.',
  })
  @ApiBody({ type: IssueKeyBody })
  @ApiCreatedResponse({ type: IssuedKeyResponse })
  @ApiProblems(400, 401, 403, 413, 415, 422)
  issue(@Body() body: IssueKeyBody, @CurrentPrincipal() p: Principal): Promise<IssuedKeyResponse> {
    return this.admin.issueKey(body.role, body.principal, actorOf(p), { label: body.label, expiresAt: body.expiresAt });
  }

  @Post('keys/:id/revoke')
  @HttpCode(200)
  @ApiOperation({ summary: 'Revoke a key: it stops working at once' })
  @ApiOkResponse({ type: RevokedKeyResponse })
  @ApiProblems(400, 401, 403, 404)
  revoke(@Param('id', ObjectIdPipe) id: string, @CurrentPrincipal() p: Principal): Promise<RevokedKeyResponse> {
    return this.admin.revokeKey(id, actorOf(p));
  }

  @Get('keys')
  @ApiOperation({
    summary: 'Every key (never the key itself)',
    description: 'Newest first; `limit`/`after` paging with a `Link` header, `count=true` for `X-Total-Count`.',
  })
  @ApiOkResponse({ type: KeySummaryResponse, isArray: true })
  @ApiProblems(400, 401, 403)
  async list(
    @Query() query: KeyListQuery,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) res: FastifyReply,
  ): Promise<KeySummaryResponse[]> {
    return pageItems(req, res, await this.admin.listKeys(pageRequest(query)));
  }
}
