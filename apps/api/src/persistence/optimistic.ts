import { CommonErrors } from '@transport/domain';

/**
 * The end of every optimistic update (`UPDATE ... WHERE id = ? AND version = ?`): no row changed means the record is
 * gone or someone else saved a newer revision first. Nothing was written either way.
 */
export async function assertOneUpdated(
  count: number,
  what: string,
  id: string,
  exists: () => Promise<unknown>,
): Promise<void> {
  if (count === 1) return;
  if (!(await exists())) throw CommonErrors.notFound(what, id);
  throw CommonErrors.concurrentUpdate(what, id);
}
