import { Module } from '@nestjs/common';
import { AdminController } from './admin.controller';
import { AdminService } from './admin.service';
import { AuditController } from './audit.controller';

@Module({ controllers: [AuditController, AdminController], providers: [AdminService], exports: [AdminService] })
export class AdminModule {}
