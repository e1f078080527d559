import type { Page, PageRequest } from '../shared/page';
import type { Trip } from './trip';

/**
 * Port: where trips are kept. `listCreatedBetween` returns trips with `from <= createdAt < to`, newest first,
 * keyset-paged, of one assembly when `assemblyId` is given. Ticket numbers are unique (`TRIP_TICKET_TAKEN`). `update` is optimistic on `version`.
 */
export interface TripRepository {
  add(trip: Trip): Promise<Trip>;
  update(trip: Trip): Promise<Trip>;
  findById(id: string): Promise<Trip | undefined>;
  listCreatedBetween(range: { from: Date; to: Date }, page: PageRequest, assemblyId?: string): Promise<Page<Trip>>;
}
