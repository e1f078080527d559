import type { Page, PageRequest } from '../shared/page';
import type { VehicleOwner } from './vehicle-owner';

/**
 * Port: where vehicle owners are kept. `search` is a case-insensitive substring match on name, phone (either
 * spelling: 0244... or +233244...) or email, newest first. `update` is optimistic on `version`. Lists and searches
 * given an `assemblyId` hold that assembly's owners only (an assembly user's jurisdiction).
 */
export interface VehicleOwnerRepository {
  add(owner: VehicleOwner): Promise<VehicleOwner>;
  update(owner: VehicleOwner): Promise<VehicleOwner>;
  findById(id: string): Promise<VehicleOwner | undefined>;
  findByIds(ids: readonly string[]): Promise<VehicleOwner[]>;
  list(page: PageRequest, assemblyId?: string): Promise<Page<VehicleOwner>>;
  search(query: string, page: PageRequest, assemblyId?: string): Promise<Page<VehicleOwner>>;
}
