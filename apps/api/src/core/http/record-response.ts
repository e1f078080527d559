import { ApiProperty } from '@nestjs/swagger';

/** The fields every stored record carries on the wire, as the interface names them. */
export class RecordResponse {
  @ApiProperty({ example: '65a1b2c3d4e5f60718293a4b', pattern: '^[0-9a-f]{24}$' }) _id!: string;
  @ApiProperty({ format: 'date-time', example: '2026-11-22T08:30:00.000Z' }) createdAt!: string;
  @ApiProperty({ format: 'date-time', example: '2026-11-22T08:30:00.000Z' }) updatedAt!: string;
  @ApiProperty({ description: 'Revision of the record; increases by one with every change.', example: 0 }) __v!: number;
}
