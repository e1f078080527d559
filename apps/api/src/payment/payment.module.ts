import { Module } from '@nestjs/common';
import { PaymentController } from './payment.controller';
import { PaymentRequestController } from './payment-request.controller';
import { MetricsController } from './metrics.controller';
import { PaymentBackgroundWork } from './payment-background';

/** The payment routes, mounted under PAYMENT_BASE_PATH (the interface's {pay_url}). */
@Module({ controllers: [PaymentController, PaymentRequestController, MetricsController], providers: [PaymentBackgroundWork] })
export class PaymentModule {}
