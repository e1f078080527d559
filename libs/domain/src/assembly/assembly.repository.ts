import type { Page, PageRequest } from '../shared/page';
import type { Assembly } from './assembly';
import type { AssemblyUser } from './assembly-user';
import type { Region } from './region';

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
