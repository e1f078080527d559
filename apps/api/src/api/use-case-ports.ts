import type { Clock, IdGenerator, RandomSource, SecretHasher } from '@transport/domain';
import type { UnitOfWork } from '../application/unit-of-work';

/** Everything a use case takes besides its input: one injection instead of five in every controller. */
export interface UseCasePorts {
  uow: UnitOfWork;
  clock: Clock;
  ids: IdGenerator;
  random: RandomSource;
  hasher: SecretHasher;
}
