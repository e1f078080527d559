import type { fakePorts } from '../core/testing/fixtures';
import { DriversService } from './drivers.service';

/** The drivers use cases on the fakes of every port (for the specs of any feature that needs drivers). */
export function driversOnFakes(p: ReturnType<typeof fakePorts>): DriversService {
  return new DriversService(p.uow, p.stores, p.clock, p.ids, p.random, p.hasher, p.limits, p.messages, p.activation);
}
