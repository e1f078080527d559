import type { Page, PageRequest, StationState, TransportUnionState, Vehicle, VehicleListFilter } from '@transport/domain';
import type { RepositoryBackendPorts } from '../persistence/repositories';

export interface VehiclePage {
  page: Page<Vehicle>;
  stations: Map<string, StationState>;
  unions: Map<string, TransportUnionState>;
}

/** A page of vehicles with the stations and unions they link to, fetched in two batched lookups. */
export async function listVehicles(repos: Pick<RepositoryBackendPorts, 'vehicles' | 'stations' | 'unions'>, filter: VehicleListFilter, request: PageRequest): Promise<VehiclePage> {
  const page = await repos.vehicles.list(filter, request);
  const states = page.items.map((v) => v.toState());
  const stationIds = [...new Set(states.flatMap((s) => (s.stationId ? [s.stationId] : [])))];
  const unionIds = [...new Set(states.flatMap((s) => (s.transportUnionId ? [s.transportUnionId] : [])))];
  const [stations, unions] = await Promise.all([repos.stations.findByIds(stationIds), repos.unions.findByIds(unionIds)]);
  return {
    page,
    stations: new Map(stations.map((s) => [s.id, s.toState()])),
    unions: new Map(unions.map((u) => [u.id, u.toState()])),
  };
}
