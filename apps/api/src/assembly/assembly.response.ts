import type { AssemblyState, AssemblyUserState, RegionState } from '@transport/domain';

export interface RegionResponse {
  _id: string;
  name: string;
  country: string;
}

export interface AssemblyResponse {
  _id: string;
  name: string;
  region: RegionResponse;
  digitalAddress: string;
  type: string;
  createdAt: string;
  updatedAt: string;
  __v: number;
}

export interface AssemblyUserResponse {
  _id: string;
  assembly: string;
  name: string;
  email: string;
  phone: string;
  role: string;
  createdAt: string;
  updatedAt: string;
  __v: number;
}

export const toRegionResponse = (r: RegionState): RegionResponse => ({ _id: r.id, name: r.name, country: r.country });

export function toAssemblyResponse(a: AssemblyState, region: RegionState): AssemblyResponse {
  return {
    _id: a.id, name: a.name, region: toRegionResponse(region), digitalAddress: a.digitalAddress, type: a.type,
    createdAt: a.createdAt.toISOString(), updatedAt: a.updatedAt.toISOString(), __v: a.version,
  };
}

export function toAssemblyUserResponse(u: AssemblyUserState): AssemblyUserResponse {
  return {
    _id: u.id, assembly: u.assemblyId, name: u.name, email: u.email, phone: u.phone, role: u.role,
    createdAt: u.createdAt.toISOString(), updatedAt: u.updatedAt.toISOString(), __v: u.version,
  };
}
