import { Controller, Get, Inject, Query, Req, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';
import type { Request, Response } from 'express';
import { APP_CONFIG, REPOSITORIES } from '../api/tokens';
import { Roles } from '../auth/auth.decorators';
import type { AppConfig } from '../config';
import { parseDateRange } from '../http/date-range';
import { ApiProblems } from '../http/openapi';
import { setNextLink } from '../http/paging';
import { DEFAULT_LIMIT, IdParam, LimitParam } from '../http/query-values';
import type { RepositoryBackendPorts } from '../persistence/repositories';
import { TripDoc } from './trip.openapi';
import { toTripResponse, type TripResponse } from './trip.response';

export class TripsByDateQuery {
  @ApiProperty({ description: 'YYYY-MM-DD (a day in TZ_DEFAULT, Africa/Accra by default) or an ISO 8601 date-time.', example: '2026-11-01' })
  @IsString()
  @MaxLength(40)
  startDate!: string;

  @ApiProperty({ description: 'YYYY-MM-DD (the whole day is included) or an ISO 8601 date-time (included). At most 366 days after startDate.', example: '2026-11-30' })
  @IsString()
  @MaxLength(40)
  endDate!: string;

  @LimitParam() limit?: number;
  @IdParam('Cursor: the `_id` of the last trip of the previous page.') after?: string;
}

@ApiTags('trips')
@ApiSecurity('apiKey')
@Controller('trips')
export class TripsController {
  constructor(
    @Inject(REPOSITORIES) private readonly repos: RepositoryBackendPorts,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get('intracity/date')
  @Roles('admin', 'assembly')
  @ApiOperation({
    summary: 'Intracity trips by date (operation 10)',
    description:
      'Trips created in the range, newest first. A date-only endDate includes that whole day (a trip at 23:59 is in, one at 00:00 the next day is not); ' +
      'dates are read in TZ_DEFAULT. startDate after endDate, an invalid date, or a range over 366 days is a 400. `limit`/`after` paging with a `Link` header.',
  })
  @ApiOkResponse({ type: TripDoc, isArray: true })
  @ApiProblems(400, 401, 403)
  async byDate(@Query() query: TripsByDateQuery, @Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<TripResponse[]> {
    const range = parseDateRange(query.startDate, query.endDate, this.config.timeZone);
    const page = await this.repos.trips.listCreatedBetween(range, { limit: query.limit ?? DEFAULT_LIMIT, after: query.after });
    setNextLink(req, res, page);
    return page.items.map((t) => toTripResponse(t.toState()));
  }
}
