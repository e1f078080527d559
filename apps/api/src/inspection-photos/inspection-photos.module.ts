import { Module } from '@nestjs/common';
import { FraudFlagsModule } from '../fraud-flags/fraud-flags.module';
import { InspectionPhotosController } from './inspection-photos.controller';
import { InspectionPhotosService } from './inspection-photos.service';

/** Photos of inspections (issue 46, item 4): their bytes through the ObjectStorage port (docs/storage.md). */
@Module({
  imports: [FraudFlagsModule],
  controllers: [InspectionPhotosController],
  providers: [InspectionPhotosService],
})
export class InspectionPhotosModule {}
