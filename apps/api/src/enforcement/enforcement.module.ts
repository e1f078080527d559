import { Module } from '@nestjs/common';
import { EnforcementReportsService } from './enforcement-reports.service';
import { NoticeContestController } from './notice-contest.controller';
import { NoticeDecisionsController } from './notice-decisions.controller';
import { NoticeDecisionsService } from './notice-decisions.service';
import { NoticeOverdueWorker } from './notice-overdue.worker';
import { PaymentsModule } from '../payments/payments.module';
import { NoticePaymentWorkers } from './notice-payment-workers';
import { NoticePaymentsController } from './notice-payments.controller';
import { NoticePaymentsService } from './notice-payments.service';
import { NoticesService } from './notices.service';
import { NoticePageController, OffencesController } from './offences.controller';
import { OffencesService } from './offences.service';
import { RoadsideController } from './roadside.controller';
import { RoadsideService } from './roadside.service';

/** Roadside enforcement (issue 47, docs/enforcement.md): checks and their log, offence catalogues, notices. */
@Module({
  imports: [PaymentsModule],
  controllers: [
    RoadsideController,
    OffencesController,
    NoticePageController,
    NoticeContestController,
    NoticeDecisionsController,
    NoticePaymentsController,
  ],
  providers: [
    RoadsideService,
    OffencesService,
    NoticesService,
    NoticeDecisionsService,
    EnforcementReportsService,
    NoticeOverdueWorker,
    NoticePaymentsService,
    NoticePaymentWorkers,
  ],
})
export class EnforcementModule {}
