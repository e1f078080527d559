import { Module } from '@nestjs/common';
import { InspectionSettingsController } from './inspection-settings.controller';
import { VehiclesController } from './vehicles.controller';
import { VehiclesService } from './vehicles.service';
import { ApprovalWithdrawalNotices } from './approval-withdrawal-notices';

@Module({
  controllers: [VehiclesController, InspectionSettingsController],
  providers: [VehiclesService, ApprovalWithdrawalNotices],
})
export class VehiclesModule {}
