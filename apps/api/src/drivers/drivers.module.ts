import { Module } from '@nestjs/common';
import { DEFAULT_ACTIVATION_POLICY, type ActivationPolicy } from '@transport/domain';
import type { AppConfig } from '../config';
import { APP_CONFIG } from '../core/tokens';
import { DriversController } from './drivers.controller';
import { ACTIVATION_POLICY, DriversService } from './drivers.service';

/** Activation as configured: the key's lifetime, and the domain's doubling delays up to the configured longest. */
export function activationPolicy(config: AppConfig): ActivationPolicy {
  const max = config.activation.maxDelaySeconds * 1000;
  return {
    keyLifetimeMs: config.activation.keyHours * 3_600_000,
    delayMs: (failures) => Math.min(DEFAULT_ACTIVATION_POLICY.delayMs(failures), max),
  };
}

@Module({
  controllers: [DriversController],
  providers: [DriversService, { provide: ACTIVATION_POLICY, inject: [APP_CONFIG], useFactory: activationPolicy }],
})
export class DriversModule {}
