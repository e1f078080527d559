import type {
  AuditLog,
  Driver,
  GeoPoint,
  Notice,
  NoticeState,
  OffenceCatalogueState,
  Page,
  PageRequest,
} from '@transport/domain';

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
  settings(assemblyId: string): Promise<EnforcementSettings>;
  setSettings(assemblyId: string, settings: EnforcementSettings, at: Date): Promise<void>;
  audit: AuditLog;
}

/** An assembly's enforcement settings (issue 47); an assembly that never set them has the defaults. */
export interface EnforcementSettings {
  /** Refuse approving or renewing a vehicle while it has overdue notices (off by default). */
  overdueBlocksVehicle: boolean;
}

/** Which rows a report reads: created (notices, checks) or paid (notices) in [from, to). */
export interface ReportScope {
  assemblyId?: string;
  officerId?: string;
  from: Date;
  to: Date;
}

/** The drivers and open notices of a page of vehicles, by driver id and by vehicle id. */
export interface PackFacts {
  drivers: Map<string, Driver>;
  notices: Map<string, Notice[]>;
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
  /** Contested notices awaiting a decision, oldest contest first; of one assembly when given. */
  openContests(assemblyId: string | undefined, limit: number): Promise<Notice[]>;
  /** Ids of notices owed past their due time not yet marked overdue (issued or decided, due before `at`). */
  pastDue(at: Date, limit: number): Promise<string[]>;
  settings(assemblyId: string): Promise<EnforcementSettings>;
  /** The notices received or paid in the scope's time, and the checks made in it (of one assembly or officer). */
  reportRows(scope: ReportScope): Promise<{ notices: NoticeState[]; checks: RoadsideCheckRecord[] }>;
  /**
   * For a page of the enforcer's pack, in two queries whatever its size: the drivers named (by id) and the open
   * notices of the vehicles (by vehicle id, newest first, at most 50 each, as openNoticesOf).
   */
  packFacts(vehicleIds: string[], driverIds: string[]): Promise<PackFacts>;
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
