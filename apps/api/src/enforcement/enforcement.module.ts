import { Module } from '@nestjs/common';
import { NoticesService } from './notices.service';
import { NoticePageController, OffencesController } from './offences.controller';
import { OffencesService } from './offences.service';
import { RoadsideController } from './roadside.controller';
import { RoadsideService } from './roadside.service';

/** Roadside enforcement (issue 47, docs/enforcement.md): checks and their log, offence catalogues, notices. */
@Module({
  controllers: [RoadsideController, OffencesController, NoticePageController],
  providers: [RoadsideService, OffencesService, NoticesService],
})
export class EnforcementModule {}
