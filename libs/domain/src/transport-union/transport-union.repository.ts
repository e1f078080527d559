import type { Page, PageRequest } from '../shared/page';
import type { TransportUnion } from './transport-union';

export interface TransportUnionRepository {
  add(union: TransportUnion): Promise<TransportUnion>;
  findById(id: string): Promise<TransportUnion | undefined>;
  findByIds(ids: readonly string[]): Promise<TransportUnion[]>;
  /** Newest first, keyset-paged. */
  list(page: PageRequest): Promise<Page<TransportUnion>>;
}
