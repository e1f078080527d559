import { Body, Controller, Get, HttpCode, Inject, Post, Query, Req, Res } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { registerVehicle } from '../application/registration';
import { listVehicles } from '../application/vehicle-queries';
import { REPOSITORIES, USE_CASE_PORTS } from '../api/tokens';
import type { UseCasePorts } from '../api/use-case-ports';
import { CurrentPrincipal, Roles } from '../auth/auth.decorators';
import { actorOf, type Principal } from '../auth/principal';
import { ApiProblems } from '../http/openapi';
import { setNextLink } from '../http/paging';
import { DEFAULT_LIMIT, toBoolean } from '../http/query-values';
import { toOwnerResponse, type OwnerResponse } from '../owners/owner.response';
import type { RepositoryBackendPorts } from '../persistence/repositories';
import { AddVehicleBody, ListVehiclesQuery, OwnerListQuery, OwnerSearchQuery } from './vehicle.dto';
import { OwnerResponseDoc, VehicleResponseDoc } from './vehicle.openapi';
import { toVehicleResponse, type VehicleResponse } from './vehicle.response';
import { normalizeRegistrationNumber } from '@transport/domain';

@ApiTags('vehicles')
@Controller('vehicles')
export class VehiclesController {
  constructor(
    @Inject(REPOSITORIES) private readonly repos: RepositoryBackendPorts,
    @Inject(USE_CASE_PORTS) private readonly ports: UseCasePorts,
  ) {}

  @Get('all')
  @ApiSecurity({})
  @ApiOperation({
    summary: 'List vehicles (operation 1)',
    description:
      'Open to anonymous callers, as documented. Newest first (createdAt, then _id). Without filters, every vehicle, inspected or not, up to `limit`. ' +
      'When more exist, a `Link: <...>; rel="next"` header gives the next page (an `after` cursor); the body stays a plain array.',
  })
  @ApiOkResponse({ description: 'A JSON array of Vehicle objects.', type: VehicleResponseDoc, isArray: true })
  @ApiProblems(400)
  async list(@Query() query: ListVehiclesQuery, @Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<VehicleResponse[]> {
    let registrationNumber: string | undefined;
    if (query.registrationNumber !== undefined) {
      try {
        registrationNumber = normalizeRegistrationNumber(query.registrationNumber);
      } catch {
        registrationNumber = query.registrationNumber; // a malformed number matches nothing
      }
    }
    const result = await listVehicles(
      this.repos,
      { inspected: toBoolean(query.inspected), registrationNumber, driverId: query.driver, ownerId: query.ownerID },
      { limit: query.limit ?? DEFAULT_LIMIT, after: query.after },
    );
    setNextLink(req, res, result.page);
    return result.page.items.map((v) => toVehicleResponse(v.toState(), result));
  }

  @Post('add')
  @HttpCode(201)
  @Roles('admin', 'assembly')
  @ApiSecurity('apiKey')
  @ApiOperation({
    summary: 'Register a vehicle (operation 2)',
    description:
      'Registers a vehicle of an existing owner. It starts uninspected and unapproved; fields the server owns ' +
      '(_id, inspected, approved, approvedBy, inspectedBy, dateApproved, dateInspected, inspectionChecklist, station, transportUnion, driver, __v) are refused with 400. ' +
      'An ownerID that names no owner is a 422 (OWNER_NOT_FOUND); a registration number already in use is a 409 (VEHICLE_REGISTRATION_TAKEN).',
  })
  @ApiBody({ type: AddVehicleBody })
  @ApiCreatedResponse({ description: 'The created Vehicle.', type: VehicleResponseDoc })
  @ApiProblems(400, 401, 403, 409, 413, 415, 422)
  async add(@Body() body: AddVehicleBody, @CurrentPrincipal() principal: Principal): Promise<VehicleResponse> {
    const { ownerID, ...fields } = body;
    const vehicle = await registerVehicle(
      this.ports,
      { ownerId: ownerID, ...fields },
      actorOf(principal),
    );
    return toVehicleResponse(vehicle.toState(), { stations: new Map(), unions: new Map() });
  }

  @Get('owner/all')
  @Roles('admin', 'assembly')
  @ApiSecurity('apiKey')
  @ApiOperation({ summary: 'List vehicle owners (operation 3)', description: 'Newest first; `limit` (default 50, at most 500) and an `after` cursor with a `Link` header, as for vehicles.' })
  @ApiOkResponse({ description: 'A JSON array of owners.', type: OwnerResponseDoc, isArray: true })
  @ApiProblems(400, 401, 403)
  async owners(@Query() query: OwnerListQuery, @Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<OwnerResponse[]> {
    const page = await this.repos.owners.list({ limit: query.limit ?? DEFAULT_LIMIT, after: query.after });
    setNextLink(req, res, page);
    return page.items.map((o) => toOwnerResponse(o.toState()));
  }

  @Get('owner/search')
  @Roles('admin', 'assembly')
  @ApiSecurity('apiKey')
  @ApiOperation({
    summary: 'Search vehicle owners (operation 4)',
    description: 'Case-insensitive substring match on name, phone (0244123456 and +233244123456 are the same number) or email. Newest first; a JSON array of owners (empty when none match).',
  })
  @ApiOkResponse({ description: 'A JSON array of matching owners.', type: OwnerResponseDoc, isArray: true })
  @ApiProblems(400, 401, 403)
  async search(@Query() query: OwnerSearchQuery, @Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<OwnerResponse[]> {
    const page = await this.repos.owners.search(query.query, { limit: query.limit ?? DEFAULT_LIMIT, after: query.after });
    setNextLink(req, res, page);
    return page.items.map((o) => toOwnerResponse(o.toState()));
  }
}
