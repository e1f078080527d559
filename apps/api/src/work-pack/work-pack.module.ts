import { Module } from '@nestjs/common';
import { WorkPackController } from './work-pack.controller';
import { WorkPackService } from './work-pack.service';

@Module({ controllers: [WorkPackController], providers: [WorkPackService] })
export class WorkPackModule {}
