import {
  Driver,
  DuplicateErrors,
  GENDERS,
  ID_TYPES,
  LICENSE_CLASSES,
  oneOf,
  parseApprovalChecklist,
  type ActivationTries,
  type DriverListFilter,
  type DriverRepository,
  type DriverSortField,
  type DriverStanding,
  type DriverState,
  type DriverSummary,
  type Page,
  type PageRequest,
  type Mutable,
  parseLanguage,
} from '@transport/domain';
import { driverRow } from '@transport/rows';
import type { Driver as DriverRow } from '../generated/prisma/client';
import { mapped, MappingError } from './mapping-error';
import { assertOneUpdated } from './optimistic';
import { inAssemblyScope, orderedPage, type Condition } from './paging';
import { sqlOn, type PrismaExecutor } from './prisma-executor';
import { translateUniqueViolation } from './prisma-errors';

export function toDomain(row: DriverRow): Driver {
  return mapped('drivers', row.id, () => {
    const s: Mutable<DriverState> = {
      id: row.id,
      name: row.name,
      phone: row.phone,
      email: row.email,
      license: row.license,
      licenseClass: oneOf(LICENSE_CLASSES, row.licenseClass, 'licenseClass'),
      licenseExpiry: row.licenseExpiry,
      licenseIssueDate: row.licenseIssueDate,
      idType: oneOf(ID_TYPES, row.idType, 'idType'),
      idNumber: row.idNumber,
      gender: oneOf(GENDERS, row.gender, 'gender'),
      language: parseLanguage(row.language),
      online: row.online,
      busy: row.busy,
      verified: row.verified,
      approved: row.approved,
      activationKeyHash: row.activationKeyHash,
      activationAttempts: row.activationAttempts,
      activationTries: activationTriesOf(row.id, row.activationTries),
      activationKeyExpiresAt: row.activationKeyExpiresAt,
      ratingTotal: row.ratingTotal,
      ratingCount: row.ratingCount,
      version: row.version,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
    };
    if (row.approvalChecklist !== null) s.approvalChecklist = parseApprovalChecklist(row.approvalChecklist);
    if (row.approvedBy !== null) s.approvedBy = row.approvedBy;
    if (row.dateApproved !== null) s.dateApproved = row.dateApproved;
    if (row.revocationReason !== null) {
      if (row.revokedBy === null || row.dateRevoked === null)
        throw new MappingError('drivers', row.id, 'incomplete revocation');
      s.revocation = { reason: row.revocationReason, revokedBy: row.revokedBy, dateRevoked: row.dateRevoked };
    }
    if (row.dateActivated !== null) s.dateActivated = row.dateActivated;
    if (row.phoneSetBy !== null) s.phoneSetBy = row.phoneSetBy;
    if (row.emailSetBy !== null) s.emailSetBy = row.emailSetBy;
    if (row.registeredBy !== null) s.registeredBy = row.registeredBy;
    if (row.ownerId !== null) s.ownerId = row.ownerId;
    if (row.walletAccount !== null) s.walletAccount = row.walletAccount;
    if (row.assemblyId !== null) s.assemblyId = row.assemblyId;
    if (s.busy && !s.online) throw new MappingError('drivers', row.id, 'busy but offline');
    return Driver.restore(s);
  });
}

/** The stored per-address tries ({ failures, retryAt } by address key); anything else cannot be mapped. */
function activationTriesOf(id: string, stored: unknown): Record<string, ActivationTries> {
  if (stored === null || typeof stored !== 'object' || Array.isArray(stored))
    throw new MappingError('drivers', id, 'activationTries is not an object');
  return Object.fromEntries(
    Object.entries(stored).map(([from, t]) => {
      const { failures, retryAt } = (t ?? {}) as { failures?: unknown; retryAt?: unknown };
      const at = new Date(String(retryAt));
      if (!Number.isInteger(failures) || Number.isNaN(at.getTime()))
        throw new MappingError('drivers', id, 'activationTries holds a malformed entry');
      return [from, { failures: failures as number, retryAt: at }];
    }),
  );
}

/** The partial unique index on the email of activated drivers (in the migration: Prisma cannot declare one). */
const uniqueErrors = { drivers_email_verified_key: DuplicateErrors.driverEmail, email: DuplicateErrors.driverEmail };

