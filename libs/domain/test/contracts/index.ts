import type { OpenBackend } from './backend';
import { driverTripTransactionContract } from './driver-trip-transaction.contract';
import { inspectionHistoryContract } from './inspection-history.contract';
import { jurisdictionContract } from './jurisdiction.contract';
import { listOrderContract } from './list-order.contract';
import { referenceDataContract } from './reference-data.contract';
import { unitOfWorkContract } from './unit-of-work.contract';
import { vehicleAndOwnerContract } from './vehicle-and-owner.contract';

export type { OpenBackend, RepositoryBackend } from './backend';
export type { OpenUnitOfWorkBackend, UnitOfWorkBackend } from './unit-of-work.contract';
export { unitOfWorkContract };

/** The whole repository contract: every port, the same tests, whatever the backend. */
export function repositoryContracts(name: string, open: OpenBackend): void {
  vehicleAndOwnerContract(name, open);
  driverTripTransactionContract(name, open);
  referenceDataContract(name, open);
  jurisdictionContract(name, open);
  listOrderContract(name, open);
  inspectionHistoryContract(name, open);
}
