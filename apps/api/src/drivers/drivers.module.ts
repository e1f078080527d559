import { Module } from '@nestjs/common';
import { DEFAULT_ACTIVATION_POLICY, type ActivationPolicy } from '@transport/domain';
import type { AppConfig } from '../config';
import { Bulkhead } from '../core/platform/bulkhead';
import { APP_CONFIG } from '../core/tokens';
import { DriverWorkers } from './driver-workers';
import { DriversController, REGISTRATION_BULKHEAD } from './drivers.controller';
import { ACTIVATION_POLICY, DriversService } from './drivers.service';

/** Activation as configured: the key's lifetime, and the domain's doubling delays up to the configured longest. */
export function activationPolicy(config: AppConfig): ActivationPolicy {
  const max = config.activation.maxDelaySeconds * 1000;
  return {
    keyLifetimeMs: config.activation.keyHours * 3_600_000,
    delayMs: (failures) => Math.min(DEFAULT_ACTIVATION_POLICY.delayMs(failures), max),
  };
}

/**
 * Anonymous registrations one instance works on at once (REGISTRATION_CONCURRENCY), as many again waiting a moment,
 * at most REGISTRATION_RATE_PER_SECOND admitted a second, and past that a 429: a flood from many addresses, each under
 * its own limit, still cannot take the pool, nor more than a small share of the event loop (a registration costs the
 * instance milliseconds of CPU: a write transaction through Prisma), from the public lists (docs/performance.md: the
 * flood).
 */
export function registrationBulkhead(config: AppConfig): Bulkhead {
  const limit = config.activation.registrationConcurrency;
  return new Bulkhead(limit, limit, 'Too many registrations are being worked on; try again in 1 s', {
    perSecond: config.activation.registrationRatePerSecond,
  });
}

@Module({
  controllers: [DriversController],
  providers: [
    DriversService,
    DriverWorkers,
    { provide: ACTIVATION_POLICY, inject: [APP_CONFIG], useFactory: activationPolicy },
    { provide: REGISTRATION_BULKHEAD, inject: [APP_CONFIG], useFactory: registrationBulkhead },
  ],
})
export class DriversModule {}
