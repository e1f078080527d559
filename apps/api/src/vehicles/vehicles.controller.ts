import { Controller, DefaultValuePipe, Get, Inject, ParseIntPipe, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { Database } from '../database/database';
import { DATABASE } from '../database/database.module';
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
    const rows = await this.database.prisma.vehicle.findMany({
      take: Math.min(Math.max(limit, 1), 500),
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      include: { station: true, transportUnion: true },
    });
    return rows.map(toVehicleResponse);
  }
}
