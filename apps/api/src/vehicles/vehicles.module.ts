import { Module } from '@nestjs/common';
import { VehiclesController } from './vehicles.controller';
import { VehiclesService } from './vehicles.service';
import { ApprovalWithdrawalNotices } from './approval-withdrawal-notices';

@Module({ controllers: [VehiclesController], providers: [VehiclesService, ApprovalWithdrawalNotices] })
export class VehiclesModule {}
