import type { Type } from '@nestjs/common';
import { AdminModule } from '../src/admin/admin.module';
import { CertificatesModule } from '../src/certificates/certificates.module';
import { HealthController } from '../src/core/health.controller';
import { InspectionPhotosModule } from '../src/inspection-photos/inspection-photos.module';
import { DriversModule } from '../src/drivers/drivers.module';
import { EnforcementModule } from '../src/enforcement/enforcement.module';
import { FraudFlagsModule } from '../src/fraud-flags/fraud-flags.module';
import { OfficerModule } from '../src/officer/officer.module';
import { OwnersModule } from '../src/owners/owners.module';
import { PaymentsModule } from '../src/payments/payments.module';
import { PeopleModule } from '../src/people/people.module';
import { ReferenceDataModule } from '../src/reference-data/reference-data.module';
import { RemindersModule } from '../src/reminders/reminders.module';
import { SearchModule } from '../src/search/search.module';
import { TripsModule } from '../src/trips/trips.module';
import { ReportsModule } from '../src/reports/reports.module';
import { UssdModule } from '../src/ussd/ussd.module';
import { VehiclesModule } from '../src/vehicles/vehicles.module';
import { WorkPackModule } from '../src/work-pack/work-pack.module';

/** Every controller the app mounts: each feature module's, and the app module's own (health). */
export function controllersOfApp(): Type[] {
  const features = [
    VehiclesModule,
    WorkPackModule,
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
  ];
  return [...features.flatMap((m) => (Reflect.getMetadata('controllers', m) as Type[]) ?? []), HealthController];
}
