import {
  parseGeoPoint,
  DuplicateErrors,
  INSPECTION_ITEMS,
  parseRecordedInspectionChecklist,
  parseInspectionDefects,
  parseInspectionAdvisories,
  parseInspectionGrades,
  parseVehicleType,
  CommonErrors,
  INSPECTION_OUTCOMES,
  APPEAL_DECISIONS,
  type InspectionRecord,
  type InspectionAppeal,
  Vehicle,
  VEHICLE_SUMMARY_FIELDS,
  type Page,
  type PageRequest,
  type VehicleListFilter,
  type VehicleRepository,
  type VehicleSortField,
  type VehicleState,
  type VehicleSummary,
  type Mutable,
} from '@transport/domain';
import { vehicleRow } from '@transport/rows';
import {
  Prisma,
  type Vehicle as VehicleRow,
  type VehicleInspection as InspectionRow,
} from '../generated/prisma/client';
import { mapped, MappingError } from './mapping-error';
import { assertOneUpdated } from './optimistic';
import { sqlOn, type PrismaExecutor, type Sql, type Tables } from './prisma-executor';
import { inAssemblyScope, orderedPage, type Condition } from './paging';
import { translateUniqueViolation } from './prisma-errors';
import { sql, type SelectQueryBuilder } from 'kysely';

export function toDomain(row: VehicleRow): Vehicle {
  return mapped('vehicles', row.id, () => {
    const s: Mutable<VehicleState> = {
      id: row.id,
      ownerId: row.ownerId,
      inspected: row.inspected,
      approved: row.approved,
      version: row.version,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
    };
    const set = <K extends keyof VehicleState>(key: K, value: VehicleState[K] | null) => {
      if (value !== null && value !== undefined) s[key] = value;
    };
    set('color', row.color);
    set('registrationNumber', row.registrationNumber);
    set('make', row.make);
    set('model', row.model);
    set('makeYear', row.makeYear);
    set('yearOfRegistration', row.yearOfRegistration);
    set('capacity', row.capacity);
    set('grossWeight', row.grossWeight);
    set('netWeight', row.netWeight);
    set('type', row.type === null ? null : parseVehicleType(row.type));
    set('fuelCapacity', row.fuelCapacity);
    set('roadWorthyExpiryDate', row.roadWorthyExpiryDate);
    set('insuranceExpiryDate', row.insuranceExpiryDate);
    set('vin', row.vin);
    set(
      'inspectionChecklist',
      // Items an older version of the original's checklist lacked are absent: not recorded (imported history).
      row.inspectionChecklist === null ? null : parseRecordedInspectionChecklist(row.inspectionChecklist),
    );
    set(
      'inspectionDefects',
      row.inspectionDefects === null
        ? null
        : parseInspectionDefects(row.inspectionDefects, s.inspectionChecklist ?? {}),
    );
    // A failed item without a stored grade reads as major (inspections recorded before grades).
    // Grades are of failed items; a failed item without a stored grade reads as major (recorded before grades).
    set(
      'inspectionGrades',
      s.inspectionChecklist && failedAny(s.inspectionChecklist)
        ? parseInspectionGrades(row.inspectionGrades, s.inspectionChecklist)
        : null,
    );
    set(
      'inspectionAdvisories',
      row.inspectionAdvisories === null
        ? null
        : parseInspectionAdvisories(row.inspectionAdvisories, s.inspectionChecklist ?? {}),
    );
    set('inspectionId', row.inspectionId);
    set('reinspectionDueBy', row.reinspectionDueBy);
    set('reinspectionNotBy', row.reinspectionNotBy);
    set('inspectedBy', row.inspectedBy);
    set('dateInspected', row.dateInspected);
    set('inspectionReceivedAt', row.inspectionReceivedAt);
    set(
      'inspectionLocation',
      row.inspectionLocation === null ? null : parseGeoPoint(row.inspectionLocation, 'inspectionLocation'),
    );
    set('approvedBy', row.approvedBy);
    set('dateApproved', row.dateApproved);
    if (row.stationLinked) s.stationId = row.stationId;
    set('transportUnionId', row.transportUnionId);
    set('driverId', row.driverId);
    set('assemblyId', row.assemblyId);
    if (s.inspected !== (s.inspectionChecklist !== undefined)) {
      throw new MappingError('vehicles', row.id, 'inspected and inspectionChecklist disagree');
    }
    return Vehicle.restore(s);
  });
}

