import { DomainError, type Vehicle } from '@transport/domain';
import type { Actor } from './audit-log';
import { changeAggregate, type UseCaseDeps } from './change-aggregate';

export type { UseCaseDeps } from './change-aggregate';

const vehicleChange = (id: string, actor: Actor, expectedVersion: number | undefined, action: string) => ({
  entity: 'vehicle',
  store: (c: { vehicles: { findById(id: string): Promise<Vehicle | undefined>; update(v: Vehicle): Promise<Vehicle> } }) => c.vehicles,
  id,
  actor,
  expectedVersion,
  action,
});

export async function approveVehicle(deps: UseCaseDeps, vehicleId: string, actor: Actor, expectedVersion?: number): Promise<Vehicle> {
  return (await changeAggregate(deps, vehicleChange(vehicleId, actor, expectedVersion, 'VehicleApproved'), (v, at) => v.approve(actor.id, at))).saved;
}

export async function inspectVehicle(deps: UseCaseDeps, vehicleId: string, checklist: unknown, actor: Actor, expectedVersion?: number): Promise<Vehicle> {
  return (await changeAggregate(deps, vehicleChange(vehicleId, actor, expectedVersion, 'VehicleInspected'), (v, at) => v.inspect(checklist, actor.id, at))).saved;
}

export interface VehicleLinks {
  /** A driver id, or null to unlink the driver. */
  driver?: string | null;
  /** A station id, or null to unlink (the vehicle then shows station: null). */
  station?: string | null;
  transportUnion?: string;
}

/** Links (or unlinks) driver, station and union in one change; every referenced record must exist. */
export async function linkVehicle(deps: UseCaseDeps, vehicleId: string, links: VehicleLinks, actor: Actor, expectedVersion?: number): Promise<Vehicle> {
  const missing = (code: string, field: string, id: string) => new DomainError(code, `${field} ${id} names no record`, 'rule', field);
  return (
    await changeAggregate(deps, vehicleChange(vehicleId, actor, expectedVersion, 'VehicleLinked'), async (v, at, ctx) => {
      if (links.driver === null) v.unlinkDriver(at);
      else if (links.driver !== undefined) {
        const driver = await ctx.drivers.findById(links.driver);
        if (!driver) throw missing('DRIVER_NOT_FOUND', 'driver', links.driver);
        v.linkDriver(driver, at);
      }
      if (links.station !== undefined) {
        if (links.station !== null && !(await ctx.stations.findById(links.station))) throw missing('STATION_NOT_FOUND', 'station', links.station);
        v.linkStation(links.station, at);
      }
      if (links.transportUnion !== undefined) {
        if (!(await ctx.unions.findById(links.transportUnion))) throw missing('TRANSPORT_UNION_NOT_FOUND', 'transportUnion', links.transportUnion);
        v.linkTransportUnion(links.transportUnion, at);
      }
    })
  ).saved;
}

