import { Module } from '@nestjs/common';
import { PaymentController } from './payment.controller';

/** The payment routes, mounted under PAYMENT_BASE_PATH (the interface's {pay_url}). */
@Module({ controllers: [PaymentController] })
export class PaymentModule {}
