import {
  DomainError,
  Driver,
  Vehicle,
  type Clock,
  type DriverRegistration,
  type IdGenerator,
  type RandomSource,
  type SecretHasher,
  type VehicleRegistration,
} from '@transport/domain';
import { auditEntriesFor, type Actor } from './audit-log';
import type { UnitOfWork, WorkContext } from './unit-of-work';

export interface RegistrationDeps {
  uow: UnitOfWork;
  clock: Clock;
  ids: IdGenerator;
  random: RandomSource;
  hasher: SecretHasher;
}

async function requireOwner(context: WorkContext, ownerId: string): Promise<void> {
  if (!(await context.owners.findById(ownerId))) {
    throw new DomainError('OWNER_NOT_FOUND', `ownerID ${ownerId} names no vehicle owner; find owners with GET /vehicles/owner/search`, 'rule', 'ownerID');
  }
}

/** Registers a vehicle of an existing owner; it starts uninspected and unapproved. */
export function registerVehicle(deps: RegistrationDeps, input: VehicleRegistration, actor: Actor): Promise<Vehicle> {
  return deps.uow.run(async (context) => {
    const vehicle = Vehicle.register(input, deps.ids, deps.clock.now());
    await requireOwner(context, vehicle.toState().ownerId);
    const saved = await context.vehicles.add(vehicle);
    await context.audit.append(auditEntriesFor('vehicle', vehicle.pullEvents(), actor, null, saved.toState()));
    return saved;
  });
}

/** Registers a driver awaiting activation and approval; the activation key is returned this once. */
export function registerDriver(deps: RegistrationDeps, input: DriverRegistration, actor: Actor): Promise<{ driver: Driver; activationKey: string }> {
  return deps.uow.run(async (context) => {
    const { driver, activationKey } = Driver.register(input, deps, deps.clock.now());
    const ownerId = driver.toState().ownerId;
    if (ownerId) await requireOwner(context, ownerId);
    const saved = await context.drivers.add(driver);
    // The audit keeps the state without the key hash: history is for people, secrets are not.
    const { activationKeyHash: _hash, ...after } = saved.toState();
    await context.audit.append(auditEntriesFor('driver', driver.pullEvents(), actor, null, after));
    return { driver: saved, activationKey };
  });
}
