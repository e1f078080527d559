import { Module } from '@nestjs/common';
import { TripsController } from './trips.controller';
import { TripsService } from './trips.service';

@Module({ controllers: [TripsController], providers: [TripsService] })
export class TripsModule {}
