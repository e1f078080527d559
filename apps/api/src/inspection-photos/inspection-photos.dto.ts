import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { INSPECTION_ITEMS, INSPECTION_PHOTO_KINDS } from '@transport/domain';
import { Transform } from 'class-transformer';
import { IsDate, IsIn, IsNumber, IsOptional, IsString, MaxLength } from 'class-validator';
import { DATE, ID, ToDate } from '../core/http/dto-support';

const toCoordinate = ({ value }: { value: unknown }) =>
  typeof value === 'string' && /^-?\d{1,3}(\.\d{1,12})?$/.test(value) ? Number(value) : value;

/** What the phone says about a photo, in the query string (the body is the image's bytes). */
export class PhotoUploadQuery {
  @ApiProperty({ enum: INSPECTION_PHOTO_KINDS, description: 'What the photo shows.' })
  @IsIn([...INSPECTION_PHOTO_KINDS], { message: `kind must be one of ${INSPECTION_PHOTO_KINDS.join(', ')}` })
  kind!: string;

  @ApiPropertyOptional({ enum: INSPECTION_ITEMS, description: 'The checklist item it shows: with kind=item only.' })
  @IsOptional()
  @IsString()
  @MaxLength(40)
  item?: string;

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

export class PhotoListQuery {
  @ApiPropertyOptional({ description: "Only the photos sent with this inspection's Idempotency-Key." })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  inspectionKey?: string;
}

class PointDoc {
  @ApiProperty({ enum: ['Point'] }) type!: 'Point';
  @ApiProperty({ type: [Number], example: [-0.187, 5.6037], description: '[longitude, latitude]' })
  coordinates!: number[];
}

export class PhotoResponse {
  @ApiProperty(ID) _id!: string;
  @ApiProperty({ ...ID, description: 'The vehicle inspected.' }) vehicle!: string;
  @ApiProperty({ description: "The inspection's Idempotency-Key, which the photo was sent with." })
  inspectionKey!: string;
  @ApiProperty({ enum: INSPECTION_PHOTO_KINDS }) kind!: string;
  @ApiPropertyOptional({ enum: INSPECTION_ITEMS }) item?: string;
  @ApiProperty({ ...ID, description: 'The inspector who sent it.' }) inspectedBy!: string;
  @ApiProperty({ enum: ['image/jpeg', 'image/png', 'image/webp'], description: 'Told by its bytes.' })
  contentType!: string;
  @ApiProperty({ description: 'SHA-256 (hex) of the bytes as sent.', pattern: '^[0-9a-f]{64}$' }) sha256!: string;
  @ApiProperty({ description: 'Bytes as sent.' }) size!: number;
  @ApiPropertyOptional({ ...DATE, description: 'When the device says it was taken.' }) takenAt?: Date;
  @ApiPropertyOptional({
    type: PointDoc,
    description: 'Where the device says it was taken: shown to national admins and assembly approvers and admins only.',
  })
  takenWhere?: PointDoc;
  @ApiProperty({ ...DATE, description: 'When the service received it.' }) receivedAt!: Date;
}
