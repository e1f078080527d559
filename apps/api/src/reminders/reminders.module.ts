import { Module } from '@nestjs/common';
import { ReminderWorkers } from './reminder-workers';
import { RemindersController } from './reminders.controller';
import { RemindersService } from './reminders.service';

@Module({ controllers: [RemindersController], providers: [RemindersService, ReminderWorkers] })
export class RemindersModule {}
