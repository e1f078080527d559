import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { RecordDoc } from '../vehicles/vehicle.openapi';

class PointDoc {
  @ApiProperty({ enum: ['Point'] }) type!: string;
  @ApiProperty({ type: [Number], example: [-0.2166, 5.556], description: '[longitude, latitude]' }) coordinates!: number[];
}
class TripDriverDoc {
  @ApiProperty() _id!: string;
  @ApiProperty() name!: string;
  @ApiProperty() phone!: string;
  @ApiProperty() email!: string;
  @ApiPropertyOptional() walletAccount?: string;
  @ApiPropertyOptional() rating?: number;
}
class TripVehicleDoc {
  @ApiProperty() _id!: string;
  @ApiPropertyOptional() registrationNumber?: string;
  @ApiPropertyOptional() make?: string;
  @ApiPropertyOptional() model?: string;
  @ApiPropertyOptional() capacity?: number;
  @ApiPropertyOptional() type?: string;
}
class PricingDoc {
  @ApiProperty() _id!: string;
  @ApiProperty({ example: 'standard' }) type!: string;
  @ApiProperty({ example: 2.5, description: 'Cedis per km.' }) pricePerKm!: number;
  @ApiProperty({ example: 0.3, description: 'Cedis per minute.' }) pricePerMinute!: number;
}
class TripServiceDoc {
  @ApiProperty() _id!: string;
  @ApiProperty() serviceID!: string;
  @ApiProperty({ enum: ['taxi', 'shared', 'delivery'] }) type!: string;
  @ApiProperty({ type: TripDriverDoc, description: 'The driver as they were when the service started.' }) driver!: TripDriverDoc;
  @ApiProperty({ type: TripVehicleDoc }) vehicle!: TripVehicleDoc;
  @ApiProperty({ type: PricingDoc }) pricing!: PricingDoc;
  @ApiProperty() passengers!: number;
  @ApiProperty({ description: 'Cedis.' }) amount!: number;
  @ApiProperty() ended!: boolean;
}

export class TripDoc extends RecordDoc {
  @ApiProperty({ type: TripServiceDoc }) service!: TripServiceDoc;
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
  @ApiPropertyOptional({ enum: ['cash', 'momo', 'card', 'wallet'] }) paymentMethod?: string;
  @ApiProperty() user!: string;
  @ApiProperty({ type: PointDoc }) pickupLocation!: PointDoc;
  @ApiProperty({ type: PointDoc }) serviceDestination!: PointDoc;
  @ApiPropertyOptional({ type: PointDoc }) droppedOffLocation?: PointDoc;
  @ApiProperty() checkedOut!: boolean;
  @ApiPropertyOptional({ format: 'date-time' }) checkOutTime?: string;
}
