import type { Page, PageRequest } from '../shared/page';
import type { Driver } from './driver';

export interface DriverListFilter {
  approved?: boolean;
  email?: string;
  /** One assembly's drivers only (an assembly user's jurisdiction). */
  assemblyId?: string;
}

/**
 * Port: where drivers are kept. Contract: email is unique case-insensitively (`DRIVER_EMAIL_TAKEN`, conflict, on
 * `add`); `update` is optimistic on `version` (`CONCURRENT_UPDATE`); lists are newest first, keyset-paged.
 */
export interface DriverRepository {
  add(driver: Driver): Promise<Driver>;
  update(driver: Driver): Promise<Driver>;
  findById(id: string): Promise<Driver | undefined>;
  findByEmail(email: string): Promise<Driver | undefined>;
  list(filter: DriverListFilter, page: PageRequest): Promise<Page<Driver>>;
}
