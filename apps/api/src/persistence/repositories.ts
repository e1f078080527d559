import type { Repositories } from '@transport/domain';

/** The repository ports of the domain, as one set. */
export type RepositoryBackendPorts = Repositories;
