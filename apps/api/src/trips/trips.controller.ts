import {
  Body,
  Controller,
  Get,
  Headers,
  HttpCode,
  Inject,
  Param,
  Post,
  Query,
  Req,
  Res,
  StreamableFile,
} from '@nestjs/common';
import { listOrCsv } from '../core/http/csv-export';
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
import { geoPoint, moneyFromCedis } from '@transport/domain';
import type { AppConfig } from '../config';
import { CurrentPrincipal, Roles } from '../core/auth/auth.decorators';
import { actorOf, type Principal } from '../core/auth/principal';
import { parseDateRange } from '../core/http/date-range';
import { IF_MATCH } from '../core/http/dto-support';
import { ApiListOrCsv, ApiProblems } from '../core/http/openapi';
import { View } from '../core/http/view.interceptor';
import { expectedVersion, ObjectIdPipe } from '../core/http/params';
import { APP_CONFIG } from '../core/tokens';
import {
  AddTripBody,
  CheckoutBody,
  EndTripBody,
  RefundBody,
  SettleBody,
  TRIP_CSV,
  TripResponse,
  TripsByDateQuery,
  type PointBody,
} from './trips.dto';
import { TripsService } from './trips.service';

const point = (p: PointBody, field: string) => geoPoint(p.coordinates[0], p.coordinates[1], field);

@ApiTags('trips')
@ApiSecurity('apiKey')
@Controller('trips')
export class TripsController {
  constructor(
    private readonly trips: TripsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get('intracity/date')
  @Roles('admin', 'assembly')
  @ApiOperation({
    summary: 'Intracity trips by date (operation 10)',
    description:
      "Trips created in the range, newest first; for an assembly key, its assembly's trips only (a trip belongs to its vehicle's assembly when recorded). A date-only endDate includes that whole day (a trip at 23:59 is in, one at 00:00 the next day is not); " +
      'dates are read in TZ_DEFAULT. startDate after endDate, an invalid date, or a range over 366 days is a 400. `limit`/`after` paging with a `Link` header.',
  })
  @View('trip')
  @ApiListOrCsv(TripResponse, TRIP_CSV)
  @ApiProblems(400, 401, 403)
  async byDate(
    @Query() query: TripsByDateQuery,
    @CurrentPrincipal() principal: Principal,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) res: FastifyReply,
  ): Promise<TripResponse[] | StreamableFile> {
    const range = parseDateRange(query.startDate, query.endDate, this.config.timeZone);
    return listOrCsv(req, res, TRIP_CSV, query, (page) =>
      this.trips.listCreatedBetween(range, page, actorOf(principal)),
    );
  }

  @Post('intracity/add')
  @HttpCode(201)
  @Roles('admin', 'platform')
  @ApiTags('trips (management)')
  @ApiOperation({
    summary: 'Record a trip, with a snapshot of its driver, vehicle and pricing',
    description:
      'The vehicle must be approved and linked to the driver, who must be approved and activated (422 otherwise). Prices in cedis.',
  })
  @ApiBody({ type: AddTripBody })
  @View('trip')
  @ApiCreatedResponse({ type: TripResponse })
  @ApiProblems(400, 401, 403, 409, 413, 415, 422)
  add(@Body() body: AddTripBody, @CurrentPrincipal() p: Principal): Promise<TripResponse> {
    return this.trips.add(
      {
        ticketNumber: body.ticketNumber,
        serviceID: body.serviceID,
        serviceType: body.serviceType,
        driverId: body.driver,
        vehicleId: body.vehicle,
        pricing: {
          type: body.pricing.type,
          pricePerKm: moneyFromCedis(body.pricing.pricePerKm, 'pricing.pricePerKm', 2),
          pricePerMinute: moneyFromCedis(body.pricing.pricePerMinute, 'pricing.pricePerMinute', 2),
        },
        passengers: body.passengers,
        user: body.user,
        pickupLocation: point(body.pickupLocation, 'pickupLocation'),
        serviceDestination: point(body.serviceDestination, 'serviceDestination'),
        estimatedDistance: body.estimatedDistance,
        estimatedMinutes: body.estimatedMinutes,
        paymentMethod: body.paymentMethod,
      },
      actorOf(p),
    );
  }

