import { Module, type DynamicModule } from '@nestjs/common';
import type { AppConfig } from './config';
import type { Database } from './database/database';
import { DatabaseModule } from './database/database.module';
import { HealthController } from './health/health.controller';
import { HEALTH_TIMEOUT_MS } from './health/health.tokens';
import { VehiclesController } from './vehicles/vehicles.controller';

@Module({})
export class AppModule {
  static register(config: AppConfig, database: Database): DynamicModule {
    return {
      module: AppModule,
      imports: [DatabaseModule.forDatabase(database)],
      controllers: [HealthController, VehiclesController],
      providers: [{ provide: HEALTH_TIMEOUT_MS, useValue: config.healthTimeoutMs }],
    };
  }
}
