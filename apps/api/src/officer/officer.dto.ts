import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsDate, IsNumber, IsOptional } from 'class-validator';
import { NOTICE_STATUSES } from '@transport/domain';
import { DATE, ID, ToDate } from '../core/http/dto-support';
import { CheckLogEntryResponse } from '../enforcement/enforcement.dto';

// Requests and responses of an enforcer's own work: notices' evidence photos and the officer's day.

const toCoordinate = ({ value }: { value: unknown }) =>
  typeof value === 'string' && /^-?\d{1,3}(\.\d{1,12})?$/.test(value) ? Number(value) : value;

/** What the phone says about a photo, in the query string (the body is the image's bytes). */
export class NoticePhotoQuery {
  @ApiPropertyOptional({ ...DATE, description: "When the device says it was taken (the phone's clock)." })
  @IsOptional()
  @ToDate()
  @IsDate({ message: 'takenAt must be an ISO 8601 date-time' })
  takenAt?: Date;

  @ApiPropertyOptional({ description: 'Where the device says it was taken: longitude (-180 to 180), with latitude.' })
  @IsOptional()
  @Transform(toCoordinate)
  @IsNumber({}, { message: 'longitude must be a number from -180 to 180' })
  longitude?: number;

  @ApiPropertyOptional({ description: 'Latitude (-90 to 90), with longitude.' })
  @IsOptional()
  @Transform(toCoordinate)
  @IsNumber({}, { message: 'latitude must be a number from -90 to 90' })
  latitude?: number;
}

class PhotoPointDoc {
  @ApiProperty({ enum: ['Point'] }) type!: 'Point';
  @ApiProperty({ type: [Number], example: [-0.187, 5.6037], description: '[longitude, latitude]' })
  coordinates!: number[];
}

export class NoticePhotoResponse {
  @ApiProperty(ID) _id!: string;
  @ApiProperty({ ...ID, description: 'The notice it is evidence of.' }) notice!: string;
  @ApiProperty({ ...ID, description: 'Who sent it.' }) sentBy!: string;
  @ApiProperty({ enum: ['image/jpeg', 'image/png', 'image/webp'], description: 'Told by its bytes.' })
  contentType!: string;
  @ApiProperty({ description: 'SHA-256 (hex) of the bytes as sent.', pattern: '^[0-9a-f]{64}$' }) sha256!: string;
  @ApiProperty({ description: 'Bytes as sent.' }) size!: number;
  @ApiPropertyOptional({ ...DATE, description: 'When the device says it was taken.' }) takenAt?: Date;
  @ApiPropertyOptional({
    type: PhotoPointDoc,
    description: 'Where the device says it was taken: shown to national admins and assembly approvers and admins only.',
  })
  takenWhere?: PhotoPointDoc;
  @ApiProperty({ ...DATE, description: 'When the service received it.' }) receivedAt!: Date;
}

/** One of the officer's notices of the day, as their list shows it. */
export class DayNoticeResponse {
  @ApiProperty({ ...ID }) _id!: string;
  @ApiProperty({ ...ID }) vehicle!: string;
  @ApiProperty({ description: "The vehicle's plate ('' when it has none)." }) registrationNumber!: string;
  @ApiProperty({ enum: NOTICE_STATUSES }) status!: string;
  @ApiProperty({ type: [String], example: ['TF-01'] }) offences!: string[];
  @ApiProperty({ description: 'The fine, in pesewas.' }) fine!: number;
  @ApiProperty({ ...DATE, description: "When the offence was made (the phone's time)." }) madeAt!: string;
  @ApiProperty({ ...DATE, description: 'When the service recorded it.' }) createdAt!: string;
}

export class OfficerDayResponse {
  @ApiProperty({
    description:
      'Whether the officer works nationwide (a police traffic officer): each offence names the assembly where it was made, whose catalogue applies.',
  })
  nationwide!: boolean;
  @ApiProperty({ ...DATE, description: "The start of the officer's day (midnight in the service's time zone)." })
  since!: string;
  @ApiProperty({ type: [DayNoticeResponse], description: 'Newest first, at most 200.' })
  notices!: DayNoticeResponse[];
  @ApiProperty({ type: [CheckLogEntryResponse], description: 'Newest first, at most 200.' })
  checks!: CheckLogEntryResponse[];
}
