import { Body, Controller, Get, HttpCode, Inject, Post, Query, Req, Res } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import type { VehicleOwnerState } from '@transport/domain';
import { ANONYMOUS_ACTOR } from '../application/audit-log';
import { registerDriver } from '../application/registration';
import { REPOSITORIES, USE_CASE_PORTS } from '../api/tokens';
import type { UseCasePorts } from '../api/use-case-ports';
import { unauthorized } from '../auth/api-key.guard';
import { CurrentPrincipal, OptionalAuth } from '../auth/auth.decorators';
import { actorOf, type Principal } from '../auth/principal';
import { ApiProblems } from '../http/openapi';
import { setNextLink } from '../http/paging';
import { DEFAULT_LIMIT, toBoolean } from '../http/query-values';
import type { RepositoryBackendPorts } from '../persistence/repositories';
import { AddDriverBody, ListDriversQuery } from './driver.dto';
import { DriverCreatedDoc, DriverListDoc } from './driver.openapi';
import { toDriverResponse, type DriverResponse } from './driver.response';

@ApiTags('drivers')
@Controller('drivers')
export class DriversController {
  constructor(
    @Inject(REPOSITORIES) private readonly repos: RepositoryBackendPorts,
    @Inject(USE_CASE_PORTS) private readonly ports: UseCasePorts,
  ) {}

  @Get('all')
  @OptionalAuth()
  @ApiSecurity('apiKey')
  @ApiSecurity({})
  @ApiOperation({
    summary: 'List drivers (operation 5)',
    description:
      'Open to anonymous callers, as documented, but they never see personal data: phone, email, licence number, id number and wallet account ' +
      '(of the driver and of the embedded owner) are left out, and the `email` filter needs an API key (401 without). With any valid key the full objects are returned. ' +
      'The activation key never appears here. Newest first; `limit` (default 50, at most 500) and an `after` cursor with a `Link` header.',
  })
  @ApiOkResponse({ description: '`{ "status": 200, "payload": [Driver...] }`', type: DriverListDoc })
  @ApiProblems(400, 401)
  async list(
    @Query() query: ListDriversQuery,
    @CurrentPrincipal() principal: Principal | undefined,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<{ status: number; payload: DriverResponse[] }> {
    if (query.email !== undefined && !principal) throw unauthorized('Filtering drivers by email needs an API key');
    const page = await this.repos.drivers.list({ approved: toBoolean(query.approved), email: query.email }, { limit: query.limit ?? DEFAULT_LIMIT, after: query.after });
    const states = page.items.map((d) => d.toState());
    const ownerIds = [...new Set(states.flatMap((s) => (s.ownerId ? [s.ownerId] : [])))];
    const owners = new Map<string, VehicleOwnerState>((await this.repos.owners.findByIds(ownerIds)).map((o) => [o.id, o.toState()]));
    setNextLink(req, res, page);
    return {
      status: 200,
      payload: states.map((s) => toDriverResponse(s, s.ownerId ? owners.get(s.ownerId) : undefined, { anonymous: !principal })),
    };
  }

  @Post('add')
  @HttpCode(201)
  @OptionalAuth()
  @ApiSecurity('apiKey')
  @ApiSecurity({})
  @ApiOperation({
    summary: 'Register a driver (operation 6)',
    description:
      'Drivers register themselves from the platform app, so no API key is needed (one, if sent, must be valid). The driver starts unapproved and unverified; ' +
      'the response carries a six-digit `activationKey` this once (only its hash is kept): the driver activates the account with it, and an assembly approves the driver. ' +
      'An email already registered is a 409 (DRIVER_EMAIL_TAKEN); an ownerID that names no owner is a 422 (OWNER_NOT_FOUND).',
  })
  @ApiBody({ type: AddDriverBody })
  @ApiCreatedResponse({ description: '`{ "status": 201, "payload": Driver }` with `payload.activationKey`.', type: DriverCreatedDoc })
  @ApiProblems(400, 401, 409, 413, 415, 422)
  async add(@Body() body: AddDriverBody, @CurrentPrincipal() principal: Principal | undefined): Promise<{ status: number; payload: DriverResponse }> {
    const { ownerID, ...fields } = body;
    const { driver, activationKey } = await registerDriver(
      this.ports,
      { ...fields, ownerId: ownerID },
      principal ? actorOf(principal) : ANONYMOUS_ACTOR,
    );
    const state = driver.toState();
    const owner = state.ownerId ? await this.repos.owners.findById(state.ownerId) : undefined;
    return { status: 201, payload: toDriverResponse(state, owner?.toState(), { anonymous: false, activationKey }) };
  }
}
