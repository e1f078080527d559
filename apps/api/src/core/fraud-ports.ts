// The port of the signs of fraud (issue 46, item 6; docs/fraud-flags.md): the flags, the thresholds, the stations'
// locations, and what the signs read of inspections and photos. Adapter: persistence/prisma-fraud-flags.ts.
import type {
  AuditEntryInput,
  FraudFlagClearance,
  FraudFlagDetails,
  FraudFlagKind,
  FraudThresholds,
  GeoPoint,
  Page,
  PageRequest,
  PassCount,
  PhotoUse,
} from '@transport/domain';

/** A flag as stored. */
export interface FraudFlagRecord {
  id: string;
  kind: FraudFlagKind;
  /** What the sign is about, once (a replay of the event raises nothing new). */
  signKey: string;
  assemblyId: string;
  vehicleId?: string;
  inspectorId?: string;
  inspectionKey?: string;
  details: FraudFlagDetails;
  raisedAt: Date;
  cleared?: FraudFlagClearance;
}

export interface FraudFlagFilter {
  /** One assembly's flags (an assembly admin's); undefined: every assembly's. */
  assemblyId?: string;
  status?: 'open' | 'cleared';
  kind?: FraudFlagKind;
}

export interface FraudFlags {
  /** Stores the flag unless one with its signKey exists: whether it was stored. */
  raise(flag: FraudFlagRecord): Promise<boolean>;
  /** Newest first, keyset-paged by id. */
  list(filter: FraudFlagFilter, page: PageRequest): Promise<Page<FraudFlagRecord>>;
  find(id: string): Promise<FraudFlagRecord | undefined>;
  /** Records the clearance and its audit entry in one transaction, unless the flag was cleared meanwhile (false). */
  clear(id: string, clearance: FraudFlagClearance, audit: AuditEntryInput): Promise<boolean>;
  /** The assembly's thresholds (the defaults when it set none). */
  thresholds(assemblyId: string): Promise<FraudThresholds>;
  /** Sets them, with the audit entry, in one transaction. */
  setThresholds(assemblyId: string, thresholds: FraudThresholds, audit: AuditEntryInput): Promise<void>;
  stationLocation(stationId: string): Promise<GeoPoint | undefined>;
  /** Sets (or, with null, removes) a station's location, with the audit entry, in one transaction. */
  setStationLocation(stationId: string, location: GeoPoint | null, audit: AuditEntryInput): Promise<void>;
  /** The inspector's other inspection made nearest in time to `madeAt` (before or after). */
  nearestInspectionBy(
    inspectorId: string,
    madeAt: Date,
    except: string,
  ): Promise<{ id: string; madeAt: Date } | undefined>;
  /** Where bytes of this SHA-256 were sent, earliest first (at most `limit`). */
  photoUses(sha256: string, limit: number): Promise<PhotoUse[]>;
  /** How many photos a vehicle has under an inspection key. */
  photosOf(vehicleId: string, inspectionKey: string): Promise<number>;
  /** Each inspector's first inspections (not re-inspections) of the assembly's vehicles made since `since`, passed. */
  passCounts(assemblyId: string, since: Date): Promise<Map<string, PassCount>>;
}
