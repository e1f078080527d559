import type { Station } from './station';

export interface StationRepository {
  add(station: Station): Promise<Station>;
  findById(id: string): Promise<Station | undefined>;
  findByIds(ids: readonly string[]): Promise<Station[]>;
}
