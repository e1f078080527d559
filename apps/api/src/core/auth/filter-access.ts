import { AppError } from '../errors';
import { unauthorized } from './api-key.guard';
import type { Principal } from './principal';
import { seesFields, viewerOf, type ViewedResource } from './views';

/**
 * A list filter on what the caller's view of the records does not show would tell them that much about every record:
 * 401 without a key (a key may see it), 403 with a key whose view does not show it. `shown`: the fields the filter
 * reads, or `all` when it reads what only the whole record tells (the staff's view).
 */
export function assertFilterShown(
  principal: Principal | undefined,
  resource: ViewedResource,
  shown: readonly string[] | 'all',
  filter: string,
): void {
  if (seesFields(resource, viewerOf(principal), shown)) return;
  if (!principal) throw unauthorized(`Filtering by ${filter} needs an API key`);
  throw new AppError(
    'FORBIDDEN',
    `Filtering by ${filter} is for keys whose view shows it (docs/api.md, "Who sees what"): not a ${principal.role} key`,
  );
}
