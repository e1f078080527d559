import { AssemblyDoc, AssemblyUserDoc } from '../assembly/assembly.openapi';
import { MappingError } from '../persistence/mapping-error';
import { RegionRecordDoc, StationRecordDoc, UnionRecordDoc } from './management.openapi';
import { Body, Controller, Get, HttpCode, Inject, Param, Post } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { CommonErrors } from '@transport/domain';
import { toAssemblyResponse, toAssemblyUserResponse, toRegionResponse } from '../assembly/assembly.response';
import { addAssembly, addAssemblyUser, addRegion, addStation, addTransportUnion } from '../application/reference-use-cases';
import { REPOSITORIES, USE_CASE_PORTS } from '../api/tokens';
import type { UseCasePorts } from '../api/use-case-ports';
import { CurrentPrincipal, Roles } from '../auth/auth.decorators';
import { actorOf, type Principal } from '../auth/principal';
import { ApiProblems } from '../http/openapi';
import { ObjectIdPipe } from '../http/params';
import type { RepositoryBackendPorts } from '../persistence/repositories';
import { toStationResponse, toTransportUnionResponse } from '../vehicles/vehicle.response';
import { AddAssemblyBody, AddAssemblyUserBody, AddRegionBody, AddStationBody, AddUnionBody } from './management.dto';

interface Versioned {
  createdAt: Date;
  updatedAt: Date;
  version: number;
}
const withRecord = <T extends object>(body: T, s: Versioned) => ({ ...body, createdAt: s.createdAt.toISOString(), updatedAt: s.updatedAt.toISOString(), __v: s.version });

/** Reference data: regions, assemblies, assembly users, stations and transport unions. */
@ApiTags('reference data')
@ApiSecurity('apiKey')
@Controller()
export class ReferenceController {
  constructor(
    @Inject(REPOSITORIES) private readonly repos: RepositoryBackendPorts,
    @Inject(USE_CASE_PORTS) private readonly ports: UseCasePorts,
  ) {}

  private deps(): UseCasePorts {
    return this.ports;
  }

  private async regionOf(assemblyId: string, regionId: string) {
    const region = await this.repos.regions.findById(regionId);
    if (!region) throw new MappingError('assemblies', assemblyId, `region ${regionId} does not exist`);
    return region.toState();
  }

  @Post('assembly/regions/add')
  @HttpCode(201)
  @Roles('admin')
  @ApiOperation({ summary: 'Add a region' })
  @ApiCreatedResponse({ type: RegionRecordDoc })
  @ApiBody({ type: AddRegionBody })
  @ApiProblems(400, 401, 403, 409, 413, 415)
  async addRegion(@Body() body: AddRegionBody, @CurrentPrincipal() p: Principal) {
    const r = (await addRegion(this.deps(), body, actorOf(p))).toState();
    return withRecord(toRegionResponse(r), r);
  }

  @Get('assembly/regions/:id')
  @Roles('admin', 'assembly', 'merchant', 'platform')
  @ApiOperation({ summary: 'One region' })
  @ApiOkResponse({ type: RegionRecordDoc })
  @ApiProblems(400, 401, 403, 404)
  async region(@Param('id', ObjectIdPipe) id: string) {
    const r = (await this.repos.regions.findById(id))?.toState();
    if (!r) throw CommonErrors.notFound('region', id);
    return withRecord(toRegionResponse(r), r);
  }

  @Post('assembly/add')
  @HttpCode(201)
  @Roles('admin')
  @ApiOperation({ summary: 'Add an assembly' })
  @ApiCreatedResponse({ type: AssemblyDoc })
  @ApiBody({ type: AddAssemblyBody })
  @ApiProblems(400, 401, 403, 413, 415, 422)
  async addAssembly(@Body() body: AddAssemblyBody, @CurrentPrincipal() p: Principal) {
    const a = (await addAssembly(this.deps(), { name: body.name, regionId: body.region, digitalAddress: body.digitalAddress, type: body.type }, actorOf(p))).toState();
    return toAssemblyResponse(a, await this.regionOf(a.id, a.regionId));
  }

