import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

// Response shapes for the OpenAPI document (the wire format of ../shared/spec/interface.md).

const ID = { example: '65a1b2c3d4e5f60718293a4b', pattern: '^[0-9a-f]{24}$' };
const DATE = { format: 'date-time', example: '2026-11-22T08:30:00.000Z' };

export class RecordDoc {
  @ApiProperty({ ...ID }) _id!: string;
  @ApiProperty({ ...DATE }) createdAt!: string;
  @ApiProperty({ ...DATE }) updatedAt!: string;
  @ApiProperty({ description: 'Revision of the record; increases by one with every change.', example: 0 }) __v!: number;
}

export class InspectionChecklistDoc {
  @ApiProperty() spareTire!: boolean;
  @ApiProperty() headlights!: boolean;
  @ApiProperty() tailLights!: boolean;
  @ApiProperty() turnSignals!: boolean;
  @ApiProperty() brakeLights!: boolean;
  @ApiProperty() fireExtinguisher!: boolean;
  @ApiProperty() emergencySignals!: boolean;
  @ApiProperty() seatBelts!: boolean;
  @ApiProperty() brakes!: boolean;
  @ApiProperty() licensePlate!: boolean;
}

export class StationDoc {
  @ApiProperty({ ...ID }) _id!: string;
  @ApiProperty({ example: 'Kaneshie Station' }) name!: string;
  @ApiProperty({ type: [String] }) transportUnions!: string[];
  @ApiProperty({ type: [String] }) zones!: string[];
  @ApiProperty({ example: 302000444 }) contactNumber!: number;
  @ApiProperty({ example: 'GA-222-1010' }) digitalAddress!: string;
}

export class TransportUnionDoc {
  @ApiProperty({ ...ID }) _id!: string;
  @ApiProperty({ enum: ['active', 'suspended'] }) status!: string;
  @ApiProperty({ example: 'GPRTU Accra Branch' }) name!: string;
  @ApiPropertyOptional({ ...ID, description: 'The parent union, for a branch.' }) transportUnion?: string;
  @ApiProperty({ example: 'GA-183-8164' }) digitalAddress!: string;
  @ApiProperty({ example: '+233302000333' }) contactNumber!: string;
  @ApiProperty({ example: 'accra@gprtu.org.gh' }) email!: string;
  @ApiProperty({ type: [String] }) zones!: string[];
}

export class VehicleResponseDoc extends RecordDoc {
  @ApiProperty({ ...ID }) ownerID!: string;
  @ApiPropertyOptional({ example: '#FFD700' }) color?: string;
  @ApiPropertyOptional({ example: 'GR 1234-24' }) registrationNumber?: string;
  @ApiPropertyOptional({ example: 'Toyota' }) make?: string;
  @ApiPropertyOptional({ example: 'Corolla' }) model?: string;
  @ApiPropertyOptional({ ...DATE }) makeYear?: string;
  @ApiPropertyOptional({ ...DATE }) yearOfRegistration?: string;
  @ApiPropertyOptional({ description: 'Seats.', example: 4 }) capacity?: number;
  @ApiPropertyOptional({ description: 'Kilograms.', example: 1700 }) grossWeight?: number;
  @ApiPropertyOptional({ description: 'Kilograms.', example: 1300 }) netWeight?: number;
  @ApiPropertyOptional({ enum: ['taxi', 'minibus', 'bus', 'tricycle', 'motorcycle', 'other'] }) type?: string;
  @ApiPropertyOptional({ description: 'Litres.', example: 50 }) fuelCapacity?: number;
  @ApiPropertyOptional({ ...DATE }) roadWorthyExpiryDate?: string;
  @ApiPropertyOptional({ ...DATE }) insuranceExpiryDate?: string;
  @ApiPropertyOptional({ example: '1HGCM82633A004352' }) vin?: string;
  @ApiProperty() inspected!: boolean;
  @ApiProperty() approved!: boolean;
  @ApiPropertyOptional({ type: InspectionChecklistDoc, description: 'Present on inspected vehicles.' }) inspectionChecklist?: InspectionChecklistDoc;
  @ApiPropertyOptional({ ...ID, description: 'Present on approved vehicles.' }) approvedBy?: string;
  @ApiPropertyOptional({ ...DATE, description: 'Present on approved vehicles.' }) dateApproved?: string;
  @ApiPropertyOptional({ ...ID, description: 'Present on inspected vehicles.' }) inspectedBy?: string;
  @ApiPropertyOptional({ ...DATE, description: 'Present on inspected vehicles.' }) dateInspected?: string;
  @ApiPropertyOptional({ type: StationDoc, nullable: true, description: 'Present once linked; null once unlinked.' }) station?: StationDoc | null;
  @ApiPropertyOptional({ type: TransportUnionDoc, description: 'Present once linked.' }) transportUnion?: TransportUnionDoc;
  @ApiPropertyOptional({ ...ID, description: 'Present once a driver is linked.' }) driver?: string;
}

export class OwnerResponseDoc extends RecordDoc {
  @ApiProperty({ example: 'Kofi Asante' }) name!: string;
  @ApiProperty({ example: '+233244123456', description: 'Canonical form +233XXXXXXXXX.' }) phone!: string;
  @ApiProperty({ example: 'kofi.asante@example.com' }) email!: string;
  @ApiProperty({ enum: ['ghana_card', 'passport', 'voter_id', 'drivers_license', 'ssnit'] }) idType!: string;
  @ApiProperty({ example: 'GHA-712345678-9' }) idNumber!: string;
  @ApiProperty() verified!: boolean;
}
