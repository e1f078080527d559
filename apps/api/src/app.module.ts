import { Module, type DynamicModule } from '@nestjs/common';
import { APP_GUARD, RouterModule } from '@nestjs/core';
import { AdminModule } from './admin/admin.module';
import { CertificatesModule } from './certificates/certificates.module';
import type { AppConfig } from './config';
import { ApiKeyGuard } from './core/auth/api-key.guard';
import { HealthController } from './core/health.controller';
import { HEALTH_TIMEOUT_MS, Lifecycle } from './core/health.tokens';
import { SESSION_AUTHENTICATOR } from './core/tokens';
import { TerminusModule } from '@nestjs/terminus';
import { PortsModule } from './ports.module';
import { DriversModule } from './drivers/drivers.module';
import { EnforcementModule } from './enforcement/enforcement.module';
import { FraudFlagsModule } from './fraud-flags/fraud-flags.module';
import { OfficerModule } from './officer/officer.module';
import { OwnersModule } from './owners/owners.module';
import { PaymentsModule } from './payments/payments.module';
import { PeopleModule } from './people/people.module';
import { PeopleService } from './people/people.service';
import type { Database } from './persistence/database';
import type { PortOverrides } from './ports.module';
import { ReferenceDataModule } from './reference-data/reference-data.module';
import { RemindersModule } from './reminders/reminders.module';
import { SearchModule } from './search/search.module';
import { TripsModule } from './trips/trips.module';
import { ReportsModule } from './reports/reports.module';
import { UssdModule } from './ussd/ussd.module';
import { VehiclesModule } from './vehicles/vehicles.module';
import { InspectionPhotosModule } from './inspection-photos/inspection-photos.module';
import { WorkPackModule } from './work-pack/work-pack.module';

import { IdempotencyPurge } from './core/http/idempotency';
/**
 * The composition root: one module per feature; the ports (adapters behind every token) are bound once, globally, by
 * PortsModule (ports.module.ts beside this file).
 */
@Module({})
export class AppModule {
  static register(config: AppConfig, database: Database, overrides: PortOverrides = {}): DynamicModule {
    return {
      module: AppModule,
      imports: [
        PortsModule.register(config, database, overrides),
        TerminusModule,
        // Before VehiclesModule: /vehicles/work-pack is not a vehicle's :id.
        WorkPackModule,
        VehiclesModule,
        InspectionPhotosModule,
        CertificatesModule,
        OwnersModule,
        DriversModule,
        TripsModule,
        ReferenceDataModule,
        SearchModule,
        AdminModule,
        PeopleModule,
        PaymentsModule,
        RemindersModule,
        UssdModule,
        ReportsModule,
        EnforcementModule,
        FraudFlagsModule,
        OfficerModule,
        ...(config.paymentBasePath
          ? [RouterModule.register([{ path: config.paymentBasePath, module: PaymentsModule }])]
          : []),
      ],
      controllers: [HealthController],
      providers: [
        { provide: HEALTH_TIMEOUT_MS, useValue: config.healthTimeoutMs },
        Lifecycle,
        IdempotencyPurge,
        // The guard knows sessions through a port; the people feature keeps them.
        { provide: SESSION_AUTHENTICATOR, useExisting: PeopleService },
        { provide: APP_GUARD, useClass: ApiKeyGuard },
      ],
    };
  }
}
