import { Module } from '@nestjs/common';
import { RoadsideController } from './roadside.controller';
import { RoadsideService } from './roadside.service';

/** Roadside enforcement (issue 47, docs/enforcement.md): checks and their log, offence catalogues, notices. */
@Module({ controllers: [RoadsideController], providers: [RoadsideService] })
export class EnforcementModule {}
