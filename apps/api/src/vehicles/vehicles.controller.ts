import { Controller, DefaultValuePipe, Get, Inject, ParseIntPipe, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { listVehicles } from '../application/vehicle-queries';
import type { Database } from '../database/database';
import { DATABASE } from '../database/database.module';
import { prismaRepositories } from '../persistence/prisma-repositories';
import { toVehicleResponse, type VehicleResponse } from './vehicle.response';

@ApiTags('vehicles')
@Controller('vehicles')
export class VehiclesController {
  constructor(@Inject(DATABASE) private readonly database: Database) {}

  @Get('all')
  @ApiOperation({ summary: 'List vehicles, newest first (createdAt, then _id)' })
  @ApiQuery({ name: 'limit', required: false, description: 'How many vehicles to return (default 50).' })
  @ApiOkResponse({ description: 'A JSON array of Vehicle objects.' })
  async list(@Query('limit', new DefaultValuePipe(50), ParseIntPipe) limit: number): Promise<VehicleResponse[]> {
    const result = await listVehicles(prismaRepositories(this.database.prisma), {}, { limit: Math.min(Math.max(limit, 1), 500) });
    return result.page.items.map((v) => toVehicleResponse(v.toState(), result));
  }
}
