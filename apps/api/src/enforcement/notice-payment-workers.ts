import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import type { JobWorkers } from '../core/ports';
import { JOB_WORKERS } from '../core/tokens';
import { NOTICE_RECEIPT_QUEUE } from '../payments/notice-settlement';
import { NoticePaymentsService } from './notice-payments.service';

/** The receipt SMS of settled notice payments: a job queued with the settlement, run once it committed. */
@Injectable()
export class NoticePaymentWorkers implements OnApplicationBootstrap {
  constructor(
    private readonly payments: NoticePaymentsService,
    @Inject(JOB_WORKERS) private readonly workers: JobWorkers,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.workers.start([
      {
        name: NOTICE_RECEIPT_QUEUE,
        concurrency: 2,
        // As the payment queues: a job whose instance died is taken up again by another after about 30 s.
        options: { retryLimit: 3, retryDelay: 60, retryBackoff: true, expireInSeconds: 30, heartbeatSeconds: 10 },
        handle: async (data: { transactionId: string }) => this.payments.sendReceipt(data.transactionId),
      },
    ]);
  }
}
