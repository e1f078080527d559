import {
  auditEntriesFor,
  reminderKey,
  type Actor,
  type AuditEntryInput,
  type ReminderDocument,
} from '@transport/domain';
import type {
  ExpiringDocument,
  ReminderEntity,
  ReminderJob,
  ReminderRecord,
  ReminderStatus,
  ReminderStore,
  ReminderTarget,
} from '../core/ports';
import type { Prisma, PrismaClient } from '../generated/prisma/client';
import { MappingError } from './mapping-error';
import type { PgBossJobQueue } from './pg-boss-job-queue';
import { PrismaAuditLog } from './prisma-audit-log';

const STATUSES: readonly ReminderStatus[] = ['pending', 'held', 'sent', 'failed', 'cancelled'];
const DOCUMENTS: readonly ReminderDocument[] = ['roadworthy', 'insurance', 'licence'];
const ENTITIES: readonly ReminderEntity[] = ['vehicle', 'driver'];
/** Held reminders released per scan (the rest wait for the next one). */
const RELEASE_BATCH = 500;

function toReminder(row: {
  id: bigint;
  entity: string;
  entityId: string;
  document: string;
  expiry: Date;
  threshold: number;
  status: string;
}): ReminderRecord {
  if (
    !STATUSES.includes(row.status as ReminderStatus) ||
    !DOCUMENTS.includes(row.document as ReminderDocument) ||
    !ENTITIES.includes(row.entity as ReminderEntity)
  )
    throw new MappingError('document_reminders', String(row.id), 'unknown status, document or entity');
  return {
    id: String(row.id),
    entity: row.entity as ReminderEntity,
    entityId: row.entityId,
    document: row.document as ReminderDocument,
    expiry: row.expiry,
    threshold: row.threshold,
    status: row.status as ReminderStatus,
  };
}

/**
 * Reminders in `document_reminders`. The unique (entity, entityId, document, expiry, threshold) key is the claim: the
 * insert and the send job go in one transaction, so a reminder exists exactly when its job does, and a second
 * instance inserting the same key (it waits for the first to commit) inserts nothing and queues nothing.
 */
