import { ApiProperty } from '@nestjs/swagger';
import { ID } from './dto-support';

/** The fields every stored record carries on the wire, as the interface names them. */
export class RecordResponse {
  @ApiProperty({ ...ID }) _id!: string;
  @ApiProperty({ format: 'date-time', example: '2026-11-22T08:30:00.000Z' }) createdAt!: string;
  @ApiProperty({ format: 'date-time', example: '2026-11-22T08:30:00.000Z' }) updatedAt!: string;
  @ApiProperty({ description: 'Revision of the record; increases by one with every change.', example: 0 }) __v!: number;
}
