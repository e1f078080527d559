import { Module } from '@nestjs/common';
import { PaymentController } from './payment.controller';
import { PaymentRequestController } from './payment-request.controller';
import { MetricsController } from './metrics.controller';

/** The payment routes, mounted under PAYMENT_BASE_PATH (the interface's {pay_url}). */
@Module({ controllers: [PaymentController, PaymentRequestController, MetricsController] })
export class PaymentModule {}
