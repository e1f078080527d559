import { Module } from '@nestjs/common';
import { FraudFlagsModule } from '../fraud-flags/fraud-flags.module';
import { InspectionAppealsService } from './inspection-appeals.service';
import { InspectionSettingsController } from './inspection-settings.controller';
import { VehiclesController } from './vehicles.controller';
import { VehiclesService } from './vehicles.service';
import { ApprovalWithdrawalNotices } from './approval-withdrawal-notices';

@Module({
  imports: [FraudFlagsModule],
  controllers: [VehiclesController, InspectionSettingsController],
  providers: [VehiclesService, InspectionAppealsService, ApprovalWithdrawalNotices],
})
export class VehiclesModule {}
