import { ComplianceEntryDoc } from './management.openapi';
import { Body, Controller, Get, Headers, HttpCode, Inject, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiBody, ApiHeader, ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { CommonErrors, type Vehicle } from '@transport/domain';
import { addOwner, verifyOwner } from '../application/reference-use-cases';
import { approveVehicle, inspectVehicle, linkVehicle } from '../application/vehicle-use-cases';
import { linkedRecords } from '../application/vehicle-queries';
import { APP_CONFIG, REPOSITORIES, USE_CASE_PORTS } from '../api/tokens';
import type { UseCasePorts } from '../api/use-case-ports';
import { CurrentPrincipal, Roles } from '../auth/auth.decorators';
import { actorOf, type Principal } from '../auth/principal';
import type { AppConfig } from '../config';
import { endOfDayAfter } from '../http/date-range';
import { ApiProblems } from '../http/openapi';
import { setNextLink } from '../http/paging';
import { expectedVersion, ObjectIdPipe } from '../http/params';
import { toOwnerResponse, type OwnerResponse } from '../owners/owner.response';
import type { RepositoryBackendPorts } from '../persistence/repositories';
import { OwnerResponseDoc, VehicleResponseDoc } from '../vehicles/vehicle.openapi';
import { toVehicleResponse, type VehicleResponse } from '../vehicles/vehicle.response';
import { AddOwnerBody, ComplianceQuery, InspectBody, LinkBody } from './management.dto';

const IF_MATCH = { name: 'If-Match', required: false, description: 'The revision (__v) the client last saw; a newer one makes the request a 409.' };

export interface ComplianceEntry {
  vehicle: VehicleResponse;
  reasons: Array<{ code: string; date?: string; items?: string[] }>;
}

@ApiTags('vehicles (management)')
@ApiSecurity('apiKey')
@Controller('vehicles')
export class VehiclesManagementController {
  constructor(
    @Inject(REPOSITORIES) private readonly repos: RepositoryBackendPorts,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(USE_CASE_PORTS) private readonly ports: UseCasePorts,
  ) {}

  private deps(): UseCasePorts {
    return this.ports;
  }

  private async respond(vehicle: Vehicle): Promise<VehicleResponse> {
    return toVehicleResponse(vehicle.toState(), await linkedRecords(this.repos, [vehicle]));
  }

  @Post('owner/add')
  @HttpCode(201)
  @Roles('admin', 'assembly')
  @ApiOperation({ summary: 'Register a vehicle owner', description: 'Starts unverified. Phone stored as +233XXXXXXXXX, email lower-cased.' })
  @ApiBody({ type: AddOwnerBody })
  @ApiOkResponse({ type: OwnerResponseDoc })
  @ApiProblems(400, 401, 403, 413, 415)
  async addOwner(@Body() body: AddOwnerBody, @CurrentPrincipal() principal: Principal): Promise<OwnerResponse> {
    return toOwnerResponse((await addOwner(this.deps(), body, actorOf(principal))).toState());
  }

  @Post('owner/:id/verify')
  @HttpCode(200)
  @Roles('admin', 'assembly')
  @ApiHeader(IF_MATCH)
  @ApiOperation({ summary: 'Mark an owner verified (identity document checked)', description: 'Verifying twice is a 409 (OWNER_ALREADY_VERIFIED).' })
  @ApiOkResponse({ type: OwnerResponseDoc })
  @ApiProblems(400, 401, 403, 404, 409)
  async verifyOwner(@Param('id', ObjectIdPipe) id: string, @Headers('if-match') ifMatch: string | undefined, @CurrentPrincipal() principal: Principal): Promise<OwnerResponse> {
    return toOwnerResponse((await verifyOwner(this.deps(), id, actorOf(principal), expectedVersion(ifMatch))).toState());
  }

  @Get('compliance')
  @Roles('admin', 'assembly')
  @ApiOperation({
    summary: 'Vehicles whose roadworthy or insurance certificate has expired or expires soon',
    description:
      'Lists vehicles with a certificate ending by the end of the day `within` days from today (in TZ_DEFAULT), newest first, each with its reasons: ' +
      'ROADWORTHY_EXPIRED / INSURANCE_EXPIRED (already ended) or ROADWORTHY_EXPIRING / INSURANCE_EXPIRING (ends within the window), plus NOT_APPROVED and CHECKLIST_FAILED when they apply.',
  })
  @ApiOkResponse({ type: ComplianceEntryDoc, isArray: true })
  @ApiProblems(400, 401, 403)
  async compliance(@Query() query: ComplianceQuery, @Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<ComplianceEntry[]> {
    const now = this.ports.clock.now();
    const horizon = endOfDayAfter(now, query.within ?? 30, this.config.timeZone);
    const page = await this.repos.vehicles.listCertificatesEndingBy(new Date(horizon.getTime() - 1), { limit: query.limit ?? 50, after: query.after });
    setNextLink(req, res, page);
    const links = await linkedRecords(this.repos, page.items);
    return page.items.map((vehicle) => ({
      vehicle: toVehicleResponse(vehicle.toState(), links),
      reasons: vehicle.complianceOutlook(now, horizon).map((reason) => {
        if ('since' in reason) return { code: reason.code, date: reason.since.toISOString() };
        if ('on' in reason) return { code: reason.code, date: reason.on.toISOString() };
        if ('items' in reason) return { code: reason.code, items: reason.items };
        return { code: reason.code };
      }),
    }));
  }

  @Get(':id')
  @Roles('admin', 'assembly', 'platform')
  @ApiOperation({ summary: 'One vehicle' })
  @ApiOkResponse({ type: VehicleResponseDoc })
  @ApiProblems(400, 401, 403, 404)
  async one(@Param('id', ObjectIdPipe) id: string): Promise<VehicleResponse> {
    const vehicle = await this.repos.vehicles.findById(id);
    if (!vehicle) throw CommonErrors.notFound('vehicle', id);
    return this.respond(vehicle);
  }

  @Post(':id/inspect')
  @HttpCode(200)
  @Roles('assembly')
  @ApiHeader(IF_MATCH)
  @ApiOperation({
    summary: 'Record an inspection (inspectedBy is the caller)',
    description: 'All ten items as booleans (missing or extra items: 400). A failed item is recorded; an approved vehicle that fails loses its approval (and its driver).',
  })
  @ApiBody({ type: InspectBody })
  @ApiOkResponse({ type: VehicleResponseDoc })
  @ApiProblems(400, 401, 403, 404, 409, 413, 415)
  async inspect(@Param('id', ObjectIdPipe) id: string, @Body() body: InspectBody, @Headers('if-match') ifMatch: string | undefined, @CurrentPrincipal() principal: Principal): Promise<VehicleResponse> {
    return this.respond(await inspectVehicle(this.deps(), id, body.inspectionChecklist, actorOf(principal), expectedVersion(ifMatch)));
  }

  @Post(':id/approve')
  @HttpCode(200)
  @Roles('assembly')
  @ApiHeader(IF_MATCH)
  @ApiOperation({
    summary: 'Approve a vehicle (approvedBy is the caller)',
    description:
      'Only an inspected vehicle with every item passed, a registration number, and roadworthy and insurance certificates valid now. Refusals are 422 with the domain code ' +
      '(VEHICLE_NOT_INSPECTED, VEHICLE_INSPECTION_FAILED, VEHICLE_ROADWORTHY_EXPIRED, ...); approving an approved vehicle, or losing a race with another approval, is 409.',
  })
  @ApiOkResponse({ type: VehicleResponseDoc })
  @ApiProblems(400, 401, 403, 404, 409, 422)
  async approve(@Param('id', ObjectIdPipe) id: string, @Headers('if-match') ifMatch: string | undefined, @CurrentPrincipal() principal: Principal): Promise<VehicleResponse> {
    return this.respond(await approveVehicle(this.deps(), id, actorOf(principal), expectedVersion(ifMatch)));
  }

  @Post(':id/link')
  @HttpCode(200)
  @Roles('admin', 'assembly')
  @ApiHeader(IF_MATCH)
  @ApiOperation({
    summary: 'Link a driver, a station and/or a transport union',
    description: 'driver: only to an approved vehicle, and only an approved, activated driver (null unlinks). station: an id, or null to unlink. Unknown ids are 422.',
  })
  @ApiBody({ type: LinkBody })
  @ApiOkResponse({ type: VehicleResponseDoc })
  @ApiProblems(400, 401, 403, 404, 409, 413, 415, 422)
  async link(@Param('id', ObjectIdPipe) id: string, @Body() body: LinkBody, @Headers('if-match') ifMatch: string | undefined, @CurrentPrincipal() principal: Principal): Promise<VehicleResponse> {
    return this.respond(await linkVehicle(this.deps(), id, body, actorOf(principal), expectedVersion(ifMatch)));
  }
}
