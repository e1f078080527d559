import {
  DECISIONS,
  NOTICE_STATUSES,
  Notice,
  parseGeoPoint,
  type NoticeState,
  type OffenceCatalogueState,
  type OffenceTerms,
  type Page,
  type PageRequest,
} from '@transport/domain';
import { CommonErrors, oneOf } from '@transport/domain';
import { translateUniqueViolation } from './prisma-errors';
import type {
  EnforcementSettings,
  EnforcementStore,
  EnforcementWork,
  PackFacts,
  ReportScope,
  RoadsideCheckRecord,
} from '../core/ports';
import { toDomain as driverToDomain } from './prisma-driver.repository';
import {
  Prisma,
  type Notice as NoticeRow,
  type OffenceCatalogue as CatalogueRow,
  type PrismaClient,
  type RoadsideCheck as CheckRow,
} from '../generated/prisma/client';
import { mapped } from './mapping-error';
import { assertOneUpdated } from './optimistic';
import { PrismaAuditLog } from './prisma-audit-log';
import type { PrismaExecutor } from './prisma-executor';

const OPEN_STATUSES = ['issued', 'overdue', 'contested', 'decided'];
/** The most notices, and the most checks, one report reads (the API caps a report's range at 92 days). */
const REPORT_MAX_ROWS = 100_000;

type Json = Prisma.InputJsonValue;
const at = (value: unknown): Date => new Date(String(value));

function checkToDomain(row: CheckRow): RoadsideCheckRecord {
  return mapped('roadside_checks', row.id, () => ({
    id: row.id,
    officerId: row.officerId,
    assemblyId: row.assemblyId,
    ...(row.vehicleId !== null && { vehicleId: row.vehicleId }),
    by: oneOf(['plate', 'token'] as const, row.by, 'by'),
    ...(row.query !== null && { query: row.query }),
    madeAt: row.madeAt,
    ...(row.location !== null && { location: parseGeoPoint(row.location, 'location') }),
    createdAt: row.createdAt,
  }));
}

function catalogueToDomain(row: CatalogueRow): OffenceCatalogueState {
  return mapped('offence_catalogues', `${row.assemblyId}/${row.version}`, () => ({
    assemblyId: row.assemblyId,
    version: row.version,
    offences: row.offences as unknown as OffenceTerms[],
    publishedBy: row.publishedBy,
    publishedAt: row.publishedAt,
  }));
}

/** A stored notice back to the domain: every optional field present only when stored, dates revived from JSON. */
export function noticeToDomain(row: NoticeRow): Notice {
  return mapped('notices', row.id, () => {
    const contest = row.contest as { text: string; at: string; photo?: string } | null;
    const decision = row.decision as {
      outcome: string;
      by: string;
      reason: string;
      at: string;
      amount?: number;
    } | null;
    const cancellation = row.cancellation as { by: string; reason: string; at: string } | null;
    const state: NoticeState = {
      id: row.id,
      assemblyId: row.assemblyId,
      vehicleId: row.vehicleId,
      ...(row.driverId !== null && { driverId: row.driverId }),
      officerId: row.officerId,
      catalogueVersion: row.catalogueVersion,
      offences: row.offences as unknown as OffenceTerms[],
      ...(row.notes !== null && { notes: row.notes }),
      madeAt: row.madeAt,
      ...(row.madeWhere !== null && { madeWhere: parseGeoPoint(row.madeWhere, 'madeWhere') }),
      status: oneOf(NOTICE_STATUSES, row.status, 'status'),
      fine: row.fine,
      surcharge: row.surcharge,
      dueAt: row.dueAt,
      ...(row.contestBy !== null && { contestBy: row.contestBy }),
      ...(contest && {
        contest: {
          text: contest.text,
          at: at(contest.at),
          ...(contest.photo !== undefined && { photo: contest.photo }),
        },
      }),
      ...(decision && {
        decision: {
          outcome: oneOf(DECISIONS, decision.outcome, 'decision.outcome'),
          by: decision.by,
          reason: decision.reason,
          at: at(decision.at),
          ...(decision.amount !== undefined && { amount: decision.amount }),
        },
      }),
      ...(cancellation && {
        cancellation: { by: cancellation.by, reason: cancellation.reason, at: at(cancellation.at) },
      }),
      paid: row.paid,
      refundDue: row.refundDue,
      ...(row.paidAt !== null && { paidAt: row.paidAt }),
      version: row.version,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
    };
    return Notice.restore(state);
  });
}

