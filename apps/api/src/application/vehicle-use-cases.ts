import { CommonErrors, type Clock, type Vehicle } from '@transport/domain';
import { auditEntriesFor, type Actor } from './audit-log';
import type { UnitOfWork, WorkContext } from './unit-of-work';

export interface UseCaseDeps {
  uow: UnitOfWork;
  clock: Clock;
}

/**
 * Loads a vehicle, applies one domain transition, saves it (optimistically, on the revision it was loaded at) and
 * writes one audit entry per event, all in one transaction. `expectedVersion` makes a client's If-Match explicit.
 */
export async function changeVehicle(
  deps: UseCaseDeps,
  vehicleId: string,
  actor: Actor,
  transition: (vehicle: Vehicle, at: Date, context: WorkContext) => void | Promise<void>,
  expectedVersion?: number,
): Promise<Vehicle> {
  return deps.uow.run(async (context) => {
    const vehicle = await context.vehicles.findById(vehicleId);
    if (!vehicle) throw CommonErrors.notFound('vehicle', vehicleId);
    if (expectedVersion !== undefined && expectedVersion !== vehicle.version) throw CommonErrors.concurrentUpdate('vehicle', vehicleId);
    const before = vehicle.toState();
    await transition(vehicle, deps.clock.now(), context);
    const saved = await context.vehicles.update(vehicle);
    await context.audit.append(auditEntriesFor('vehicle', vehicle.pullEvents(), actor, before, saved.toState()));
    return saved;
  });
}

export function approveVehicle(deps: UseCaseDeps, vehicleId: string, actor: Actor, expectedVersion?: number): Promise<Vehicle> {
  return changeVehicle(deps, vehicleId, actor, (vehicle, at) => vehicle.approve(actor.id, at), expectedVersion);
}

export function inspectVehicle(deps: UseCaseDeps, vehicleId: string, checklist: unknown, actor: Actor, expectedVersion?: number): Promise<Vehicle> {
  return changeVehicle(deps, vehicleId, actor, (vehicle, at) => vehicle.inspect(checklist, actor.id, at), expectedVersion);
}
