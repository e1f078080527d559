import { Module } from '@nestjs/common';
import { CertificatesModule } from '../certificates/certificates.module';
import { HubtelInboundGuard } from './hubtel-inbound.guard';
import { PublicChecksService } from './public-checks.service';
import { SmsCheckService } from './sms-check.service';
import { UssdController } from './ussd.controller';
import { UssdFlow } from './ussd-flow';

/** The public checks by USSD and SMS over Hubtel (docs/ussd-sms.md). */
@Module({
  imports: [CertificatesModule],
  controllers: [UssdController],
  providers: [PublicChecksService, UssdFlow, SmsCheckService, HubtelInboundGuard],
})
export class UssdModule {}