export function noticeRow(s: NoticeState) {
  return {
    assemblyId: s.assemblyId,
    vehicleId: s.vehicleId,
    driverId: s.driverId ?? null,
    officerId: s.officerId,
    catalogueVersion: s.catalogueVersion,
    offences: s.offences as unknown as Json,
    notes: s.notes ?? null,
    madeAt: s.madeAt,
    madeWhere: (s.madeWhere as unknown as Json) ?? Prisma.DbNull,
    status: s.status,
    fine: s.fine,
    surcharge: s.surcharge,
    dueAt: s.dueAt,
    contestBy: s.contestBy ?? null,
    contest: (s.contest as unknown as Json) ?? Prisma.DbNull,
    decision: (s.decision as unknown as Json) ?? Prisma.DbNull,
    cancellation: (s.cancellation as unknown as Json) ?? Prisma.DbNull,
    paid: s.paid,
    refundDue: s.refundDue,
    paidAt: s.paidAt ?? null,
    updatedAt: s.updatedAt,
  };
}

async function latestCatalogue(db: PrismaExecutor, assemblyId: string) {
  const row = await db.offenceCatalogue.findFirst({ where: { assemblyId }, orderBy: { version: 'desc' } });
  return row ? catalogueToDomain(row) : undefined;
}

async function settings(db: PrismaExecutor, assemblyId: string): Promise<EnforcementSettings> {
  const row = await db.enforcementSetting.findUnique({ where: { assemblyId } });
  return { overdueBlocksVehicle: row?.overdueBlocksVehicle ?? false };
}

async function findNotice(db: PrismaExecutor, id: string) {
  const row = await db.notice.findUnique({ where: { id } });
  return row ? noticeToDomain(row) : undefined;
}

function work(db: PrismaExecutor): EnforcementWork {
  return {
    latestCatalogue: (assemblyId) => latestCatalogue(db, assemblyId),
    addCatalogue: async (c) => {
      // Two admins publishing at once both make the next version: the second is told to reload (409).
      await db.offenceCatalogue
        .create({
          data: {
            assemblyId: c.assemblyId,
            version: c.version,
            offences: c.offences as unknown as Json,
            publishedBy: c.publishedBy,
            publishedAt: c.publishedAt,
          },
        })
        .catch((error: unknown) =>
          translateUniqueViolation(error, {
            version: () => CommonErrors.concurrentUpdate('offence catalogue', c.assemblyId),
          }),
        );
    },
    findNotice: (id) => findNotice(db, id),
    addNotice: async (notice) => {
      const s = notice.toState();
      await db.notice.create({ data: { id: s.id, ...noticeRow(s), version: s.version, createdAt: s.createdAt } });
    },
    updateNotice: async (notice) => {
      const s = notice.toState();
      const { count } = await db.notice.updateMany({
        where: { id: s.id, version: s.version },
        data: { ...noticeRow(s), version: s.version + 1 },
      });
      await assertOneUpdated(count, 'notice', s.id, () => db.notice.findUnique({ where: { id: s.id } }));
      return Notice.restore({ ...s, version: s.version + 1 });
    },
    settings: (assemblyId) => settings(db, assemblyId),
    setSettings: async (assemblyId, value, updatedAt) => {
      await db.enforcementSetting.upsert({
        where: { assemblyId },
        create: { assemblyId, ...value, updatedAt },
        update: { ...value, updatedAt },
      });
    },
    audit: new PrismaAuditLog(db),
  };
}

/** The roadside's rows (issue 47) on Prisma: the check log on its own, catalogues and notices in transactions. */
export class PrismaEnforcementStore implements EnforcementStore {
  constructor(private readonly prisma: PrismaClient) {}

  async addCheck(c: RoadsideCheckRecord): Promise<void> {
    await this.prisma.roadsideCheck.create({
      data: {
        id: c.id,
        officerId: c.officerId,
        assemblyId: c.assemblyId,
        vehicleId: c.vehicleId ?? null,
        by: c.by,
        query: c.query ?? null,
        madeAt: c.madeAt,
        location: (c.location as unknown as Json) ?? Prisma.DbNull,
        createdAt: c.createdAt,
      },
    });
  }

