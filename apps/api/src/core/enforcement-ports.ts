import type { AuditLog, GeoPoint, Notice, OffenceCatalogueState, Page, PageRequest } from '@transport/domain';

// The roadside's ports (issue 47), beside the app's other ports (ports.ts re-exports them).

/** One roadside check as the log keeps it (issue 47): who, when, where if given, which vehicle. */
export interface RoadsideCheckRecord {
  id: string;
  officerId: string;
  /** The officer's assembly: whose admin reads the check. */
  assemblyId: string;
  /** Absent: nothing matched what was asked. */
  vehicleId?: string;
  by: 'plate' | 'token';
  /** The plate as typed (a token is never kept). */
  query?: string;
  madeAt: Date;
  location?: GeoPoint;
  createdAt: Date;
}

/** The enforcement rows inside one transaction: catalogues, notices and the audit log, all or nothing. */
export interface EnforcementWork {
  latestCatalogue(assemblyId: string): Promise<OffenceCatalogueState | undefined>;
  addCatalogue(catalogue: OffenceCatalogueState): Promise<void>;
  findNotice(id: string): Promise<Notice | undefined>;
  addNotice(notice: Notice): Promise<void>;
  /** Optimistic on the notice's version (409 CONCURRENT_UPDATE when another change came first). */
  updateNotice(notice: Notice): Promise<Notice>;
  audit: AuditLog;
}

/**
 * Port: where the roadside's records are kept (issue 47). The check log is written on its own; catalogues and notices
 * change inside `run`, with their audit entries.
 */
export interface EnforcementStore {
  addCheck(check: RoadsideCheckRecord): Promise<void>;
  /** Newest first, keyset-paged by `_id` cursor; of one assembly when given. */
  listChecks(assemblyId: string | undefined, page: PageRequest): Promise<Page<RoadsideCheckRecord>>;
  latestCatalogue(assemblyId: string): Promise<OffenceCatalogueState | undefined>;
  findNotice(id: string): Promise<Notice | undefined>;
  /** The vehicle's notices still owed or awaiting a decision (issued, overdue, contested, decided), newest first. */
  openNoticesOf(vehicleId: string): Promise<Notice[]>;
  run<T>(work: (tx: EnforcementWork) => Promise<T>): Promise<T>;
}

/**
 * Port: each assembly's own merchant record, the merchant of its notices' payments (issue 47). Made on first need, at
 * most one per assembly (two first payments at once make one), with its creation audited; it has no API key, so no
 * merchant's key sees its transactions (an admin may issue the assembly one later: it sees its own notices' only).
 */
export interface AssemblyMerchants {
  merchantOf(
    assembly: { id: string; name: string },
    make: { id: string; signingSecret: string; at: Date },
  ): Promise<string>;
}
