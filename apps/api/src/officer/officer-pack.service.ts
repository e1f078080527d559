import { Inject, Injectable } from '@nestjs/common';
import type { Actor, Clock, DataStores, Page, VehicleSortField } from '@transport/domain';
import { assertAssemblyDuty } from '../core/auth/duties';
import type { EnforcementStore } from '../core/ports';
import { CLOCK, ENFORCEMENT_STORE, STORES } from '../core/tokens';
import { toPackVehicle, type EnforcementPackVehicleResponse } from './officer-pack';

/** A page of the enforcer's pack: smaller than the inspectors' (each vehicle carries its driver and notices). */
export const ENFORCER_PACK_LIMIT = 500;

/**
 * An enforcer's work pack (issue 47, item 2): the vehicles a task-force officer meets (their assembly's; a nationwide
 * officer: every assembly's), each with what the roadside check answers. Oldest first, paged as the inspectors' pack.
 */
@Injectable()
export class OfficerPackService {
  constructor(
    @Inject(STORES) private readonly stores: DataStores,
    @Inject(ENFORCEMENT_STORE) private readonly enforcement: EnforcementStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async page(limit: number, after: string | undefined, actor: Actor): Promise<Page<EnforcementPackVehicleResponse>> {
    await assertAssemblyDuty(this.stores.assemblyUsers, actor, 'checkVehicles');
    const officer = (await this.stores.assemblyUsers.findById(actor.id))?.toState();
    const found = await this.stores.vehicles.list(
      { ...(officer?.nationwide !== true && { assemblyId: actor.assemblyId ?? '' }) },
      { limit, after, count: false, order: { by: 'createdAt' satisfies VehicleSortField, descending: false } },
    );
    const now = this.clock.now();
    // Two queries for the page, whatever its size: its vehicles' drivers and open notices, by their ids.
    const states = found.items.map((vehicle) => vehicle.toState());
    const driverIds = [...new Set(states.flatMap((v) => (v.driverId ? [v.driverId] : [])))];
    const facts = await this.enforcement.packFacts(
      states.map((v) => v.id),
      driverIds,
    );
    const items = states.map((v) =>
      toPackVehicle(v, v.driverId ? facts.drivers.get(v.driverId) : undefined, facts.notices.get(v.id) ?? [], now),
    );
    return { ...found, items };
  }
}