  async listChecks(assemblyId: string | undefined, page: PageRequest): Promise<Page<RoadsideCheckRecord>> {
    const where = assemblyId === undefined ? {} : { assemblyId };
    const cursor = page.after ? await this.prisma.roadsideCheck.findUnique({ where: { id: page.after } }) : null;
    const rows = await this.prisma.roadsideCheck.findMany({
      where: cursor
        ? {
            ...where,
            OR: [{ createdAt: { lt: cursor.createdAt } }, { createdAt: cursor.createdAt, id: { lt: cursor.id } }],
          }
        : where,
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: page.limit + 1,
    });
    const items = rows.slice(0, page.limit).map(checkToDomain);
    return {
      items,
      ...(rows.length > page.limit && { next: items[items.length - 1].id }),
      ...(page.count && { total: await this.prisma.roadsideCheck.count({ where }) }),
    };
  }

  latestCatalogue(assemblyId: string): Promise<OffenceCatalogueState | undefined> {
    return latestCatalogue(this.prisma, assemblyId);
  }

  findNotice(id: string): Promise<Notice | undefined> {
    return findNotice(this.prisma, id);
  }

  async openNoticesOf(vehicleId: string): Promise<Notice[]> {
    const rows = await this.prisma.notice.findMany({
      where: { vehicleId, status: { in: OPEN_STATUSES } },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: 50,
    });
    return rows.map(noticeToDomain);
  }

  async openContests(assemblyId: string | undefined, limit: number): Promise<Notice[]> {
    const rows = await this.prisma.notice.findMany({
      where: { status: 'contested', ...(assemblyId !== undefined && { assemblyId }) },
      orderBy: [{ updatedAt: 'asc' }, { id: 'asc' }],
      take: limit,
    });
    return rows.map(noticeToDomain);
  }

  async pastDue(at: Date, limit: number): Promise<string[]> {
    const rows = await this.prisma.notice.findMany({
      where: { status: { in: ['issued', 'decided'] }, dueAt: { lt: at } },
      orderBy: [{ dueAt: 'asc' }, { id: 'asc' }],
      select: { id: true },
      take: limit,
    });
    return rows.map((r) => r.id);
  }

  settings(assemblyId: string): Promise<EnforcementSettings> {
    return settings(this.prisma, assemblyId);
  }

  async reportRows(scope: ReportScope): Promise<{ notices: NoticeState[]; checks: RoadsideCheckRecord[] }> {
    const who = {
      ...(scope.assemblyId !== undefined && { assemblyId: scope.assemblyId }),
      ...(scope.officerId !== undefined && { officerId: scope.officerId }),
    };
    const within = { gte: scope.from, lt: scope.to };
    const [notices, checks] = await Promise.all([
      this.prisma.notice.findMany({
        where: { ...who, OR: [{ createdAt: within }, { paidAt: within }] },
        orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
        take: REPORT_MAX_ROWS,
      }),
      this.prisma.roadsideCheck.findMany({
        where: { ...who, createdAt: within },
        orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
        take: REPORT_MAX_ROWS,
      }),
    ]);
    return { notices: notices.map((row) => noticeToDomain(row).toState()), checks: checks.map(checkToDomain) };
  }

  async packFacts(vehicleIds: string[], driverIds: string[]): Promise<PackFacts> {
    const [drivers, notices] = await Promise.all([
      driverIds.length > 0 ? this.prisma.driver.findMany({ where: { id: { in: driverIds } } }) : [],
      vehicleIds.length > 0
        ? this.prisma.notice.findMany({
            where: { vehicleId: { in: vehicleIds }, status: { in: OPEN_STATUSES } },
            orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
          })
        : [],
    ]);
    const byVehicle = new Map<string, Notice[]>();
    for (const row of notices) {
      const kept = byVehicle.get(row.vehicleId) ?? [];
      if (kept.length < 50) byVehicle.set(row.vehicleId, [...kept, noticeToDomain(row)]);
    }
    return { drivers: new Map(drivers.map((row) => [row.id, driverToDomain(row)])), notices: byVehicle };
  }

  run<T>(body: (tx: EnforcementWork) => Promise<T>): Promise<T> {
    return this.prisma.$transaction((tx) => body(work(tx)), { maxWait: 10_000, timeout: 15_000 });
  }
}
