import type { CsvList } from '../core/http/csv-export';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  Equals,
  IsArray,
  IsIn,
  IsInt,
  IsNumber,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import {
  PAYMENT_METHODS,
  moneyToCedis,
  SERVICE_TYPES,
  type GeoPoint,
  type TripState,
  OBJECT_ID_PATTERN,
} from '@transport/domain';
import { ID, idMessage, IsCedis } from '../core/http/dto-support';
import { IdParam, LimitParam, CountParam } from '../core/http/query-values';
import { RecordResponse } from '../core/http/record-response';

// Requests and responses of the /trips routes, declared once: validation, the OpenAPI document and the types.

export class TripsByDateQuery {
  @ApiProperty({
    description: 'YYYY-MM-DD (a day in TZ_DEFAULT, Africa/Accra by default) or an ISO 8601 date-time.',
    example: '2026-11-01',
  })
  @IsString()
  @MaxLength(40)
  startDate!: string;

  @ApiProperty({
    description:
      'YYYY-MM-DD (the whole day is included) or an ISO 8601 date-time (included). At most 366 days after startDate.',
    example: '2026-11-30',
  })
  @IsString()
  @MaxLength(40)
  endDate!: string;

  @LimitParam() limit?: number;
  @CountParam() count?: string;
  @IdParam('Cursor: the `_id` of the last trip of the previous page.') after?: string;
}

export class PointBody {
  @ApiProperty({ enum: ['Point'] }) @Equals('Point') type!: string;
  @ApiProperty({ type: [Number], example: [-0.2166, 5.556], description: '[longitude, latitude]' })
  @IsArray()
  @IsNumber({ allowNaN: false, allowInfinity: false }, { each: true })
  coordinates!: number[];
}

export class PricingBody {
  @ApiProperty({ example: 'standard' }) @IsString() @MaxLength(40) type!: string;
  @ApiProperty({ example: 2.5, description: 'Cedis per km, at most two decimals.' })
  @IsCedis()
  @Min(0)
  @Max(1000)
  pricePerKm!: number;
  @ApiProperty({ example: 0.3, description: 'Cedis per minute, at most two decimals.' })
  @IsCedis()
  @Min(0)
  @Max(1000)
  pricePerMinute!: number;
}

export class AddTripBody {
  @ApiProperty({ example: 'TKT-0001' }) @IsString() @MaxLength(40) ticketNumber!: string;
  @ApiProperty({ example: 'SRV-0001' }) @IsString() @MaxLength(60) serviceID!: string;
  @ApiProperty({ enum: SERVICE_TYPES }) @IsIn(SERVICE_TYPES as unknown as string[]) serviceType!: string;
  @ApiProperty({ ...ID }) @Matches(OBJECT_ID_PATTERN, idMessage) driver!: string;
  @ApiProperty({ ...ID }) @Matches(OBJECT_ID_PATTERN, idMessage) vehicle!: string;
  @ApiProperty({ type: PricingBody }) @IsObject() @ValidateNested() @Type(() => PricingBody) pricing!: PricingBody;
  @ApiProperty({ example: 1 }) @IsInt() @Min(1) @Max(100) passengers!: number;
  @ApiProperty({ example: 'passenger-1' }) @IsString() @MaxLength(120) user!: string;
  @ApiProperty({ type: PointBody }) @IsObject() @ValidateNested() @Type(() => PointBody) pickupLocation!: PointBody;
  @ApiProperty({ type: PointBody }) @IsObject() @ValidateNested() @Type(() => PointBody) serviceDestination!: PointBody;
  @ApiProperty({ example: 8.2, description: 'Kilometres.' })
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(1000)
  estimatedDistance!: number;
  @ApiProperty({ example: 20 })
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(1440)
  estimatedMinutes!: number;
  @ApiPropertyOptional({ enum: PAYMENT_METHODS })
  @IsOptional()
  @IsIn(PAYMENT_METHODS as unknown as string[])
  paymentMethod?: string;
}

