import { Module } from '@nestjs/common';
import { FraudFlagsModule } from '../fraud-flags/fraud-flags.module';
import { CertificatesController } from './certificates.controller';
import { CertificatesService } from './certificates.service';

@Module({
  imports: [FraudFlagsModule],
  controllers: [CertificatesController],
  providers: [CertificatesService],
  exports: [CertificatesService],
})
export class CertificatesModule {}
