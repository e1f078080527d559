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
    const items = await Promise.all(
      found.items.map(async (vehicle) => {
        const v = vehicle.toState();
        const [driver, notices] = await Promise.all([
          v.driverId ? this.stores.drivers.findById(v.driverId) : undefined,
          this.enforcement.openNoticesOf(v.id),
        ]);
        return toPackVehicle(v, driver, notices, now);
      }),
    );
    return { ...found, items };
  }
}
