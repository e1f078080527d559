import { ApiProperty } from '@nestjs/swagger';

/** The ten inspection items, each passed (true) or failed (false). */
export class InspectionChecklistResponse {
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
