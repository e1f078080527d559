import type { Page, PageRequest, StationState, TransportUnionState, Vehicle, VehicleListFilter } from '@transport/domain';
import type { RepositoryBackendPorts } from '../persistence/repositories';

export interface LinkedRecords {
  stations: Map<string, StationState>;
  unions: Map<string, TransportUnionState>;
}

export interface VehiclePage extends LinkedRecords {
  page: Page<Vehicle>;
}

type LinkRepos = Pick<RepositoryBackendPorts, 'stations' | 'unions'>;

/** The stations and unions some vehicles link to, fetched in two batched lookups. */
export async function linkedRecords(repos: LinkRepos, vehicles: readonly Vehicle[]): Promise<LinkedRecords> {
  const states = vehicles.map((v) => v.toState());
  const stationIds = [...new Set(states.flatMap((s) => (s.stationId ? [s.stationId] : [])))];
  const unionIds = [...new Set(states.flatMap((s) => (s.transportUnionId ? [s.transportUnionId] : [])))];
  const [stations, unions] = await Promise.all([repos.stations.findByIds(stationIds), repos.unions.findByIds(unionIds)]);
  return { stations: new Map(stations.map((s) => [s.id, s.toState()])), unions: new Map(unions.map((u) => [u.id, u.toState()])) };
}

/** A page of vehicles with the records they link to. */
export async function listVehicles(repos: Pick<RepositoryBackendPorts, 'vehicles'> & LinkRepos, filter: VehicleListFilter, request: PageRequest): Promise<VehiclePage> {
  const page = await repos.vehicles.list(filter, request);
  return { page, ...(await linkedRecords(repos, page.items)) };
}
