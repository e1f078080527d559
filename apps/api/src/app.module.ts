import { Module, type DynamicModule, type MiddlewareConsumer, type NestModule } from '@nestjs/common';
import { APP_GUARD, RouterModule } from '@nestjs/core';
import { PortsModule } from './api/ports.module';
import { AssemblyController } from './assembly/assembly.controller';
import { ApiKeyGuard } from './auth/api-key.guard';
import type { AppConfig } from './config';
import type { Database } from './database/database';
import { DriversController } from './drivers/drivers.controller';
import { HealthController } from './health/health.controller';
import { HEALTH_TIMEOUT_MS } from './health/health.tokens';
import { JsonContentTypeMiddleware } from './http/content-type.middleware';
import { PaymentModule } from './payment/payment.module';
import { TripsController } from './trips/trips.controller';
import { VehiclesController } from './vehicles/vehicles.controller';
import { AdminController } from './management/admin.controller';
import { DriversManagementController } from './management/drivers-management.controller';
import { ReferenceController } from './management/reference.controller';
import { TripsManagementController } from './management/trips-management.controller';
import { VehiclesManagementController } from './management/vehicles-management.controller';

@Module({})
export class AppModule implements NestModule {
  static register(config: AppConfig, database: Database): DynamicModule {
    return {
      module: AppModule,
      imports: [
        PortsModule.register(config, database),
        PaymentModule,
        ...(config.paymentBasePath ? [RouterModule.register([{ path: config.paymentBasePath, module: PaymentModule }])] : []),
      ],
      // Order matters where paths overlap: fixed paths (/vehicles/all) are registered before parameterised ones (/vehicles/:id).
      controllers: [
        HealthController,
        VehiclesController,
        DriversController,
        AssemblyController,
        TripsController,
        VehiclesManagementController,
        DriversManagementController,
        ReferenceController,
        TripsManagementController,
        AdminController,
      ],
      providers: [{ provide: HEALTH_TIMEOUT_MS, useValue: config.healthTimeoutMs }, { provide: APP_GUARD, useClass: ApiKeyGuard }],
    };
  }

  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(JsonContentTypeMiddleware).forRoutes('*');
  }
}
