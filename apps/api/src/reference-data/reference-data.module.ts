import { Module } from '@nestjs/common';
import { AssemblyController } from './assembly.controller';
import { ReferenceDataService } from './reference-data.service';
import { StationsController } from './stations.controller';
import { UnionsController } from './unions.controller';

@Module({ controllers: [AssemblyController, StationsController, UnionsController], providers: [ReferenceDataService] })
export class ReferenceDataModule {}
