import { ANONYMOUS_ACTOR } from '@transport/domain';
import { sql } from 'kysely';
import type { Page, PageRequest } from '@transport/domain';
import type {
  NewVehicleReport,
  PublicRegistry,
  VehicleReportFilter,
  VehicleReportRecord,
} from '../core/public-registry';
import type { PrismaClient } from '../generated/prisma/client';
import { PrismaAuditLog } from './prisma-audit-log';
import { inAssemblyScope, orderedPage } from './paging';
import { sqlOn, type PrismaExecutor, type Sql } from './prisma-executor';

/**
 * The plate as its search key, written exactly as the expression indexes vehicles_plate_key_idx (btree, for this
 * equality: migration 20261128120000_ussd_sms_checks) and vehicles_plate_key_trgm_idx (substrings, the search) are.
 */
const PLATE_KEY = sql<string>`translate(${sql.ref('registrationNumber')}, 'O -', '0')`;

/** The public checks' reads and writes (core/ports PublicRegistry), on the primary: a check must see a fresh approval. */
export class PrismaPublicRegistry implements PublicRegistry {
  private readonly reads: Sql;

  constructor(
    private readonly prisma: PrismaClient,
    db: PrismaExecutor = prisma,
  ) {
    this.reads = sqlOn(db);
  }

  async vehicleIdByPlateKey(key: string): Promise<string | undefined> {
    const row = await this.reads
      .selectFrom('vehicles')
      .select('id')
      .where(PLATE_KEY, '=', key)
      .limit(1)
      .executeTakeFirst();
    return row?.id;
  }

  async vehicleIdByCheckCode(code: string): Promise<string | undefined> {
    const row = await this.prisma.vehicle.findUnique({ where: { checkCode: code }, select: { id: true } });
    return row?.id;
  }

  async checkCodeOf(vehicleId: string, candidate: string): Promise<string> {
    // Given once: a concurrent print that gave another code first wins, and both read the one kept.
    await this.prisma.vehicle.updateMany({ where: { id: vehicleId, checkCode: null }, data: { checkCode: candidate } });
    const row = await this.prisma.vehicle.findUniqueOrThrow({ where: { id: vehicleId }, select: { checkCode: true } });
    return row.checkCode ?? candidate;
  }

  async driverByLicence(licence: string): Promise<{ id: string; approved: boolean } | undefined> {
    const row = await this.prisma.driver.findFirst({
      where: { license: licence },
      select: { id: true, approved: true },
    });
    return row ?? undefined;
  }

  async languageOfPhone(phone: string): Promise<string | undefined> {
    // A number whose person proved it (an activated driver, a verified owner) first; then any, the latest changed.
    const order = [{ verified: 'desc' as const }, { updatedAt: 'desc' as const }];
    const driver = await this.prisma.driver.findFirst({ where: { phone }, select: { language: true }, orderBy: order });
    if (driver) return driver.language;
    const owner = await this.prisma.vehicleOwner.findFirst({
      where: { phone },
      select: { language: true },
      orderBy: order,
    });
    return owner?.language;
  }

  async addReport(report: NewVehicleReport): Promise<void> {
    const { at, ...fields } = report;
    await this.prisma.$transaction(async (tx) => {
      await tx.vehicleReport.create({ data: { ...fields, createdAt: at } });
      await new PrismaAuditLog(tx).append([
        {
          entity: 'vehicleReport',
          entityId: report.id,
          action: 'VehicleReported',
          actor: { ...ANONYMOUS_ACTOR, id: report.channel },
          before: null,
          after: {
            plate: report.plate,
            vehicleId: report.vehicleId ?? null,
            assemblyId: report.assemblyId ?? null,
            reason: report.reason,
            channel: report.channel,
          },
          at,
        },
      ]);
    });
  }

  /** Newest first on (createdAt, id): the (assemblyId, createdAt, id) index serves a staff member's list. */
  reports(filter: VehicleReportFilter, page: PageRequest): Promise<Page<VehicleReportRecord>> {
    return orderedPage(
      this.reads,
      'vehicle_reports',
      page,
      (db) => db.selectFrom('vehicle_reports').selectAll(),
      (w) =>
        w.and([
          ...(filter.assemblyId === undefined ? [] : [w('assemblyId', '=', filter.assemblyId)]),
          ...(filter.vehicleId === undefined ? [] : [w('vehicleId', '=', filter.vehicleId)]),
          ...(filter.reason === undefined ? [] : [w('reason', '=', filter.reason)]),
          ...(filter.from ? [w('createdAt', '>=', filter.from)] : []),
          ...(filter.to ? [w('createdAt', '<', filter.to)] : []),
        ]),
      (r) => ({
        id: r.id,
        plate: r.plate,
        vehicleId: r.vehicleId ?? undefined,
        assemblyId: r.assemblyId ?? undefined,
        reason: r.reason,
        channel: r.channel as VehicleReportRecord['channel'],
        at: r.createdAt,
      }),
      // The cursor is looked up within the caller's scope, as every staff list's is.
      inAssemblyScope<'vehicle_reports'>(filter.assemblyId),
    );
  }

  async setOptedOut(phone: string, optedOut: boolean, at: Date): Promise<void> {
    if (optedOut)
      await this.prisma.smsOptOut.upsert({ where: { phone }, create: { phone, stoppedAt: at }, update: {} });
    else await this.prisma.smsOptOut.deleteMany({ where: { phone } });
  }
}
