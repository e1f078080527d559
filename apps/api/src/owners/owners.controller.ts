import { Body, Controller, Get, Headers, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import {
  ApiBody,
  ApiCreatedResponse,
  ApiHeader,
  ApiOkResponse,
  ApiOperation,
  ApiSecurity,
  ApiTags,
} from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CurrentPrincipal, Roles } from '../core/auth/auth.decorators';
import { actorOf, type Principal } from '../core/auth/principal';
import { IF_MATCH } from '../core/http/dto-support';
import { TransferBody, TransferRoute } from '../core/http/jurisdiction.dto';
import { ApiProblems } from '../core/http/openapi';
import { View } from '../core/http/view.interceptor';
import { CorrectRoute } from '../core/http/correction';
import { pageItems } from '../core/http/paging';
import { expectedVersion, ObjectIdPipe, requiredVersion } from '../core/http/params';
import { pageRequest } from '../core/http/query-values';
import { AddOwnerBody, CorrectOwnerBody, OwnerListQuery, OwnerResponse, OwnerSearchQuery } from './owners.dto';
import { OwnersService } from './owners.service';

@ApiTags('vehicles')
@ApiSecurity('apiKey')
@Controller('vehicles/owner')
export class OwnersController {
  constructor(private readonly owners: OwnersService) {}

  @Get('all')
  @Roles('admin', 'assembly')
  @ApiOperation({
    summary: 'List vehicle owners (operation 3)',
    description:
      "Assembly keys list their own assembly's owners only; admins every owner. Newest first; `limit` (default 50, at most 500) and an `after` cursor with a `Link` header, as for vehicles.",
  })
  @View('owner')
  @ApiOkResponse({ description: 'A JSON array of owners.', type: OwnerResponse, isArray: true })
  @ApiProblems(400, 401, 403)
  async list(
    @Query() query: OwnerListQuery,
    @CurrentPrincipal() principal: Principal,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) res: FastifyReply,
  ): Promise<OwnerResponse[]> {
    return pageItems(req, res, await this.owners.list(pageRequest(query), actorOf(principal)));
  }

  @Get('search')
  @Roles('admin', 'assembly')
  @ApiOperation({
    summary: 'Search vehicle owners (operation 4)',
    description:
      "Case-insensitive substring match on name, phone (0244123456 and +233244123456 are the same number) or email, within the caller's jurisdiction (assembly keys: their assembly's owners). Newest first; a JSON array of owners (empty when none match).",
  })
  @View('owner')
  @ApiOkResponse({ description: 'A JSON array of matching owners.', type: OwnerResponse, isArray: true })
  @ApiProblems(400, 401, 403)
  async search(
    @Query() query: OwnerSearchQuery,
    @CurrentPrincipal() principal: Principal,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) res: FastifyReply,
  ): Promise<OwnerResponse[]> {
    return pageItems(req, res, await this.owners.search(query.query, pageRequest(query), actorOf(principal)));
  }

  @Post('add')
  @HttpCode(201)
  @Roles('admin', 'assembly')
  @ApiTags('vehicles (management)')
  @ApiOperation({
    summary: 'Register a vehicle owner',
    description: 'Starts unverified. Phone stored as +233XXXXXXXXX, email lower-cased.',
  })
  @ApiBody({ type: AddOwnerBody })
  @View('owner')
  @ApiCreatedResponse({ type: OwnerResponse })
  @ApiProblems(400, 401, 403, 413, 415, 422)
  add(@Body() body: AddOwnerBody, @CurrentPrincipal() principal: Principal): Promise<OwnerResponse> {
    const { assembly, ...fields } = body;
    return this.owners.add({ ...fields, assemblyId: assembly }, actorOf(principal));
  }

  @Post(':id/verify')
  @HttpCode(200)
  @Roles('admin', 'assembly')
  @ApiTags('vehicles (management)')
  @ApiHeader(IF_MATCH)
  @ApiOperation({
    summary: 'Mark an owner verified (identity document checked)',
    description: 'Verifying twice is a 409 (OWNER_ALREADY_VERIFIED).',
  })
  @View('owner')
  @ApiOkResponse({ type: OwnerResponse })
  @ApiProblems(400, 401, 403, 404, 409)
  verify(
    @Param('id', ObjectIdPipe) id: string,
    @Headers('if-match') ifMatch: string | undefined,
    @CurrentPrincipal() principal: Principal,
  ): Promise<OwnerResponse> {
    return this.owners.verify(id, actorOf(principal), expectedVersion(ifMatch));
  }

  @CorrectRoute(
    'an owner',
    'owner',
    CorrectOwnerBody,
    OwnerResponse,
    'vehicles (management)',
    'Any of name, phone, email, idType, idNumber, language (400 INVALID_LANGUAGE for one not spoken: docs/languages.md); idType and idNumber only until the owner is verified (then 422 CORRECTION_NOT_ALLOWED).',
  )
  correct(
    @Param('id', ObjectIdPipe) id: string,
    @Body() body: CorrectOwnerBody,
    @Headers('if-match') ifMatch: string | undefined,
    @CurrentPrincipal() principal: Principal,
  ): Promise<OwnerResponse> {
    return this.owners.correct(id, body, actorOf(principal), requiredVersion(ifMatch));
  }

  @TransferRoute('a vehicle owner', 'owner', OwnerResponse, 'vehicles (management)')
  transfer(
    @Param('id', ObjectIdPipe) id: string,
    @Body() body: TransferBody,
    @Headers('if-match') ifMatch: string | undefined,
    @CurrentPrincipal() principal: Principal,
  ): Promise<OwnerResponse> {
    return this.owners.transfer(id, body.assembly, actorOf(principal), expectedVersion(ifMatch));
  }
}
