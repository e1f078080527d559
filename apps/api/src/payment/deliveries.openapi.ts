import { ApiProperty } from '@nestjs/swagger';

export class NotificationDoc {
  @ApiProperty({ example: '6740a1b2c3d4e5f601234567', description: 'The idempotency id: Webhook-Id and Idempotency-Key on every attempt.' }) id!: string;
  @ApiProperty({ example: 'https://merchant.example.com/hooks/payments' }) url!: string;
  @ApiProperty({ enum: ['pending', 'delivered', 'failed'], description: 'failed: no 2xx answer within the retry window (at least 24 hours).' }) status!: string;
  @ApiProperty({ example: 1 }) attempts!: number;
  @ApiProperty({ example: '2026-11-22T10:00:00.000Z' }) createdAt!: string;
  @ApiProperty({ example: '2026-11-22T10:00:00.120Z', nullable: true, type: String }) lastAttemptAt!: string | null;
  @ApiProperty({ example: '2026-11-22T10:00:00.120Z', nullable: true, type: String }) deliveredAt!: string | null;
}

export class DeliveryAttemptDoc {
  @ApiProperty({ example: 1 }) attempt!: number;
  @ApiProperty({ example: '2026-11-22T10:00:00.000Z' }) at!: string;
  @ApiProperty({ example: 200, nullable: true, type: Number, description: 'null when no answer came (refused, reset, timed out).' }) statusCode!: number | null;
  @ApiProperty({ example: 120 }) latencyMs!: number;
  @ApiProperty({ enum: ['delivered', 'retry', 'failed'] }) outcome!: string;
  @ApiProperty({ example: null, nullable: true, type: String }) error!: string | null;
}

export class DeliveriesDoc {
  @ApiProperty({ example: 'TRIP-TKT-0001' }) reference!: string;
  @ApiProperty({ example: '6740a1b2c3d4e5f601234560', description: 'The transaction _id.' }) transaction!: string;
  @ApiProperty({ type: NotificationDoc, nullable: true, description: 'null while the transaction is pending.' }) notification!: NotificationDoc | null;
  @ApiProperty({ type: [DeliveryAttemptDoc], description: 'Oldest first.' }) attempts!: DeliveryAttemptDoc[];
}
