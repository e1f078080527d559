import type { Page, PageRequest } from '../shared/page';
import type { Station } from './station';

export interface StationRepository {
  add(station: Station): Promise<Station>;
  findById(id: string): Promise<Station | undefined>;
  findByIds(ids: readonly string[]): Promise<Station[]>;
  /** Newest first, keyset-paged. */
  list(page: PageRequest): Promise<Page<Station>>;
}
