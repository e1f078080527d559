import { Module } from '@nestjs/common';
import { ReportsController } from './reports.controller';
import { ReportsService } from './reports.service';

/** The public's vehicle reports, for assembly staff (docs/ussd-sms.md). */
@Module({ controllers: [ReportsController], providers: [ReportsService] })
export class ReportsModule {}
