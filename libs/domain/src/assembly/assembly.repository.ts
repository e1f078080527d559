import type { Page, PageRequest } from '../shared/page';
import type { Assembly } from './assembly';
import type { AssemblyUser } from './assembly-user';
import type { Region } from './region';
import type { InspectionSettings } from '../vehicle/inspection-grades';

/** Ports for assemblies, their regions and their users. Lists are newest first, keyset-paged. */
export interface RegionRepository {
  add(region: Region): Promise<Region>;
  findById(id: string): Promise<Region | undefined>;
  findByIds(ids: readonly string[]): Promise<Region[]>;
  /** Newest first, keyset-paged. */
  list(page: PageRequest): Promise<Page<Region>>;
}

export interface AssemblyRepository {
  add(assembly: Assembly): Promise<Assembly>;
  findById(id: string): Promise<Assembly | undefined>;
  list(page: PageRequest): Promise<Page<Assembly>>;
  /** The assembly's inspection settings, the defaults for those not set (and for no assembly: undefined). */
  inspectionSettings(id: string | undefined): Promise<InspectionSettings>;
  /** Sets the assembly's inspection settings; false when there is no such assembly. */
  setInspectionSettings(id: string, settings: InspectionSettings): Promise<boolean>;
}

/** Contract: email is unique case-insensitively (`ASSEMBLY_USER_EMAIL_TAKEN`). */
export interface AssemblyUserRepository {
  add(user: AssemblyUser): Promise<AssemblyUser>;
  /** Optimistic: the stored revision must be the user's (`CONCURRENT_UPDATE` otherwise). */
  update(user: AssemblyUser): Promise<AssemblyUser>;
  findById(id: string): Promise<AssemblyUser | undefined>;
  /** Any user holding this (canonical) phone number. */
  findByPhone(phone: string): Promise<AssemblyUser | undefined>;
  list(filter: { assemblyId?: string }, page: PageRequest): Promise<Page<AssemblyUser>>;
}
