import {
  DEFAULT_FRAUD_THRESHOLDS,
  type AuditEntryInput,
  type FraudFlagClearance,
  type FraudFlagDetails,
  type FraudFlagKind,
  type FraudThresholds,
  type GeoPoint,
  type Page,
  type PageRequest,
  type PassCount,
  type PhotoUse,
} from '@transport/domain';
import type { FraudFlagFilter, FraudFlagRecord, FraudFlags } from '../core/fraud-ports';
import { Prisma, type PrismaClient } from '../generated/prisma/client';
import { PrismaAuditLog } from './prisma-audit-log';

type Row = NonNullable<Awaited<ReturnType<PrismaClient['fraudFlag']['findUnique']>>>;

const recordOf = (row: Row): FraudFlagRecord => ({
  id: row.id,
  kind: row.kind as FraudFlagKind,
  signKey: row.signKey,
  assemblyId: row.assemblyId,
  ...(row.vehicleId !== null && { vehicleId: row.vehicleId }),
  ...(row.inspectorId !== null && { inspectorId: row.inspectorId }),
  ...(row.inspectionKey !== null && { inspectionKey: row.inspectionKey }),
  details: row.details as unknown as FraudFlagDetails,
  raisedAt: row.raisedAt,
  ...(row.clearedAt !== null && {
    cleared: { clearedAt: row.clearedAt, clearedBy: row.clearedBy ?? '', reason: row.clearReason ?? '' },
  }),
});

const json = (value: unknown) => JSON.parse(JSON.stringify(value)) as Prisma.InputJsonValue;

/** The signs of fraud in `fraud_flags`, `fraud_settings` and `station_locations`; reads inspections and photos. */
export class PrismaFraudFlags implements FraudFlags {
  constructor(private readonly prisma: PrismaClient) {}

  async raise(flag: FraudFlagRecord): Promise<boolean> {
    const rows = await this.prisma.fraudFlag.createMany({
      data: [
        {
          id: flag.id,
          kind: flag.kind,
          signKey: flag.signKey,
          assemblyId: flag.assemblyId,
          vehicleId: flag.vehicleId ?? null,
          inspectorId: flag.inspectorId ?? null,
          inspectionKey: flag.inspectionKey ?? null,
          details: json(flag.details),
          raisedAt: flag.raisedAt,
        },
      ],
      skipDuplicates: true,
    });
    return rows.count === 1;
  }

  async list(filter: FraudFlagFilter, page: PageRequest): Promise<Page<FraudFlagRecord>> {
    const where: Prisma.FraudFlagWhereInput = {
      ...(filter.assemblyId !== undefined && { assemblyId: filter.assemblyId }),
      ...(filter.kind !== undefined && { kind: filter.kind }),
      ...(filter.status === 'open' && { clearedAt: null }),
      ...(filter.status === 'cleared' && { clearedAt: { not: null } }),
    };
    const cursor = page.after ? await this.prisma.fraudFlag.findUnique({ where: { id: page.after } }) : null;
    const rows = await this.prisma.fraudFlag.findMany({
      where: cursor
        ? {
            AND: [
              where,
              {
                OR: [{ raisedAt: { lt: cursor.raisedAt } }, { raisedAt: cursor.raisedAt, id: { lt: cursor.id } }],
              },
            ],
          }
        : where,
      orderBy: [{ raisedAt: 'desc' }, { id: 'desc' }],
      take: page.limit + 1,
    });
    const items = rows.slice(0, page.limit).map(recordOf);
    return {
      items,
      ...(rows.length > page.limit && { next: items[items.length - 1].id }),
      ...(page.count && { total: await this.prisma.fraudFlag.count({ where }) }),
    };
  }

  async find(id: string): Promise<FraudFlagRecord | undefined> {
    const row = await this.prisma.fraudFlag.findUnique({ where: { id } });
    return row ? recordOf(row) : undefined;
  }