/** Writes and single-record reads through Prisma's models; lists through Kysely on the same client (`sqlOn`). */
export class PrismaDriverRepository implements DriverRepository {
  constructor(
    private readonly db: PrismaExecutor,
    /** Where list pages read: the read replica when there is one (never inside a unit of work). */
    private readonly lists: PrismaExecutor = db,
  ) {}

  async add(driver: Driver): Promise<Driver> {
    try {
      return toDomain(await this.db.driver.create({ data: driverRow(driver.toState()) }));
    } catch (error) {
      translateUniqueViolation(error, uniqueErrors);
    }
  }

  async update(driver: Driver): Promise<Driver> {
    const s = driver.toState();
    const { id, createdAt: _c, ...data } = driverRow(s);
    let count: number;
    try {
      ({ count } = await this.db.driver.updateMany({
        where: { id, version: s.version },
        data: { ...data, version: s.version + 1 },
      }));
    } catch (error) {
      translateUniqueViolation(error, uniqueErrors);
    }
    await assertOneUpdated(count, 'driver', id, () =>
      this.db.driver.findUnique({ where: { id }, select: { id: true } }),
    );
    return Driver.restore({ ...s, version: s.version + 1 });
  }

  async findById(id: string): Promise<Driver | undefined> {
    const row = await this.db.driver.findUnique({ where: { id } });
    return row ? toDomain(row) : undefined;
  }

  /** Emails are stored lower-cased, so the index on them answers case-insensitive lookups. */
  async findByEmail(email: string): Promise<Driver[]> {
    const rows = await this.db.driver.findMany({
      where: { email: email.trim().toLowerCase() },
      orderBy: [{ verified: 'desc' }, { createdAt: 'asc' }, { id: 'asc' }],
    });
    return rows.map(toDomain);
  }

  async list(filter: DriverListFilter, page: PageRequest<DriverSortField>): Promise<Page<Driver>> {
    return orderedPage(
      sqlOn(this.lists),
      'drivers',
      page,
      (db) => db.selectFrom('drivers').selectAll(),
      matching(filter),
      toDomain,
      inAssemblyScope(filter.assemblyId),
    );
  }

  /** The public's columns only: no timestamps parsed, no checklist read, no aggregate restored. */
  async listSummaries(filter: DriverListFilter, page: PageRequest<DriverSortField>): Promise<Page<DriverSummary>> {
    return orderedPage(
      sqlOn(this.lists),
      'drivers',
      page,
      (db) =>
        db
          .selectFrom('drivers')
          .select(['id', 'name', 'approved', 'ratingTotal', 'ratingCount', 'createdAt', 'updatedAt', 'version']),
      matching(filter),
      (row) => ({ ...row }),
      inAssemblyScope(filter.assemblyId),
    );
  }
}

/** Emails are stored lower-cased, so the index on them answers case-insensitive lookups. */
const matching =
  (filter: DriverListFilter): Condition<'drivers'> =>
  (w) => {
    const email = filter.email?.trim().toLowerCase();
    return w.and([
      ...(filter.approved === undefined ? [] : [w('approved', '=', filter.approved)]),
      ...(email === undefined ? [] : [w('email', '=', email)]),
      ...(filter.assemblyId === undefined ? [] : [w('assemblyId', '=', filter.assemblyId)]),
      ...(filter.standing === undefined ? [] : [standing(w, filter.standing)]),
      ...(filter.licenseEndingBy === undefined ? [] : [w('licenseExpiry', '<=', filter.licenseEndingBy)]),
    ]);
  };

/**
 * Where a driver stands, as the domain's `driverStanding` reads it from the approval and the revocation (stored
 * together: reason, by whom and when; the few revoked drivers are found through the index on when).
 */
function standing(w: Parameters<Condition<'drivers'>>[0], state: DriverStanding) {
  switch (state) {
    case 'approved':
      return w('approved', '=', true);
    case 'revoked':
      return w.and([w('approved', '=', false), w('dateRevoked', 'is not', null)]);
    case 'awaiting_approval':
      return w.and([w('approved', '=', false), w('dateRevoked', 'is', null)]);
  }
}