/** The vehicle's row as Prisma takes it: a JSON column set to NULL is Prisma's DbNull. */
function toPersistence(s: VehicleState) {
  const row = vehicleRow(s);
  return {
    ...row,
    inspectionDefects: row.inspectionDefects ?? Prisma.DbNull,
    inspectionGrades: row.inspectionGrades ?? Prisma.DbNull,
    inspectionAdvisories: row.inspectionAdvisories ?? Prisma.DbNull,
    inspectionLocation: row.inspectionLocation ?? Prisma.DbNull,
  };
}

const failedAny = (checklist: object) => Object.values(checklist).includes(false);

function inspectionToDomain(row: InspectionRow): InspectionRecord {
  return mapped('vehicle_inspections', row.id, () => {
    const checklist = parseRecordedInspectionChecklist(row.checklist);
    const outcome = INSPECTION_OUTCOMES.find((o) => o === row.outcome);
    if (!outcome) throw new MappingError('vehicle_inspections', row.id, `unknown outcome ${row.outcome}`);
    if (row.kind !== 'inspection' && row.kind !== 'reinspection')
      throw new MappingError('vehicle_inspections', row.id, `unknown kind ${row.kind}`);
    const out: Mutable<InspectionRecord> = {
      id: row.id,
      vehicleId: row.vehicleId,
      kind: row.kind,
      checklist,
      grades: parseInspectionGrades(row.grades, checklist),
      defects: parseInspectionDefects(row.defects, checklist),
      advisories: parseInspectionAdvisories(row.advisories, checklist),
      outcome,
      inspectorId: row.inspectedBy,
      madeAt: row.madeAt,
      receivedAt: row.receivedAt,
    };
    if (row.reinspectionOfId !== null) out.reinspectionOf = row.reinspectionOfId;
    if (row.location !== null) out.location = parseGeoPoint(row.location, 'location');
    if (row.reinspectionDueBy !== null) out.reinspectionDueBy = row.reinspectionDueBy;
    if (row.idempotencyKey !== null) out.idempotencyKey = row.idempotencyKey;
    if (row.appealLodgedBy !== null && row.appealLodgedAt !== null && row.appealGrounds !== null) {
      const appeal: Mutable<InspectionAppeal> = {
        lodgedBy: row.appealLodgedBy,
        lodgedAt: row.appealLodgedAt,
        grounds: row.appealGrounds,
      };
      if (row.appealDecidedBy !== null && row.appealDecidedAt !== null && row.appealDecision !== null) {
        const decision = APPEAL_DECISIONS.find((d) => d === row.appealDecision);
        if (!decision) throw new MappingError('vehicle_inspections', row.id, `unknown decision ${row.appealDecision}`);
        Object.assign(appeal, { decidedBy: row.appealDecidedBy, decidedAt: row.appealDecidedAt, decision });
      }
      out.appeal = appeal;
    }
    return out;
  });
}

const uniqueErrors = {
  registrationNumber: DuplicateErrors.vehicleRegistration,
};

/** Writes and single-record reads through Prisma's models; lists through Kysely on the same client (`sqlOn`). */
export class PrismaVehicleRepository implements VehicleRepository {
  constructor(
    private readonly db: PrismaExecutor,
    /** Where list pages read: the read replica when there is one (never inside a unit of work). */
    private readonly lists: PrismaExecutor = db,
  ) {}

  async add(vehicle: Vehicle): Promise<Vehicle> {
    try {
      return toDomain(await this.db.vehicle.create({ data: toPersistence(vehicle.toState()) }));
    } catch (error) {
      translateUniqueViolation(error, uniqueErrors);
    }
  }