export class PrismaReminderStore implements ReminderStore {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly jobs: PgBossJobQueue,
  ) {}

  async expiring(from: Date, to: Date): Promise<ExpiringDocument[]> {
    const between = { gte: from, lte: to };
    const [vehicles, drivers] = await Promise.all([
      this.prisma.vehicle.findMany({
        where: {
          OR: [{ roadWorthyExpiryDate: between }, { insuranceExpiryDate: between }],
          // Only an owner an assembly verified in person (docs/security.md): never a number typed in unchecked.
          owner: { remindersStoppedAt: null, verified: true },
        },
        select: { id: true, roadWorthyExpiryDate: true, insuranceExpiryDate: true },
      }),
      this.prisma.driver.findMany({
        // Only a driver who activated: the key sent to the number proved the number is theirs.
        where: { licenseExpiry: between, remindersStoppedAt: null, verified: true },
        select: { id: true, licenseExpiry: true },
      }),
    ]);
    const inWindow = (d: Date | null): d is Date => d !== null && d >= from && d <= to;
    const found: ExpiringDocument[] = [];
    for (const v of vehicles) {
      if (inWindow(v.roadWorthyExpiryDate))
        found.push({ entity: 'vehicle', entityId: v.id, document: 'roadworthy', expiry: v.roadWorthyExpiryDate });
      if (inWindow(v.insuranceExpiryDate))
        found.push({ entity: 'vehicle', entityId: v.id, document: 'insurance', expiry: v.insuranceExpiryDate });
    }
    for (const d of drivers)
      found.push({ entity: 'driver', entityId: d.id, document: 'licence', expiry: d.licenseExpiry });
    return found;
  }

  async claimed(from: Date, to: Date): Promise<Set<string>> {
    const rows = await this.prisma.documentReminder.findMany({
      where: { expiry: { gte: from, lte: to } },
      select: { entity: true, entityId: true, document: true, expiry: true, threshold: true },
    });
    return new Set(rows.map((r) => reminderKey(r, r.threshold)));
  }

  async claim(document: ExpiringDocument, threshold: number, at: Date, job: ReminderJob): Promise<boolean> {
    return this.prisma.$transaction(async (tx) => {
      const inserted = await tx.$queryRaw<Array<{ id: bigint }>>`
        INSERT INTO "document_reminders"
          ("entity", "entityId", "document", "expiry", "threshold", "status", "createdAt", "updatedAt")
        VALUES (${document.entity}, ${document.entityId}, ${document.document}, ${document.expiry}, ${threshold},
                'pending', ${at}, ${at})
        ON CONFLICT DO NOTHING
        RETURNING "id"`;
      if (inserted.length === 0) return false;
      await this.queue(tx, String(inserted[0].id), job);
      return true;
    });
  }

  async releaseHeld(at: Date, job: ReminderJob): Promise<number> {
    const held = await this.prisma.documentReminder.findMany({
      where: { status: 'held' },
      select: { id: true },
      orderBy: { id: 'asc' },
      take: RELEASE_BATCH,
    });
    let released = 0;
    for (const { id } of held) {
      const taken = await this.prisma.$transaction(async (tx) => {
        const { count } = await tx.documentReminder.updateMany({
          where: { id, status: 'held' },
          data: { status: 'pending', updatedAt: at },
        });
        if (count === 1) await this.queue(tx, String(id), job);
        return count === 1;
      });
      if (taken) released += 1;
    }
    return released;
  }

  async find(id: string): Promise<ReminderRecord | undefined> {
    const row = await this.prisma.documentReminder.findUnique({ where: { id: BigInt(id) } });
    return row ? toReminder(row) : undefined;
  }

  async target(reminder: ExpiringDocument): Promise<ReminderTarget | undefined> {
    if (reminder.entity === 'driver') {
      const driver = await this.prisma.driver.findUnique({
        where: { id: reminder.entityId },
        select: { phone: true, licenseExpiry: true, remindersStoppedAt: true, verified: true, language: true },
      });
      if (!driver) return undefined;
      return {
        phone: driver.phone,
        stopped: driver.remindersStoppedAt !== null || (await this.optedOut(driver.phone)),
        proven: driver.verified,
        expiry: driver.licenseExpiry,
        language: driver.language,
      };
    }
    const vehicle = await this.prisma.vehicle.findUnique({
      where: { id: reminder.entityId },
      select: {
        roadWorthyExpiryDate: true,
        insuranceExpiryDate: true,
        registrationNumber: true,
        owner: { select: { phone: true, remindersStoppedAt: true, verified: true, language: true } },
      },
    });
    if (!vehicle) return undefined;
    const expiry = reminder.document === 'roadworthy' ? vehicle.roadWorthyExpiryDate : vehicle.insuranceExpiryDate;
    return {
      phone: vehicle.owner.phone,
      stopped: vehicle.owner.remindersStoppedAt !== null || (await this.optedOut(vehicle.owner.phone)),
      proven: vehicle.owner.verified,
      expiry: expiry ?? undefined,
      subject: vehicle.registrationNumber ?? undefined,
      language: vehicle.owner.language,
    };
  }

  /** Whether the number texted STOP (docs/ussd-sms.md): it is not reminded, whoever's record names it. */
  private async optedOut(phone: string): Promise<boolean> {
    return (await this.prisma.smsOptOut.count({ where: { phone } })) > 0;
  }

  async attempt(id: string, at: Date): Promise<boolean> {
    const { count } = await this.prisma.documentReminder.updateMany({
      where: { id: BigInt(id), status: 'pending' },
      data: { attempts: { increment: 1 }, updatedAt: at },
    });
    return count === 1;
  }

  async settle(
    id: string,
    change: { status: Exclude<ReminderStatus, 'pending'>; reason?: string; at: Date },
    history?: AuditEntryInput,
  ): Promise<boolean> {
    return this.prisma.$transaction(async (tx) => {
      const { count } = await tx.documentReminder.updateMany({
        where: { id: BigInt(id), status: 'pending' },
        data: {
          status: change.status,
          reason: change.reason ?? null,
          updatedAt: change.at,
          ...(change.status === 'sent' && { sentAt: change.at }),
        },
      });
      if (count === 1 && history) await new PrismaAuditLog(tx).append([history]);
      return count === 1;
    });
  }

  async setStopped(
    record: { entity: 'owner' | 'driver'; id: string },
    stopped: boolean,
    at: Date,
    actor: Actor,
  ): Promise<Date | null | undefined> {
    return this.prisma.$transaction(async (tx) => {
      const select = { where: { id: record.id }, select: { remindersStoppedAt: true } };
      const current =
        record.entity === 'owner' ? await tx.vehicleOwner.findUnique(select) : await tx.driver.findUnique(select);
      if (!current) return undefined;
      // Asking twice changes nothing, and the history keeps only the change.
      if ((current.remindersStoppedAt !== null) === stopped) return current.remindersStoppedAt;
      const change = { where: { id: record.id }, data: { remindersStoppedAt: stopped ? at : null } };
      if (record.entity === 'owner') await tx.vehicleOwner.update(change);
      else await tx.driver.update(change);
      await new PrismaAuditLog(tx).append(
        auditEntriesFor(
          record.entity,
          [{ type: stopped ? 'RemindersStopped' : 'RemindersResumed', aggregateId: record.id, at }],
          actor,
          { remindersStopped: !stopped },
          { remindersStopped: stopped },
        ),
      );
      return change.data.remindersStoppedAt;
    });
  }

  private async queue(tx: Prisma.TransactionClient, reminderId: string, job: ReminderJob): Promise<void> {
    await this.jobs.sendInTransaction(tx, job.queue, { reminderId }, { singletonKey: job.singletonKey(reminderId) });
  }
}
