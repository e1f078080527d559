import { Body, Controller, Get, Headers, HttpCode, Inject, Param, Post } from '@nestjs/common';
import { ApiBody, ApiHeader, ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { cedisToPesewas, CommonErrors, geoPoint, type Trip } from '@transport/domain';
import { addTrip, changeTrip } from '../application/trip-use-cases';
import { REPOSITORIES, USE_CASE_PORTS } from '../api/tokens';
import type { UseCasePorts } from '../api/use-case-ports';
import { CurrentPrincipal, Roles } from '../auth/auth.decorators';
import { actorOf, type Principal } from '../auth/principal';
import { ApiProblems } from '../http/openapi';
import { expectedVersion, ObjectIdPipe } from '../http/params';
import type { RepositoryBackendPorts } from '../persistence/repositories';
import { TripDoc } from '../trips/trip.openapi';
import { toTripResponse, type TripResponse } from '../trips/trip.response';
import { AddTripBody, CheckoutBody, EndTripBody, RefundBody, SettleBody, type PointBody } from './management.dto';

const IF_MATCH = { name: 'If-Match', required: false, description: 'The revision (__v) the client last saw; a newer one makes the request a 409.' };
const point = (p: PointBody, field: string) => geoPoint(p.coordinates[0], p.coordinates[1], field);

@ApiTags('trips (management)')
@ApiSecurity('apiKey')
@Roles('admin', 'platform')
@Controller('trips')
export class TripsManagementController {
  constructor(
    @Inject(REPOSITORIES) private readonly repos: RepositoryBackendPorts,
    @Inject(USE_CASE_PORTS) private readonly ports: UseCasePorts,
  ) {}

  private deps(): UseCasePorts {
    return this.ports;
  }

  private change(id: string, p: Principal, ifMatch: string | undefined, action: string, transition: (t: Trip, at: Date) => void) {
    return changeTrip(this.deps(), id, actorOf(p), action, transition, expectedVersion(ifMatch)).then((t) => toTripResponse(t.toState()));
  }

  @Post('intracity/add')
  @HttpCode(201)
  @ApiOperation({
    summary: 'Record a trip, with a snapshot of its driver, vehicle and pricing',
    description: 'The vehicle must be approved and linked to the driver, who must be approved and activated (422 otherwise). Prices in cedis.',
  })
  @ApiBody({ type: AddTripBody })
  @ApiOkResponse({ type: TripDoc })
  @ApiProblems(400, 401, 403, 409, 413, 415, 422)
  async add(@Body() body: AddTripBody, @CurrentPrincipal() p: Principal): Promise<TripResponse> {
    const trip = await addTrip(
      this.deps(),
      {
        ticketNumber: body.ticketNumber, serviceID: body.serviceID, serviceType: body.serviceType, driverId: body.driver, vehicleId: body.vehicle,
        pricing: { type: body.pricing.type, pricePerKm: cedisToPesewas(body.pricing.pricePerKm, 'pricing.pricePerKm'), pricePerMinute: cedisToPesewas(body.pricing.pricePerMinute, 'pricing.pricePerMinute') },
        passengers: body.passengers, user: body.user, pickupLocation: point(body.pickupLocation, 'pickupLocation'), serviceDestination: point(body.serviceDestination, 'serviceDestination'),
        estimatedDistance: body.estimatedDistance, estimatedMinutes: body.estimatedMinutes, paymentMethod: body.paymentMethod,
      },
      actorOf(p),
    );
    return toTripResponse(trip.toState());
  }

  @Get(':id')
  @ApiOperation({ summary: 'One trip' })
  @ApiOkResponse({ type: TripDoc })
  @ApiProblems(400, 401, 403, 404)
  async one(@Param('id', ObjectIdPipe) id: string): Promise<TripResponse> {
    const trip = await this.repos.trips.findById(id);
    if (!trip) throw CommonErrors.notFound('trip', id);
    return toTripResponse(trip.toState());
  }

  @Post(':id/end')
  @HttpCode(200)
  @ApiHeader(IF_MATCH)
  @ApiOperation({ summary: 'End the trip: the final price from the final distance and duration (once)' })
  @ApiBody({ type: EndTripBody })
  @ApiOkResponse({ type: TripDoc })
  @ApiProblems(400, 401, 403, 404, 409, 413, 415, 422)
  end(@Param('id', ObjectIdPipe) id: string, @Body() b: EndTripBody, @Headers('if-match') ifMatch: string | undefined, @CurrentPrincipal() p: Principal): Promise<TripResponse> {
    return this.change(id, p, ifMatch, 'TripEnded', (t, at) =>
      t.end({ finalDistance: b.finalDistance, durationMinutes: b.durationMinutes, discount: cedisToPesewas(b.discount ?? 0, 'discount'), charges: cedisToPesewas(b.charges ?? 0, 'charges') }, at),
    );
  }

  @Post(':id/checkout')
  @HttpCode(200)
  @ApiHeader(IF_MATCH)
  @ApiOperation({ summary: 'Check the passenger out where they were dropped off (once, after the end)' })
  @ApiBody({ type: CheckoutBody })
  @ApiOkResponse({ type: TripDoc })
  @ApiProblems(400, 401, 403, 404, 409, 413, 415, 422)
  checkout(@Param('id', ObjectIdPipe) id: string, @Body() b: CheckoutBody, @Headers('if-match') ifMatch: string | undefined, @CurrentPrincipal() p: Principal): Promise<TripResponse> {
    return this.change(id, p, ifMatch, 'TripCheckedOut', (t, at) => t.checkOut(point(b.droppedOffLocation, 'droppedOffLocation'), at));
  }

  @Post(':id/settle')
  @HttpCode(200)
  @ApiHeader(IF_MATCH)
  @ApiOperation({ summary: 'Settle the trip, once, for exactly the amount due (422 TRIP_SETTLEMENT_MISMATCH otherwise)' })
  @ApiBody({ type: SettleBody })
  @ApiOkResponse({ type: TripDoc })
  @ApiProblems(400, 401, 403, 404, 409, 413, 415, 422)
  settle(@Param('id', ObjectIdPipe) id: string, @Body() b: SettleBody, @Headers('if-match') ifMatch: string | undefined, @CurrentPrincipal() p: Principal): Promise<TripResponse> {
    return this.change(id, p, ifMatch, 'TripSettled', (t, at) => t.settle(cedisToPesewas(b.amount, 'amount'), b.paymentMethod, at));
  }

  @Post(':id/refund')
  @HttpCode(200)
  @ApiHeader(IF_MATCH)
  @ApiOperation({ summary: 'Refund part or all of a settled trip; refunds add up to at most the settled amount' })
  @ApiBody({ type: RefundBody })
  @ApiOkResponse({ type: TripDoc })
  @ApiProblems(400, 401, 403, 404, 409, 413, 415, 422)
  refund(@Param('id', ObjectIdPipe) id: string, @Body() b: RefundBody, @Headers('if-match') ifMatch: string | undefined, @CurrentPrincipal() p: Principal): Promise<TripResponse> {
    return this.change(id, p, ifMatch, 'TripRefunded', (t, at) => t.refund(cedisToPesewas(b.amount, 'amount'), at));
  }
}