export class EndTripBody {
  @ApiProperty({ example: 8.6, description: 'Kilometres.' })
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(1000)
  finalDistance!: number;
  @ApiProperty({ example: 22 })
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(1440)
  durationMinutes!: number;
  @ApiPropertyOptional({ example: 1, description: 'Cedis; not more than the final price.' })
  @IsOptional()
  @IsCedis()
  @Min(0)
  @Max(20_000_000)
  discount?: number;
  @ApiPropertyOptional({ example: 0.5, description: 'Cedis.' })
  @IsOptional()
  @IsCedis()
  @Min(0)
  @Max(20_000_000)
  charges?: number;
}

export class CheckoutBody {
  @ApiProperty({ type: PointBody }) @IsObject() @ValidateNested() @Type(() => PointBody) droppedOffLocation!: PointBody;
}

export class SettleBody {
  @ApiProperty({ example: 27.05, description: 'Cedis: exactly the amount due (final price - discount + charges).' })
  @IsCedis()
  @Min(0)
  @Max(20_000_000)
  amount!: number;
  @ApiProperty({ enum: PAYMENT_METHODS }) @IsIn(PAYMENT_METHODS as unknown as string[]) paymentMethod!: string;
}

export class RefundBody {
  @ApiProperty({ example: 5, description: 'Cedis; refunds add up to at most the settled amount.' })
  @IsCedis()
  @Min(0.01)
  @Max(20_000_000)
  amount!: number;
}

class PointResponse {
  @ApiProperty({ enum: ['Point'] }) type!: string;
  @ApiProperty({ type: [Number], example: [-0.2166, 5.556], description: '[longitude, latitude]' })
  coordinates!: number[];
}
class TripDriverResponse {
  @ApiProperty() _id!: string;
  @ApiProperty() name!: string;
  @ApiProperty() phone!: string;
  @ApiProperty() email!: string;
  @ApiPropertyOptional() walletAccount?: string;
  @ApiPropertyOptional() rating?: number;
}
class TripVehicleResponse {
  @ApiProperty() _id!: string;
  @ApiPropertyOptional() registrationNumber?: string;
  @ApiPropertyOptional() make?: string;
  @ApiPropertyOptional() model?: string;
  @ApiPropertyOptional() capacity?: number;
  @ApiPropertyOptional() type?: string;
}
class PricingResponse {
  @ApiProperty() _id!: string;
  @ApiProperty({ example: 'standard' }) type!: string;
  @ApiProperty({ example: 2.5, description: 'Cedis per km.' }) pricePerKm!: number;
  @ApiProperty({ example: 0.3, description: 'Cedis per minute.' }) pricePerMinute!: number;
}
class TripServiceResponse {
  @ApiProperty() _id!: string;
  @ApiProperty() serviceID!: string;
  @ApiProperty({ enum: SERVICE_TYPES }) type!: string;
  @ApiProperty({ type: TripDriverResponse, description: 'The driver as they were when the service started.' })
  driver!: TripDriverResponse;
  @ApiProperty({ type: TripVehicleResponse }) vehicle!: TripVehicleResponse;
  @ApiProperty({ type: PricingResponse }) pricing!: PricingResponse;
  @ApiProperty() passengers!: number;
  @ApiProperty({ description: 'Cedis.' }) amount!: number;
  @ApiProperty() ended!: boolean;
}

/**
 * The Trip of the interface. Money in cedis, a JSON number with every decimal kept (12.345 for a price the original
 * service recorded with a third decimal; a new trip's are whole pesewas), distances in kilometres.
 */
