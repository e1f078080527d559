import type { Clock, DataStores, IdGenerator, UnitOfWork } from '@transport/domain';
import type { PeopleDirectory } from '../core/ports';
import { InMemoryPeople } from '../core/testing/fixtures';
import { ReferenceDataService } from './reference-data.service';

/** The reference-data use cases on fakes, each port given by name (people: an empty directory unless given). */
export function referenceDataOnFakes(p: {
  uow: UnitOfWork;
  stores: DataStores;
  clock: Clock;
  ids: IdGenerator;
  people?: PeopleDirectory;
}): ReferenceDataService {
  return new ReferenceDataService(p.uow, p.stores, p.clock, p.ids, p.people ?? new InMemoryPeople());
}
