import { Body, Controller, Get, Headers, HttpCode, Inject, Param, Post, Req } from '@nestjs/common';
import { ApiBody, ApiHeader, ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { CommonErrors, type Driver } from '@transport/domain';
import { ANONYMOUS_ACTOR } from '../application/audit-log';
import { activateDriver, approveDriver, reissueActivationKey, revokeDriver, setDriverStatus } from '../application/driver-use-cases';
import { REPOSITORIES, USE_CASE_PORTS } from '../api/tokens';
import type { UseCasePorts } from '../api/use-case-ports';
import { CurrentPrincipal, OptionalAuth, Roles } from '../auth/auth.decorators';
import { actorOf, type Principal } from '../auth/principal';
import { DriverDoc } from '../drivers/driver.openapi';
import { toDriverResponse, type DriverResponse } from '../drivers/driver.response';
import { ApiProblems } from '../http/openapi';
import { expectedVersion, ObjectIdPipe } from '../http/params';
import { RateLimiter } from '../http/rate-limiter';
import type { RepositoryBackendPorts } from '../persistence/repositories';
import { ActivateBody, ApproveDriverBody, DriverStatusBody, RevokeBody } from './management.dto';

const IF_MATCH = { name: 'If-Match', required: false, description: 'The revision (__v) the client last saw; a newer one makes the request a 409.' };

@ApiTags('drivers (management)')
@Controller('drivers')
export class DriversManagementController {
  // Per driver and per client address: 10 attempts a quarter hour each, in front of the domain's five-wrong-keys lock.
  private readonly perDriver = new RateLimiter(10, 15 * 60_000);
  private readonly perAddress = new RateLimiter(30, 15 * 60_000);

  constructor(
    @Inject(REPOSITORIES) private readonly repos: RepositoryBackendPorts,
    @Inject(USE_CASE_PORTS) private readonly ports: UseCasePorts,
  ) {}

  private deps(): UseCasePorts {
    return this.ports;
  }

  private async respond(driver: Driver, activationKey?: string): Promise<DriverResponse> {
    const state = driver.toState();
    const owner = state.ownerId ? await this.repos.owners.findById(state.ownerId) : undefined;
    return toDriverResponse(state, owner?.toState(), { anonymous: false, activationKey });
  }

  @Get(':id')
  @Roles('admin', 'assembly', 'platform')
  @ApiSecurity('apiKey')
  @ApiOperation({ summary: 'One driver (never the activation key)' })
  @ApiOkResponse({ type: DriverDoc })
  @ApiProblems(400, 401, 403, 404)
  async one(@Param('id', ObjectIdPipe) id: string): Promise<DriverResponse> {
    const driver = await this.repos.drivers.findById(id);
    if (!driver) throw CommonErrors.notFound('driver', id);
    return this.respond(driver);
  }

  @Post(':id/activate')
  @HttpCode(200)
  @OptionalAuth()
  @ApiSecurity({})
  @ApiOperation({
    summary: "The driver's own step: activate the account with the six-digit key",
    description:
      'No API key needed (the key is the credential). A wrong key is 422 DRIVER_ACTIVATION_KEY_INVALID and counts: after five, DRIVER_ACTIVATION_LOCKED until an assembly reissues a key. ' +
      'Attempts are also rate-limited per driver and per client address (429 with Retry-After).',
  })
  @ApiBody({ type: ActivateBody })
  @ApiOkResponse({ type: DriverDoc })
  @ApiProblems(400, 404, 409, 413, 415, 422)
  async activate(@Param('id', ObjectIdPipe) id: string, @Body() body: ActivateBody, @Req() req: Request, @CurrentPrincipal() principal: Principal | undefined): Promise<DriverResponse> {
    this.perDriver.hit(id);
    this.perAddress.hit(req.ip ?? 'unknown');
    return this.respond(await activateDriver(this.deps(), id, body.activationKey, principal ? actorOf(principal) : ANONYMOUS_ACTOR));
  }

  @Post(':id/approve')
  @HttpCode(200)
  @Roles('assembly')
  @ApiSecurity('apiKey')
  @ApiHeader(IF_MATCH)
  @ApiOperation({
    summary: 'Approve a driver at the assembly dashboard (approvedBy is the caller)',
    description: 'All four checks must be true and the licence valid: otherwise 422 (DRIVER_CHECKLIST_FAILED, DRIVER_LICENSE_EXPIRED). Approving twice, or losing a race, is 409.',
  })
  @ApiBody({ type: ApproveDriverBody })
  @ApiOkResponse({ type: DriverDoc })
  @ApiProblems(400, 401, 403, 404, 409, 413, 415, 422)
  async approve(@Param('id', ObjectIdPipe) id: string, @Body() body: ApproveDriverBody, @Headers('if-match') ifMatch: string | undefined, @CurrentPrincipal() principal: Principal): Promise<DriverResponse> {
    return this.respond(await approveDriver(this.deps(), id, body.approvalChecklist, actorOf(principal), expectedVersion(ifMatch)));
  }

  @Post(':id/revoke')
  @HttpCode(200)
  @Roles('assembly')
  @ApiSecurity('apiKey')
  @ApiHeader(IF_MATCH)
  @ApiOperation({ summary: 'Withdraw approval, with a reason (takes the driver offline)' })
  @ApiBody({ type: RevokeBody })
  @ApiOkResponse({ type: DriverDoc })
  @ApiProblems(400, 401, 403, 404, 409, 413, 415, 422)
  async revoke(@Param('id', ObjectIdPipe) id: string, @Body() body: RevokeBody, @Headers('if-match') ifMatch: string | undefined, @CurrentPrincipal() principal: Principal): Promise<DriverResponse> {
    return this.respond(await revokeDriver(this.deps(), id, body.reason, actorOf(principal), expectedVersion(ifMatch)));
  }

  @Post(':id/status')
  @HttpCode(200)
  @Roles('admin', 'platform')
  @ApiSecurity('apiKey')
  @ApiHeader(IF_MATCH)
  @ApiOperation({
    summary: 'Report a driver online/offline and busy/free',
    description: 'Online needs an approved, activated driver (422 otherwise); busy needs online; going offline while busy is 422 DRIVER_BUSY. Reporting the current state changes nothing.',
  })
  @ApiBody({ type: DriverStatusBody })
  @ApiOkResponse({ type: DriverDoc })
  @ApiProblems(400, 401, 403, 404, 409, 413, 415, 422)
  async status(@Param('id', ObjectIdPipe) id: string, @Body() body: DriverStatusBody, @Headers('if-match') ifMatch: string | undefined, @CurrentPrincipal() principal: Principal): Promise<DriverResponse> {
    return this.respond(await setDriverStatus(this.deps(), id, body, actorOf(principal), expectedVersion(ifMatch)));
  }

  @Post(':id/activation-key')
  @HttpCode(200)
  @Roles('admin', 'assembly')
  @ApiSecurity('apiKey')
  @ApiOperation({ summary: 'Issue a new activation key (lifts the lock); returned this once as activationKey' })
  @ApiOkResponse({ type: DriverDoc })
  @ApiProblems(400, 401, 403, 404, 409)
  async reissue(@Param('id', ObjectIdPipe) id: string, @CurrentPrincipal() principal: Principal): Promise<DriverResponse> {
    const { driver, activationKey } = await reissueActivationKey(this.deps(), id, actorOf(principal));
    return this.respond(driver, activationKey);
  }
}
