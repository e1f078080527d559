import { Module } from '@nestjs/common';
import { NoticePhotosService } from './notice-photos.service';
import { NoticePagePhotosController, OfficerController } from './officer.controller';
import { OfficerDayService } from './officer-day.service';
import { OfficerPackService } from './officer-pack.service';

/**
 * An enforcer's own work beside the roadside module (issue 47, docs/enforcement.md): the evidence photos of notices
 * (bytes through the ObjectStorage port, as inspection photos') and the officer's own day.
 */
@Module({
  controllers: [OfficerController, NoticePagePhotosController],
  providers: [NoticePhotosService, OfficerDayService, OfficerPackService],
  exports: [NoticePhotosService],
})
export class OfficerModule {}
