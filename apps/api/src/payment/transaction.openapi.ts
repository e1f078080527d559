import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { RecordDoc } from '../vehicles/vehicle.openapi';

export class RequestInfoDataDoc {
  @ApiPropertyOptional({ example: '5f3c1d2e0a1b4c5d' }) TransactionId?: string;
  @ApiPropertyOptional({ example: 'Trip payment' }) Description?: string;
  @ApiPropertyOptional({ example: 'TRIP-TKT-0001' }) ClientReference?: string;
  @ApiPropertyOptional({ example: 25.5 }) Amount?: number;
  @ApiPropertyOptional({ example: 0.05 }) Charges?: number;
  @ApiPropertyOptional({ example: 25.45 }) AmountAfterCharges?: number;
  @ApiPropertyOptional({ example: 25.5 }) AmountCharged?: number;
  @ApiPropertyOptional({ example: 0 }) DeliveryFee?: number;
}

export class RequestInfoDoc {
  @ApiProperty({ example: 'Transaction pending. Expect callback request for final state' }) Message!: string;
  @ApiProperty({ example: '0001' }) ResponseCode!: string;
  @ApiProperty({ type: RequestInfoDataDoc }) Data!: RequestInfoDataDoc;
}

export class CallBackInfoDataDoc {
  @ApiProperty({ example: 25.5 }) Amount!: number;
  @ApiProperty({ example: 0.05 }) Charges!: number;
  @ApiProperty({ example: 25.45 }) AmountAfterCharges!: number;
  @ApiProperty({ example: 25.5 }) AmountCharged!: number;
  @ApiProperty({ example: 'The Mobile Money payment has been approved and processed successfully.' }) Description!: string;
  @ApiProperty({ example: 'TRIP-TKT-0001' }) ClientReference!: string;
  @ApiProperty({ example: '5f3c1d2e0a1b4c5d' }) TransactionId!: string;
  @ApiProperty({ example: '000011112222' }) ExternalTransactionId!: string;
  @ApiProperty({ example: '6b0262850000000000000001' }) OrderId!: string;
}

export class CallBackInfoDoc {
  @ApiProperty({ example: '0000' }) ResponseCode!: string;
  @ApiProperty({ example: 'success' }) Message!: string;
  @ApiProperty({ type: CallBackInfoDataDoc }) Data!: CallBackInfoDataDoc;
}

export class TransactionDoc extends RecordDoc {
  @ApiProperty({ example: 25.5, description: 'Cedis.' }) amount!: number;
  @ApiProperty({ example: 0.05, description: 'Cedis.' }) fees!: number;
  @ApiProperty({ enum: ['pending', 'success', 'failed'] }) status!: string;
  @ApiProperty({ enum: ['mobile_money', 'online_checkout'] }) requestType!: string;
  @ApiProperty({ example: '65a1b2c3d4e5f60718293a4b' }) merchant!: string;
  @ApiProperty({ example: 'Trip payment' }) description!: string;
  @ApiProperty({ example: 'TRIP-TKT-0001' }) reference!: string;
  @ApiProperty({ example: 'https://merchant.example.com/payments/callback', format: 'uri' }) callBackUrl!: string;
  @ApiProperty({ example: '', description: 'May be empty.' }) customerEmail!: string;
  @ApiProperty({ example: 'Akua Sarpong', description: 'May be empty.' }) customerName!: string;
  @ApiProperty({ example: '+233244987654' }) customerPhone!: string;
  @ApiProperty({ type: RequestInfoDoc }) requestInfo!: RequestInfoDoc;
  @ApiPropertyOptional({ type: CallBackInfoDoc, description: 'Present once the final callback was received.' }) callBackInfo?: CallBackInfoDoc;
  @ApiPropertyOptional({ format: 'date-time', example: '2026-11-22T08:31:00.000Z', description: 'When the callback was received.' }) callBackTime?: string;
}