  @Get(':id')
  @Roles('admin', 'platform')
  @ApiTags('trips (management)')
  @ApiOperation({ summary: 'One trip' })
  @View('trip')
  @ApiOkResponse({ type: TripResponse })
  @ApiProblems(400, 401, 403, 404)
  one(@Param('id', ObjectIdPipe) id: string): Promise<TripResponse> {
    return this.trips.get(id);
  }

  @Post(':id/end')
  @HttpCode(200)
  @Roles('admin', 'platform')
  @ApiTags('trips (management)')
  @ApiHeader(IF_MATCH)
  @ApiOperation({ summary: 'End the trip: the final price from the final distance and duration (once)' })
  @ApiBody({ type: EndTripBody })
  @View('trip')
  @ApiOkResponse({ type: TripResponse })
  @ApiProblems(400, 401, 403, 404, 409, 413, 415, 422)
  end(
    @Param('id', ObjectIdPipe) id: string,
    @Body() b: EndTripBody,
    @Headers('if-match') ifMatch: string | undefined,
    @CurrentPrincipal() p: Principal,
  ): Promise<TripResponse> {
    const input = {
      finalDistance: b.finalDistance,
      durationMinutes: b.durationMinutes,
      discount: moneyFromCedis(b.discount ?? 0, 'discount', 2),
      charges: moneyFromCedis(b.charges ?? 0, 'charges', 2),
    };
    return this.trips.end(id, input, actorOf(p), expectedVersion(ifMatch));
  }

  @Post(':id/checkout')
  @HttpCode(200)
  @Roles('admin', 'platform')
  @ApiTags('trips (management)')
  @ApiHeader(IF_MATCH)
  @ApiOperation({ summary: 'Check the passenger out where they were dropped off (once, after the end)' })
  @ApiBody({ type: CheckoutBody })
  @View('trip')
  @ApiOkResponse({ type: TripResponse })
  @ApiProblems(400, 401, 403, 404, 409, 413, 415, 422)
  checkout(
    @Param('id', ObjectIdPipe) id: string,
    @Body() b: CheckoutBody,
    @Headers('if-match') ifMatch: string | undefined,
    @CurrentPrincipal() p: Principal,
  ): Promise<TripResponse> {
    return this.trips.checkOut(
      id,
      point(b.droppedOffLocation, 'droppedOffLocation'),
      actorOf(p),
      expectedVersion(ifMatch),
    );
  }

  @Post(':id/settle')
  @HttpCode(200)
  @Roles('admin', 'platform')
  @ApiTags('trips (management)')
  @ApiHeader(IF_MATCH)
  @ApiOperation({
    summary: 'Settle the trip, once, for exactly the amount due (422 TRIP_SETTLEMENT_MISMATCH otherwise)',
  })
  @ApiBody({ type: SettleBody })
  @View('trip')
  @ApiOkResponse({ type: TripResponse })
  @ApiProblems(400, 401, 403, 404, 409, 413, 415, 422)
  settle(
    @Param('id', ObjectIdPipe) id: string,
    @Body() b: SettleBody,
    @Headers('if-match') ifMatch: string | undefined,
    @CurrentPrincipal() p: Principal,
  ): Promise<TripResponse> {
    return this.trips.settle(
      id,
      moneyFromCedis(b.amount, 'amount', 2),
      b.paymentMethod,
      actorOf(p),
      expectedVersion(ifMatch),
    );
  }

  @Post(':id/refund')
  @HttpCode(200)
  @Roles('admin', 'platform')
  @ApiTags('trips (management)')
  @ApiHeader(IF_MATCH)
  @ApiOperation({ summary: 'Refund part or all of a settled trip; refunds add up to at most the settled amount' })
  @ApiBody({ type: RefundBody })
  @View('trip')
  @ApiOkResponse({ type: TripResponse })
  @ApiProblems(400, 401, 403, 404, 409, 413, 415, 422)
  refund(
    @Param('id', ObjectIdPipe) id: string,
    @Body() b: RefundBody,
    @Headers('if-match') ifMatch: string | undefined,
    @CurrentPrincipal() p: Principal,
  ): Promise<TripResponse> {
    return this.trips.refund(id, moneyFromCedis(b.amount, 'amount', 2), actorOf(p), expectedVersion(ifMatch));
  }
}
