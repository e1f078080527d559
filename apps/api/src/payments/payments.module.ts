import { Module } from '@nestjs/common';
import type { AppConfig } from '../config';
import { APP_CONFIG } from '../core/tokens';
import { PaymentController } from './payment.controller';
import { PaymentWorkers } from './payment-workers';
import { PAYMENT_SETTINGS, PaymentsService, type PaymentSettings } from './payments.service';

/** The payment routes, mounted under PAYMENT_BASE_PATH (the interface's {pay_url}), and their background work. */
@Module({
  controllers: [PaymentController],
  providers: [
    PaymentsService,
    PaymentWorkers,
    {
      provide: PAYMENT_SETTINGS,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig): PaymentSettings => ({
        callbackBase: `${config.publicBaseUrl}${config.paymentBasePath}`,
        reconcileAfterSeconds: config.jobs.reconcileAfterSeconds,
        callbackSecret: config.provider.callbackSecret,
        tokenGraceHours: config.payments.tokenGraceHours,
        maxCallbacksPerTransaction: config.payments.maxCallbacksPerTransaction,
        deadLetterRetentionDays: config.payments.deadLetterRetentionDays,
        notifyPauseAfterHours: config.payments.notifyPauseAfterHours,
        backstopAfterMinutes: config.payments.backstopAfterMinutes,
        unpaidFinalAfterSeconds: config.payments.unpaidFinalAfterSeconds,
      }),
    },
  ],
})
export class PaymentsModule {}
