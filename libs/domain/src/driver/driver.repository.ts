import type { DriverStanding } from '../registry/registry-search';
import type { Page, PageRequest } from '../shared/page';
import type { Driver, DriverState } from './driver';

export interface DriverListFilter {
  approved?: boolean;
  email?: string;
  /** One assembly's drivers only (an assembly user's jurisdiction). */
  assemblyId?: string;
  /** Where the drivers stand: approved, their approval revoked, or awaiting approval (registered, or withdrawn). */
  standing?: DriverStanding;
  /** Drivers whose licence ends on or before this instant (expired ones included). */
  licenseEndingBy?: Date;
}

/** The fields a driver list can be ordered by (`PageRequest.order`); newest first without one. */
export const DRIVER_SORT_FIELDS = ['createdAt', 'name'] as const;
export type DriverSortField = (typeof DRIVER_SORT_FIELDS)[number];

/**
 * A driver as lists show them to the public (a name and whether an assembly approved them, and the rating): read
 * straight from storage, no aggregate restored.
 */
export type DriverSummary = Pick<
  DriverState,
  'id' | 'name' | 'approved' | 'ratingTotal' | 'ratingCount' | 'createdAt' | 'updatedAt' | 'version'
>;

/** A driver's summary, from their whole state (with the envelope every record has: its times and revision). */
export function driverSummaryOf(s: DriverState): DriverSummary {
  return {
    id: s.id,
    name: s.name,
    approved: s.approved,
    ratingTotal: s.ratingTotal,
    ratingCount: s.ratingCount,
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
    version: s.version,
  };
}

/**
 * Port: where drivers are kept. Contract: emails are compared case-insensitively; an email is unique among activated
 * (`verified`) drivers only (`DRIVER_EMAIL_TAKEN`, conflict, on the `add` or `update` that would make a second one),
 * so drivers awaiting activation may share one with each other and with an activated driver; `update` is optimistic on
 * `version` (`CONCURRENT_UPDATE`); lists are newest first or in the page's `order`, keyset-paged.
 */
export interface DriverRepository {
  add(driver: Driver): Promise<Driver>;
  update(driver: Driver): Promise<Driver>;
  findById(id: string): Promise<Driver | undefined>;
  /** Every driver with this email (any case): the activated one, if any, first; then the others, oldest first. */
  findByEmail(email: string): Promise<Driver[]>;
  list(filter: DriverListFilter, page: PageRequest<DriverSortField>): Promise<Page<Driver>>;
  /** The same rows as `list` with the same filter and page, as summaries. */
  listSummaries(filter: DriverListFilter, page: PageRequest<DriverSortField>): Promise<Page<DriverSummary>>;
}