  async update(vehicle: Vehicle): Promise<Vehicle> {
    const s = vehicle.toState();
    const { id, createdAt: _c, ...data } = toPersistence(s);
    let count: number;
    try {
      ({ count } = await this.db.vehicle.updateMany({
        where: { id, version: s.version },
        data: { ...data, version: s.version + 1 },
      }));
    } catch (error) {
      translateUniqueViolation(error, uniqueErrors);
    }
    await assertOneUpdated(count, 'vehicle', id, () =>
      this.db.vehicle.findUnique({ where: { id }, select: { id: true } }),
    );
    return Vehicle.restore({ ...s, version: s.version + 1 });
  }

  async findById(id: string): Promise<Vehicle | undefined> {
    const row = await this.db.vehicle.findUnique({ where: { id } });
    return row ? toDomain(row) : undefined;
  }

  async list(filter: VehicleListFilter, page: PageRequest<VehicleSortField>): Promise<Page<Vehicle>> {
    return this.page(page, allVehicles, filter, toDomain);
  }

  /** The public's columns only: no timestamps parsed, no checklist read, no aggregate restored. */
  async listSummaries(filter: VehicleListFilter, page: PageRequest<VehicleSortField>): Promise<Page<VehicleSummary>> {
    return this.page(page, summaryColumns, filter, toSummary);
  }

  listCertificatesEndingBy(date: Date, page: PageRequest, assemblyId?: string): Promise<Page<Vehicle>> {
    return this.list({ certificatesEndingBy: date, assemblyId }, page);
  }

  async addInspection(r: InspectionRecord): Promise<void> {
    await this.db.vehicleInspection.create({
      data: {
        id: r.id,
        vehicleId: r.vehicleId,
        kind: r.kind,
        reinspectionOfId: r.reinspectionOf ?? null,
        checklist: { ...r.checklist },
        grades: { ...r.grades },
        defects: { ...r.defects },
        advisories: { ...r.advisories },
        outcome: r.outcome,
        inspectedBy: r.inspectorId,
        madeAt: r.madeAt,
        receivedAt: r.receivedAt,
        location: r.location ? { type: 'Point', coordinates: [...r.location.coordinates] } : Prisma.DbNull,
        reinspectionDueBy: r.reinspectionDueBy ?? null,
        idempotencyKey: r.idempotencyKey ?? null,
      },
    });
  }

  async findInspection(vehicleId: string, id: string): Promise<InspectionRecord | undefined> {
    const row = await this.db.vehicleInspection.findFirst({ where: { id, vehicleId } });
    return row ? inspectionToDomain(row) : undefined;
  }

  async listInspections(vehicleId: string): Promise<InspectionRecord[]> {
    const rows = await this.db.vehicleInspection.findMany({
      where: { vehicleId },
      orderBy: [{ madeAt: 'desc' }, { id: 'desc' }],
    });
    return rows.map(inspectionToDomain);
  }

  async saveAppeal(r: InspectionRecord): Promise<void> {
    const appeal = r.appeal;
    const { count } = !appeal
      ? { count: 0 }
      : appeal.decision
        ? await this.db.vehicleInspection.updateMany({
            where: { id: r.id, appealLodgedAt: { not: null }, appealDecidedAt: null },
            data: {
              appealDecidedBy: appeal.decidedBy,
              appealDecidedAt: appeal.decidedAt,
              appealDecision: appeal.decision,
            },
          })
        : await this.db.vehicleInspection.updateMany({
            where: { id: r.id, appealLodgedAt: null },
            data: { appealLodgedBy: appeal.lodgedBy, appealLodgedAt: appeal.lodgedAt, appealGrounds: appeal.grounds },
          });
    if (count !== 1) throw CommonErrors.concurrentUpdate('inspection', r.id);
  }

  private page<O extends { id: string }, T>(
    page: PageRequest<VehicleSortField>,
    select: (db: Sql) => SelectQueryBuilder<Tables, 'vehicles', O>,
    filter: VehicleListFilter,
    map: (row: O) => T,
  ): Promise<Page<T>> {
    const scope = inAssemblyScope<'vehicles'>(filter.assemblyId);
    return orderedPage(sqlOn(this.lists), 'vehicles', page, select, matching(filter), map, scope);
  }
}

