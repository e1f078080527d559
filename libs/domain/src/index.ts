// Shared kernel: errors, ports for time, ids, randomness and hashing, value objects.
export * from './shared/domain-error';
export * from './shared/error-codes';
export * from './shared/common.errors';
export * from './shared/clock';
export * from './shared/random-source';
export * from './shared/secret-hasher';
export * from './shared/id-generator';
export * from './shared/events';
export * from './shared/page';
export * from './shared/money';
export * from './shared/geo-point';
export * from './shared/contact';
export * from './shared/identity';
export * from './shared/values';
export * from './shared/mutable';
export * from './shared/sms-parts';
export * from './shared/language';

export * from './owner/vehicle-owner';
export * from './owner/vehicle-owner.repository';

export * from './vehicle/inspection-checklist';
export * from './vehicle/inspection-photo';
export * from './vehicle/inspection-grades';
export * from './vehicle/inspection-record';
export * from './vehicle/fraud-signs';
export * from './vehicle/vehicle-fields';
export * from './vehicle/colours';
export * from './vehicle/certificate';
export * from './vehicle/check-code';
export * from './vehicle/vehicle.errors';
export * from './vehicle/vehicle';
export * from './vehicle/vehicle.repository';

export * from './driver/driver-fields';
export * from './driver/approval-checklist';
export * from './driver/activation-key';
export * from './driver/driver.errors';
export * from './driver/driver';
export * from './driver/driver.repository';

export * from './assembly/region';
export * from './assembly/assembly';
export * from './assembly/assembly-user';
export * from './assembly/duties';
export * from './assembly/jurisdiction';
export * from './assembly/assembly.repository';
export * from './station/station';
export * from './station/station.repository';
export * from './transport-union/transport-union';
export * from './transport-union/transport-union.repository';

export * from './trip/pricing';
export * from './trip/trip.errors';
export * from './trip/trip';
export * from './trip/trip.repository';

export * from './transaction/provider-messages';
export * from './transaction/reference-attempts';
export * from './transaction/payment-provider';
export * from './transaction/transaction';
export * from './transaction/transaction.repository';
export * from './enforcement/notice.errors';
export * from './enforcement/offence-catalogue';
export * from './enforcement/notice';
export * from './enforcement/notice-payment';
export * from './registry/registry-search';
export * from './repositories';

// Application ports: unit of work, audit log, the payment pipeline's stores.
export * from './application/audit-log';
export * from './application/payment-stores';
export * from './application/unit-of-work';

// Reminders before documents lapse: which threshold is due, quiet hours, the message.
export * from './reminder/reminder-schedule';