export class TripResponse extends RecordResponse {
  @ApiProperty({ type: TripServiceResponse }) service!: TripServiceResponse;
  @ApiProperty({ example: 'TKT-0001' }) ticketNumber!: string;
  @ApiProperty({ description: 'Cedis.' }) estimatedPrice!: number;
  @ApiProperty({ description: 'Kilometres.' }) estimatedDistance!: number;
  @ApiPropertyOptional({ description: 'Cedis; once the trip has ended.' }) finalPrice?: number;
  @ApiPropertyOptional({ description: 'Cedis; for cash settlements.' }) cashPrice?: number;
  @ApiProperty({ description: 'Cedis.' }) charges!: number;
  @ApiProperty({ description: 'Cedis.' }) settledAmount!: number;
  @ApiProperty({ description: 'Cedis.' }) discount!: number;
  @ApiProperty() settled!: boolean;
  @ApiPropertyOptional({ description: 'Kilometres.' }) finalDistance?: number;
  @ApiProperty({ description: 'Cedis; total refunded.' }) refundAmount!: number;
  @ApiProperty() refunded!: boolean;
  @ApiPropertyOptional({ enum: PAYMENT_METHODS }) paymentMethod?: string;
  @ApiProperty() user!: string;
  @ApiProperty({ type: PointResponse }) pickupLocation!: GeoPoint;
  @ApiProperty({ type: PointResponse }) serviceDestination!: GeoPoint;
  @ApiPropertyOptional({ type: PointResponse }) droppedOffLocation?: GeoPoint;
  @ApiProperty() checkedOut!: boolean;
  @ApiPropertyOptional({ format: 'date-time' }) checkOutTime?: string;
}

const cedis = (p: number | undefined) => (p === undefined ? undefined : moneyToCedis(p));

export function toTripResponse(t: TripState): TripResponse {
  const s = t.service;
  return {
    _id: t.id,
    service: {
      _id: s.id,
      serviceID: s.serviceID,
      type: s.type,
      driver: {
        _id: s.driver.id,
        name: s.driver.name,
        phone: s.driver.phone,
        email: s.driver.email,
        walletAccount: s.driver.walletAccount,
        rating: s.driver.rating,
      },
      vehicle: {
        _id: s.vehicle.id,
        registrationNumber: s.vehicle.registrationNumber,
        make: s.vehicle.make,
        model: s.vehicle.model,
        capacity: s.vehicle.capacity,
        type: s.vehicle.type,
      },
      pricing: {
        _id: s.pricing.id,
        type: s.pricing.type,
        pricePerKm: moneyToCedis(s.pricing.pricePerKm),
        pricePerMinute: moneyToCedis(s.pricing.pricePerMinute),
      },
      passengers: s.passengers,
      amount: moneyToCedis(s.amount),
      ended: s.ended,
    },
    ticketNumber: t.ticketNumber,
    estimatedPrice: moneyToCedis(t.estimatedPrice),
    estimatedDistance: t.estimatedDistance,
    finalPrice: cedis(t.finalPrice),
    cashPrice: cedis(t.cashPrice),
    charges: moneyToCedis(t.charges),
    settledAmount: moneyToCedis(t.settledAmount),
    discount: moneyToCedis(t.discount),
    settled: t.settled,
    finalDistance: t.finalDistance,
    refundAmount: moneyToCedis(t.refundAmount),
    refunded: t.refunded,
    paymentMethod: t.paymentMethod,
    user: t.user,
    pickupLocation: t.pickupLocation,
    serviceDestination: t.serviceDestination,
    droppedOffLocation: t.droppedOffLocation,
    checkedOut: t.checkedOut,
    checkOutTime: t.checkOutTime?.toISOString(),
    createdAt: t.createdAt.toISOString(),
    updatedAt: t.updatedAt.toISOString(),
    __v: t.version,
  };
}

/** The trips export (Accept: text/csv on GET /trips/intracity/date): one row per trip, in the caller's view. */
export const TRIP_CSV: CsvList = {
  filename: 'trips.csv',
  view: 'trip',
  columns: [
    '_id',
    'ticketNumber',
    'createdAt',
    'service.type',
    'service.driver._id',
    'service.driver.name',
    'service.vehicle._id',
    'service.vehicle.registrationNumber',
    'service.passengers',
    'service.ended',
    'estimatedPrice',
    'estimatedDistance',
    'finalPrice',
    'finalDistance',
    'charges',
    'discount',
    'settledAmount',
    'settled',
    'refundAmount',
    'refunded',
    'paymentMethod',
    'checkedOut',
    'checkOutTime',
  ],
};
