import type { Clock, DataStores, IdGenerator } from '@transport/domain';
import type { ApiKeyRegistry, AuditTrail, MerchantRegistry } from '../core/ports';
import { AdminService } from './admin.service';

/** The operator's use cases on fakes, each port given by name. */
export function adminOnFakes(p: {
  keys: ApiKeyRegistry;
  merchants: MerchantRegistry;
  audit: AuditTrail;
  stores: DataStores;
  clock: Clock;
  ids: IdGenerator;
}): AdminService {
  return new AdminService(p.keys, p.merchants, p.audit, p.stores, p.clock, p.ids);
}
