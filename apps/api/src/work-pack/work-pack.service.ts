import { Inject, Injectable } from '@nestjs/common';
import {
  assemblyScope,
  jurisdictionOf,
  type Actor,
  type DataStores,
  type Page,
  type VehicleSortField,
} from '@transport/domain';
import { assertAssemblyDuty } from '../core/auth/duties';
import { STORES } from '../core/tokens';
import { toWorkPackVehicle, type WorkPackVehicleResponse } from './work-pack.dto';

/**
 * An inspector's work pack: every vehicle of their assembly, reduced to what finding it by its plate and recording an
 * inspection without a signal needs. Oldest first, so a vehicle registered meanwhile joins the last page and leaves
 * the earlier pages (and their ETags) as they were: a refresh with `If-None-Match` answers them 304.
 */
@Injectable()
export class WorkPackService {
  constructor(@Inject(STORES) private readonly stores: DataStores) {}

  async page(limit: number, after: string | undefined, actor: Actor): Promise<Page<WorkPackVehicleResponse>> {
    // Only those who inspect carry the pack (an approver or assembly admin works at a desk, with a signal).
    await assertAssemblyDuty(this.stores.assemblyUsers, actor, 'inspectVehicle');
    const found = await this.stores.vehicles.list(
      { assemblyId: assemblyScope(jurisdictionOf(actor)) },
      { limit, after, count: false, order: { by: 'createdAt' satisfies VehicleSortField, descending: false } },
    );
    return { ...found, items: found.items.map((v) => toWorkPackVehicle(v.toState())) };
  }
}
