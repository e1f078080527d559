import { Module } from '@nestjs/common';
import type { AppConfig } from '../config';
import { APP_CONFIG } from '../core/tokens';
import { PaymentController } from './payment.controller';
import { PaymentWorkers } from './payment-workers';
import { MerchantNotificationsService } from './merchant-notifications.service';
import { MerchantViewsService } from './merchant-views.service';
import { PaymentCallbacksService } from './payment-callbacks.service';
import { PaymentReconciliationService } from './payment-reconciliation.service';
import { PaymentRequestsService } from './payment-requests.service';
import { PAYMENT_SETTINGS, type PaymentSettings } from './payment-settings';
import { TransactionProgress } from './transaction-progress';

/** The payment routes, mounted under PAYMENT_BASE_PATH (the interface's {pay_url}), and their background work. */
@Module({
  controllers: [PaymentController],
  providers: [
    TransactionProgress,
    PaymentRequestsService,
    PaymentCallbacksService,
    PaymentReconciliationService,
    MerchantNotificationsService,
    MerchantViewsService,
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
  // Notice payments (the enforcement module) go through the same intent-first requests.
  exports: [PaymentRequestsService],
})
export class PaymentsModule {}