  @Post('assembly/users/add')
  @HttpCode(201)
  @Roles('admin', 'assembly')
  @ApiOperation({ summary: 'Add an assembly user', description: 'Admins add users to any assembly; assembly users to their own assembly only (422 OTHER_ASSEMBLY otherwise).' })
  @ApiBody({ type: AddAssemblyUserBody })
  @ApiCreatedResponse({ type: AssemblyUserDoc })
  @ApiProblems(400, 401, 403, 409, 413, 415, 422)
  async addUser(@Body() body: AddAssemblyUserBody, @CurrentPrincipal() p: Principal) {
    const { assembly, ...rest } = body;
    return toAssemblyUserResponse((await addAssemblyUser(this.deps(), { ...rest, assemblyId: assembly }, actorOf(p))).toState());
  }

  @Get('assembly/users/:id')
  @Roles('admin', 'assembly')
  @ApiOperation({ summary: 'One assembly user' })
  @ApiOkResponse({ type: AssemblyUserDoc })
  @ApiProblems(400, 401, 403, 404)
  async user(@Param('id', ObjectIdPipe) id: string) {
    const u = await this.repos.assemblyUsers.findById(id);
    if (!u) throw CommonErrors.notFound('assembly user', id);
    return toAssemblyUserResponse(u.toState());
  }

  @Get('assembly/:id')
  @Roles('admin', 'assembly', 'merchant', 'platform')
  @ApiOperation({ summary: 'One assembly, with its region' })
  @ApiOkResponse({ type: AssemblyDoc })
  @ApiProblems(400, 401, 403, 404)
  async assembly(@Param('id', ObjectIdPipe) id: string) {
    const a = (await this.repos.assemblies.findById(id))?.toState();
    if (!a) throw CommonErrors.notFound('assembly', id);
    return toAssemblyResponse(a, await this.regionOf(a.id, a.regionId));
  }

  @Post('stations/add')
  @HttpCode(201)
  @Roles('admin')
  @ApiOperation({ summary: 'Add a station' })
  @ApiCreatedResponse({ type: StationRecordDoc })
  @ApiBody({ type: AddStationBody })
  @ApiProblems(400, 401, 403, 413, 415, 422)
  async addStation(@Body() body: AddStationBody, @CurrentPrincipal() p: Principal) {
    const s = (await addStation(this.deps(), body, actorOf(p))).toState();
    return withRecord(toStationResponse(s), s);
  }

  @Get('stations/:id')
  @Roles('admin', 'assembly', 'merchant', 'platform')
  @ApiOperation({ summary: 'One station' })
  @ApiOkResponse({ type: StationRecordDoc })
  @ApiProblems(400, 401, 403, 404)
  async station(@Param('id', ObjectIdPipe) id: string) {
    const s = (await this.repos.stations.findById(id))?.toState();
    if (!s) throw CommonErrors.notFound('station', id);
    return withRecord(toStationResponse(s), s);
  }

  @Post('unions/add')
  @HttpCode(201)
  @Roles('admin')
  @ApiOperation({ summary: 'Add a transport union (or a branch of one)' })
  @ApiCreatedResponse({ type: UnionRecordDoc })
  @ApiBody({ type: AddUnionBody })
  @ApiProblems(400, 401, 403, 413, 415, 422)
  async addUnion(@Body() body: AddUnionBody, @CurrentPrincipal() p: Principal) {
    const { transportUnion, ...rest } = body;
    const u = (await addTransportUnion(this.deps(), { ...rest, parentUnionId: transportUnion }, actorOf(p))).toState();
    return withRecord(toTransportUnionResponse(u), u);
  }

  @Get('unions/:id')
  @Roles('admin', 'assembly', 'merchant', 'platform')
  @ApiOperation({ summary: 'One transport union' })
  @ApiOkResponse({ type: UnionRecordDoc })
  @ApiProblems(400, 401, 403, 404)
  async union(@Param('id', ObjectIdPipe) id: string) {
    const u = (await this.repos.unions.findById(id))?.toState();
    if (!u) throw CommonErrors.notFound('transport union', id);
    return withRecord(toTransportUnionResponse(u), u);
  }
}
