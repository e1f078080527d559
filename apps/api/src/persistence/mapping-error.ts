import { isDomainError } from '@transport/domain';

/**
 * A stored row that does not make a valid domain object (hand-edited data, a bad migration). It is a server fault,
 * never silently turned into null or a default.
 */
export class MappingError extends Error {
  override readonly name = 'MappingError';

  constructor(table: string, id: string, reason: string) {
    super(`Row ${id} of ${table} cannot be mapped: ${reason}`);
  }
}

/** Runs a mapping step, turning a domain validation failure into a MappingError for that row. */
export function mapped<T>(table: string, id: string, step: () => T): T {
  try {
    return step();
  } catch (error) {
    if (isDomainError(error)) throw new MappingError(table, id, error.message);
    throw error;
  }
}

/** Optional columns: SQL NULL becomes an absent field, never `null`. */
export function optional<T>(value: T | null): T | undefined {
  return value === null ? undefined : value;
}