  clear(id: string, clearance: FraudFlagClearance, audit: AuditEntryInput): Promise<boolean> {
    return this.prisma.$transaction(async (tx) => {
      const changed = await tx.fraudFlag.updateMany({
        where: { id, clearedAt: null },
        data: { clearedAt: clearance.clearedAt, clearedBy: clearance.clearedBy, clearReason: clearance.reason },
      });
      if (changed.count !== 1) return false;
      await new PrismaAuditLog(tx).append([audit]);
      return true;
    });
  }

  async thresholds(assemblyId: string): Promise<FraudThresholds> {
    const row = await this.prisma.fraudSettings.findUnique({ where: { assemblyId } });
    return row
      ? {
          minMinutesBetween: row.minMinutesBetween,
          maxKmFromStation: row.maxKmFromStation,
          minInspectionsForRate: row.minInspectionsForRate,
        }
      : DEFAULT_FRAUD_THRESHOLDS;
  }

  async setThresholds(assemblyId: string, thresholds: FraudThresholds, audit: AuditEntryInput): Promise<void> {
    await this.prisma.$transaction(async (tx) => {
      const data = { ...thresholds, updatedAt: audit.at };
      await tx.fraudSettings.upsert({ where: { assemblyId }, create: { assemblyId, ...data }, update: data });
      await new PrismaAuditLog(tx).append([audit]);
    });
  }

  async stationLocation(stationId: string): Promise<GeoPoint | undefined> {
    const row = await this.prisma.stationLocation.findUnique({ where: { stationId } });
    return row ? (row.location as unknown as GeoPoint) : undefined;
  }

  async setStationLocation(stationId: string, location: GeoPoint | null, audit: AuditEntryInput): Promise<void> {
    await this.prisma.$transaction(async (tx) => {
      if (location === null) await tx.stationLocation.deleteMany({ where: { stationId } });
      else {
        const data = { location: json(location), setBy: audit.actor.id, setAt: audit.at };
        await tx.stationLocation.upsert({ where: { stationId }, create: { stationId, ...data }, update: data });
      }
      await new PrismaAuditLog(tx).append([audit]);
    });
  }

  async nearestInspectionBy(
    inspectorId: string,
    madeAt: Date,
    except: string,
  ): Promise<{ id: string; madeAt: Date } | undefined> {
    const select = { id: true, madeAt: true } as const;
    const base = { inspectedBy: inspectorId, id: { not: except } };
    const [before, after] = await Promise.all([
      this.prisma.vehicleInspection.findFirst({
        where: { ...base, madeAt: { lte: madeAt } },
        orderBy: { madeAt: 'desc' },
        select,
      }),
      this.prisma.vehicleInspection.findFirst({
        where: { ...base, madeAt: { gt: madeAt } },
        orderBy: { madeAt: 'asc' },
        select,
      }),
    ]);
    if (!before) return after ?? undefined;
    if (!after) return before;
    return madeAt.getTime() - before.madeAt.getTime() <= after.madeAt.getTime() - madeAt.getTime() ? before : after;
  }

  async photoUses(sha256: string, limit: number): Promise<PhotoUse[]> {
    return this.prisma.inspectionPhoto.findMany({
      where: { sha256 },
      orderBy: [{ receivedAt: 'asc' }, { id: 'asc' }],
      take: limit,
      select: { vehicleId: true, inspectionKey: true },
    });
  }

  photosOf(vehicleId: string, inspectionKey: string): Promise<number> {
    return this.prisma.inspectionPhoto.count({ where: { vehicleId, inspectionKey } });
  }

  async passCounts(assemblyId: string, since: Date): Promise<Map<string, PassCount>> {
    const rows = await this.prisma.$queryRaw<Array<{ inspector: string; total: number; passed: number }>>`
      SELECT i."inspectedBy" AS inspector, count(*)::int AS total,
             (count(*) FILTER (WHERE i.outcome IN ('passed', 'passedWithAdvice')))::int AS passed
        FROM vehicle_inspections i JOIN vehicles v ON v.id = i."vehicleId"
       WHERE v."assemblyId" = ${assemblyId} AND i.kind = 'inspection' AND i."madeAt" >= ${since}
       GROUP BY i."inspectedBy"`;
    return new Map(rows.map((r) => [r.inspector.trim(), { passed: Number(r.passed), total: Number(r.total) }]));
  }
}
