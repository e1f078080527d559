import type { RepositoryBackendPorts } from '../persistence/repositories';
import type { AuditLog } from './audit-log';

/** What a use case may touch inside one transaction: every repository and the audit log. */
export interface WorkContext extends RepositoryBackendPorts {
  audit: AuditLog;
}

/** Port: runs a use case atomically. Everything written inside `run` is committed together, or not at all. */
export interface UnitOfWork {
  run<T>(work: (context: WorkContext) => Promise<T>): Promise<T>;
}
