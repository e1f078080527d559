import { Body, Controller, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CurrentPrincipal, Roles } from '../core/auth/auth.decorators';
import { actorOf, type Principal } from '../core/auth/principal';
import { ApiProblems } from '../core/http/openapi';
import { pageItems } from '../core/http/paging';
import { ObjectIdPipe } from '../core/http/params';
import { pageRequest } from '../core/http/query-values';
import {
  AddAssemblyBody,
  AddAssemblyUserBody,
  AddRegionBody,
  AssemblyResponse,
  AssemblyUserResponse,
  PageQuery,
  RegionRecordResponse,
} from './reference-data.dto';
import { ReferenceDataService } from './reference-data.service';
import { ReferenceListRoute } from './list-route';

/**
 * Everything under /assembly: assemblies, their regions and their users. One controller for the prefix because
 * Express matches in registration order, and `GET assembly/:id` would otherwise swallow `GET assembly/users`.
 */
@ApiTags('assembly')
@ApiSecurity('apiKey')
@Controller('assembly')
export class AssemblyController {
  constructor(private readonly reference: ReferenceDataService) {}

  @Get('all')
  @Roles('admin', 'assembly', 'merchant')
  @ApiOperation({
    summary: 'List assemblies (operation 7)',
    description: 'Each with its region embedded. Newest first; `limit`/`after` paging with a `Link` header.',
  })
  @ApiOkResponse({ type: AssemblyResponse, isArray: true })
  @ApiProblems(400, 401, 403)
  async all(
    @Query() query: PageQuery,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) res: FastifyReply,
  ): Promise<AssemblyResponse[]> {
    return pageItems(req, res, await this.reference.listAssemblies(pageRequest(query)));
  }

  @Get('users')
  @Roles('admin', 'assembly')
  @ApiOperation({
    summary: 'List assembly users (operation 8)',
    description:
      "Admin keys see every assembly user; an assembly user's key sees the users of its own assembly. Never credentials or hashes.",
  })
  @ApiOkResponse({ type: AssemblyUserResponse, isArray: true })
  @ApiProblems(400, 401, 403)
  async users(
    @Query() query: PageQuery,
    @CurrentPrincipal() principal: Principal,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) res: FastifyReply,
  ): Promise<AssemblyUserResponse[]> {
    return pageItems(req, res, await this.reference.listAssemblyUsers(actorOf(principal), pageRequest(query)));
  }

  @Post('add')
  @HttpCode(201)
  @Roles('admin')
  @ApiTags('reference data')
  @ApiOperation({ summary: 'Add an assembly' })
  @ApiCreatedResponse({ type: AssemblyResponse })
  @ApiBody({ type: AddAssemblyBody })
  @ApiProblems(400, 401, 403, 413, 415, 422)
  addAssembly(@Body() body: AddAssemblyBody, @CurrentPrincipal() p: Principal): Promise<AssemblyResponse> {
    return this.reference.addAssembly(
      { name: body.name, regionId: body.region, digitalAddress: body.digitalAddress, type: body.type },
      actorOf(p),
    );
  }

  @Post('regions/add')
  @HttpCode(201)
  @Roles('admin')
  @ApiTags('reference data')
  @ApiOperation({ summary: 'Add a region' })
  @ApiCreatedResponse({ type: RegionRecordResponse })
  @ApiBody({ type: AddRegionBody })
  @ApiProblems(400, 401, 403, 409, 413, 415)
  addRegion(@Body() body: AddRegionBody, @CurrentPrincipal() p: Principal): Promise<RegionRecordResponse> {
    return this.reference.addRegion(body, actorOf(p));
  }

  @ReferenceListRoute('regions/all', 'regions', RegionRecordResponse)
  async regions(
    @Query() query: PageQuery,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) res: FastifyReply,
  ): Promise<RegionRecordResponse[]> {
    return pageItems(req, res, await this.reference.listRegions(pageRequest(query)));
  }

  @Get('regions/:id')
  @Roles('admin', 'assembly', 'merchant', 'platform')
  @ApiTags('reference data')
  @ApiOperation({ summary: 'One region' })
  @ApiOkResponse({ type: RegionRecordResponse })
  @ApiProblems(400, 401, 403, 404)
  region(@Param('id', ObjectIdPipe) id: string): Promise<RegionRecordResponse> {
    return this.reference.region(id);
  }

  @Post('users/add')
  @HttpCode(201)
  @Roles('admin', 'assembly')
  @ApiTags('reference data')
  @ApiOperation({
    summary: 'Add an assembly user (admins anywhere; assembly admins in their own assembly, else 403 DUTY_NOT_ALLOWED)',
    description:
      'Admins add users to any assembly; assembly users to their own assembly only (422 OTHER_ASSEMBLY otherwise). ' +
      "An approver or admin an assembly admin adds awaits confirmation by a second person (POST /assembly/users/{id}/confirm) before it can act; the national admin's are confirmed at once (so the first admin of an assembly is made by the national admin). " +
      'A person has one account: an email or phone number another assembly user already holds is 409 ' +
      '(ASSEMBLY_USER_EMAIL_TAKEN, ASSEMBLY_USER_PHONE_TAKEN). Audited (assemblyUserCreated) with who created it.',
  })
  @ApiBody({ type: AddAssemblyUserBody })
  @ApiCreatedResponse({ type: AssemblyUserResponse })
  @ApiProblems(400, 401, 403, 409, 413, 415, 422)
  addUser(@Body() body: AddAssemblyUserBody, @CurrentPrincipal() p: Principal): Promise<AssemblyUserResponse> {
    const { assembly, ...rest } = body;
    return this.reference.addAssemblyUser({ ...rest, assemblyId: assembly }, actorOf(p));
  }

  @Get('users/:id')
  @Roles('admin', 'assembly')
  @ApiTags('reference data')
  @ApiOperation({
    summary: 'One assembly user',
    description:
      "Admins read any; an assembly key reads its own assembly's staff only: another assembly's user is a 404, like an unknown one.",
  })
  @ApiOkResponse({ type: AssemblyUserResponse })
  @ApiProblems(400, 401, 403, 404)
  user(@Param('id', ObjectIdPipe) id: string, @CurrentPrincipal() principal: Principal): Promise<AssemblyUserResponse> {
    return this.reference.assemblyUser(id, actorOf(principal));
  }

  @Post('users/:id/disable')
  @HttpCode(200)
  @Roles('admin', 'assembly')
  @ApiOperation({
    summary: 'Disable (off-board) an assembly user',
    description:
      "At once: the user's sessions end, their API keys stop working and sign-in is refused (403 ACCOUNT_DISABLED); unused password links are voided. " +
      "Admins disable anyone; assembly admins (duty manageAssemblyUsers, else 403 DUTY_NOT_ALLOWED) their own assembly's users (another's is 404); nobody disables themselves (422 CANNOT_DISABLE_SELF). " +
      'Disabling a disabled user changes nothing. Audited (AssemblyUserDisabled) with the actor. Re-enabling is the separate `enable`.',
  })
  @ApiOkResponse({ type: AssemblyUserResponse })
  @ApiProblems(400, 401, 403, 404, 422)
  disableUser(@Param('id', ObjectIdPipe) id: string, @CurrentPrincipal() p: Principal): Promise<AssemblyUserResponse> {
    return this.reference.disableAssemblyUser(id, actorOf(p));
  }

  @Post('users/:id/enable')
  @HttpCode(200)
  @Roles('admin', 'assembly')
  @ApiOperation({
    summary: 'Enable a disabled assembly user again',
    description:
      'Sign-in works again and the API keys not revoked meanwhile work again; ended sessions and voided links stay ended. Who may: as for `disable`. Audited (AssemblyUserEnabled).',
  })
  @ApiOkResponse({ type: AssemblyUserResponse })
  @ApiProblems(400, 401, 403, 404)
  enableUser(@Param('id', ObjectIdPipe) id: string, @CurrentPrincipal() p: Principal): Promise<AssemblyUserResponse> {
    return this.reference.enableAssemblyUser(id, actorOf(p));
  }

  @Post('users/:id/confirm')
  @HttpCode(200)
  @Roles('admin', 'assembly')
  @ApiOperation({
    summary: 'Confirm an approver or admin an assembly admin created (a second person)',
    description:
      'An approver or admin created by an assembly admin awaits confirmation (`awaitingConfirmation: true`): no sign-in (403 ACCOUNT_NOT_CONFIRMED), session or API key works until then. ' +
      "The national admin confirms any; an assembly admin (duty confirmAssemblyUsers, else 403 DUTY_NOT_ALLOWED) their own assembly's (another's is 404), never one they created themselves (422 ASSEMBLY_USER_CONFIRMER_IS_CREATOR). " +
      'Confirming an account that awaits nothing changes nothing. Audited (AssemblyUserConfirmed) with the actor.',
  })
  @ApiOkResponse({ type: AssemblyUserResponse })
  @ApiProblems(400, 401, 403, 404, 422)
  confirmUser(@Param('id', ObjectIdPipe) id: string, @CurrentPrincipal() p: Principal): Promise<AssemblyUserResponse> {
    return this.reference.confirmAssemblyUser(id, actorOf(p));
  }

  @Get(':id')
  @Roles('admin', 'assembly', 'merchant', 'platform')
  @ApiTags('reference data')
  @ApiOperation({ summary: 'One assembly, with its region' })
  @ApiOkResponse({ type: AssemblyResponse })
  @ApiProblems(400, 401, 403, 404)
  assembly(@Param('id', ObjectIdPipe) id: string): Promise<AssemblyResponse> {
    return this.reference.assembly(id);
  }
}