/** The one `WHERE` of a vehicle list, for whole vehicles and summaries alike. */
const matching =
  (filter: VehicleListFilter): Condition<'vehicles'> =>
  (w) => {
    const is = <
      K extends
        | 'inspected'
        | 'approved'
        | 'registrationNumber'
        | 'driverId'
        | 'ownerId'
        | 'stationId'
        | 'transportUnionId'
        | 'assemblyId',
    >(
      column: K,
      value: string | boolean | undefined,
    ) => (value === undefined ? [] : [w(column, '=', value as never)]);
    return w.and([
      ...is('inspected', filter.inspected),
      ...is('approved', filter.approved),
      ...(filter.inspection === undefined ? [] : [inspectionOutcome(filter.inspection)]),
      ...is('registrationNumber', filter.registrationNumber),
      ...is('driverId', filter.driverId),
      ...is('ownerId', filter.ownerId),
      ...is('stationId', filter.stationId),
      ...is('transportUnionId', filter.transportUnionId),
      ...is('assemblyId', filter.assemblyId),
      ...(filter.certificatesEndingBy === undefined ? [] : [certificatesEndingBy(w, filter.certificatesEndingBy)]),
      ...(filter.reinspectionEnding === undefined
        ? []
        : [
            w('reinspectionDueBy', '>=', filter.reinspectionEnding.from),
            w('reinspectionDueBy', '<=', filter.reinspectionEnding.by),
          ]),
    ]);
  };

/** Either certificate ends on or before the instant (each served by its own expiry index). */
const certificatesEndingBy = (w: Parameters<Condition<'vehicles'>>[0], date: Date) =>
  w.or([w('roadWorthyExpiryDate', '<=', date), w('insuranceExpiryDate', '<=', date)]);

/**
 * The outcome of a vehicle's last inspection, read from its stored checklist: failed when any item is `false`, passed
 * when every item is recorded and none failed (the domain's inspectionOutcome). The checklist is only present on
 * inspected vehicles, so an uninspected one is neither; nor is an imported one whose older checklist lacks items.
 */
const inspectionOutcome = (outcome: 'passed' | 'failed') => {
  const checklist = sql.ref('inspectionChecklist');
  const anyFailed = sql<boolean>`exists (select 1 from jsonb_each(${checklist}) as item where item.value = 'false'::jsonb)`;
  const everyItem = sql<boolean>`jsonb_exists_all(${checklist}, ${sql.val([...INSPECTION_ITEMS])}::text[])`;
  return outcome === 'failed'
    ? sql<boolean>`(${sql.ref('inspected')} and ${anyFailed})`
    : sql<boolean>`(${sql.ref('inspected')} and not ${anyFailed} and ${everyItem})`;
};

const allVehicles = (db: Sql) => db.selectFrom('vehicles').selectAll();
const summaryColumns = (db: Sql) => db.selectFrom('vehicles').select([...VEHICLE_SUMMARY_FIELDS, 'stationLinked']);
type SummaryRow = Awaited<ReturnType<ReturnType<typeof summaryColumns>['execute']>>[number];

/** As `toDomain` reads these columns (a station link kept apart from the station: `station: null` once unlinked). */
function toSummary(row: SummaryRow): VehicleSummary {
  return mapped('vehicles', row.id, () => {
    const s: Mutable<VehicleSummary> = {
      id: row.id,
      inspected: row.inspected,
      approved: row.approved,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
      version: row.version,
    };
    if (row.registrationNumber !== null) s.registrationNumber = row.registrationNumber;
    if (row.make !== null) s.make = row.make;
    if (row.model !== null) s.model = row.model;
    if (row.color !== null) s.color = row.color;
    if (row.type !== null) s.type = parseVehicleType(row.type);
    if (row.capacity !== null) s.capacity = row.capacity;
    if (row.stationLinked) s.stationId = row.stationId;
    if (row.transportUnionId !== null) s.transportUnionId = row.transportUnionId;
    return s;
  });
}
