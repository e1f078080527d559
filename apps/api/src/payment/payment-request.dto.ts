import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsNumber, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { REQUEST_TYPES } from '@transport/domain';

export class PaymentRequestBody {
  @ApiProperty({ example: 25.5, description: 'Cedis, at most two decimals.' }) @IsNumber({ maxDecimalPlaces: 2 }) @Min(0.01) @Max(20_000_000) amount!: number;
  @ApiProperty({ example: 'Trip payment' }) @IsString() @MaxLength(200) description!: string;
  @ApiProperty({ example: 'TRIP-TKT-0001', description: 'Your reference; unique per merchant. Repeating a request with it returns the same transaction.' }) @IsString() @MaxLength(64) reference!: string;
  @ApiProperty({ example: 'https://merchant.example.com/payments/callback', description: 'Where you want the final state (http or https).' }) @IsString() @MaxLength(2048) callBackUrl!: string;
  @ApiPropertyOptional({ example: 'Akua Sarpong' }) @IsOptional() @IsString() @MaxLength(120) customerName?: string;
  @ApiProperty({ example: '0244987654' }) @IsString() @MaxLength(20) customerPhone!: string;
  @ApiPropertyOptional({ example: 'akua@example.com' }) @IsOptional() @IsString() @MaxLength(254) customerEmail?: string;
  @ApiProperty({ enum: REQUEST_TYPES }) @IsIn(REQUEST_TYPES as unknown as string[]) requestType!: string;
}
