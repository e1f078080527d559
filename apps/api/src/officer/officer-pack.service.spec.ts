import type { Actor, DataStores, VehicleState } from '@transport/domain';
import type { EnforcementStore } from '../core/ports';
import { OfficerPackService } from './officer-pack.service';

// The enforcer's pack reads a page's drivers and open notices in one batch, not a query per vehicle (issue 47): what
// each vehicle carries is tested over HTTP in test/offence-photos.e2e.spec.ts; here, how many reads a page costs.

describe('OfficerPackService', () => {
  const vehicle = (id: string, driverId?: string) => ({
    toState: () =>
      ({ id, registrationNumber: `GR ${id}-24`, assemblyId: 'a1', ...(driverId && { driverId }) }) as VehicleState,
  });

  it('reads the drivers and notices of a whole page at once, whatever its size', async () => {
    const reads: string[] = [];
    const stores = {
      assemblyUsers: {
        findById: async () => ({ toState: () => ({ id: 'u1', role: 'enforcer', assemblyId: 'a1' }) }),
      },
      vehicles: {
        list: async () => ({ items: [vehicle('1', 'd1'), vehicle('2', 'd1'), vehicle('3'), vehicle('4', 'd2')] }),
      },
      drivers: {
        findById: async (id: string) => {
          reads.push(`driver ${id}`);
          return undefined;
        },
      },
    } as unknown as DataStores;
    const enforcement = {
      openNoticesOf: async (id: string) => {
        reads.push(`notices of ${id}`);
        return [];
      },
      packFacts: async (vehicleIds: string[], driverIds: string[]) => {
        reads.push(`facts of ${vehicleIds.join(',')} and ${driverIds.join(',')}`);
        return { drivers: new Map(), notices: new Map() };
      },
    } as unknown as EnforcementStore;
    const clock = { now: () => new Date('2026-12-07T09:00:00Z') };
    const service = new OfficerPackService(stores, enforcement, clock as never);
    const actor = { role: 'assembly', id: 'u1', assemblyId: 'a1' } as unknown as Actor;
    const page = await service.page(500, undefined, actor);
    expect(page.items.map((v) => v._id)).toEqual(['1', '2', '3', '4']);
    expect(reads).toEqual(['facts of 1,2,3,4 and d1,d2']);
  });
});
