import { Module } from '@nestjs/common';
import { FraudFlagsController } from './fraud-flags.controller';
import { FraudFlagsService } from './fraud-flags.service';
import { FraudSignsService } from './fraud-signs.service';

/**
 * Signs of fraud (issue 46, item 6; docs/fraud-flags.md): FraudSignsService raises them after inspections, photos and
 * printed stickers (the modules of that work import this one); FraudFlagsService is the admin's review.
 */
@Module({
  controllers: [FraudFlagsController],
  providers: [FraudFlagsService, FraudSignsService],
  exports: [FraudSignsService],
})
export class FraudFlagsModule {}
