import type { Driver, RandomSource, SecretHasher } from '@transport/domain';
import type { Actor } from './audit-log';
import { changeAggregate, type UseCaseDeps } from './change-aggregate';
import type { WorkContext } from './unit-of-work';

/** The activation key hash never enters the audit log. */
const redact = (state: object) => {
  const { activationKeyHash: _hash, ...rest } = state as { activationKeyHash?: string };
  return rest;
};

const driverChange = (id: string, actor: Actor, expectedVersion: number | undefined, action: string) => ({
  entity: 'driver',
  store: (c: WorkContext) => c.drivers,
  id,
  actor,
  expectedVersion,
  action,
  redact,
});

/**
 * The driver's own step. A wrong key is saved (it counts towards the five-try lock) before it is reported, so the
 * lock cannot be dodged by the error rolling the count back.
 */
export async function activateDriver(deps: UseCaseDeps & { hasher: SecretHasher }, driverId: string, key: string, actor: Actor): Promise<Driver> {
  const { saved, result } = await changeAggregate(deps, driverChange(driverId, actor, undefined, 'DriverActivation'), (d, at) => d.activate(key, at, deps.hasher));
  if (!result.activated) throw result.error;
  return saved;
}

export async function approveDriver(deps: UseCaseDeps, driverId: string, checklist: unknown, actor: Actor, expectedVersion?: number): Promise<Driver> {
  return (await changeAggregate(deps, driverChange(driverId, actor, expectedVersion, 'DriverApproved'), (d, at) => d.approve(checklist, actor.id, at))).saved;
}

export async function revokeDriver(deps: UseCaseDeps, driverId: string, reason: string, actor: Actor, expectedVersion?: number): Promise<Driver> {
  return (await changeAggregate(deps, driverChange(driverId, actor, expectedVersion, 'DriverApprovalRevoked'), (d, at) => d.revokeApproval(reason, actor.id, at))).saved;
}

/** online/busy as the platform reports them; going offline and becoming free are applied before the others. */
export async function setDriverStatus(deps: UseCaseDeps, driverId: string, status: { online?: boolean; busy?: boolean }, actor: Actor, expectedVersion?: number): Promise<Driver> {
  return (
    await changeAggregate(deps, driverChange(driverId, actor, expectedVersion, 'DriverStatus'), (d, at) => {
      if (status.busy === false) d.setBusy(false, at);
      if (status.online === true) d.goOnline(at);
      if (status.busy === true) d.setBusy(true, at);
      if (status.online === false) d.goOffline(at);
    })
  ).saved;
}

export async function reissueActivationKey(deps: UseCaseDeps & { random: RandomSource; hasher: SecretHasher }, driverId: string, actor: Actor): Promise<{ driver: Driver; activationKey: string }> {
  const { saved, result } = await changeAggregate(deps, driverChange(driverId, actor, undefined, 'DriverActivationKeyReissued'), (d, at) => d.reissueActivationKey(deps, at));
  return { driver: saved, activationKey: result };
}
