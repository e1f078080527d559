import { auditEntriesFor, type Actor, type Page, type PageRequest } from '@transport/domain';
import type {
  ApiKeyRecord,
  ApiKeyRegistry,
  AuditFilter,
  AuditRecord,
  AuditTrail,
  MerchantRecord,
  MerchantRegistry,
  NewApiKey,
  PaymentMetricsSource,
} from '../core/ports';
import type { PrismaClient } from '../generated/prisma/client';
import { PrismaAuditLog } from './prisma-audit-log';
import { everyRow, orderedPage } from './paging';
import { sqlOn } from './prisma-executor';

const toKey = (r: {
  id: string;
  role: string;
  principalId: string;
  label: string;
  revokedAt: Date | null;
  expiresAt: Date | null;
  lastUsedAt: Date | null;
  createdAt: Date;
}): ApiKeyRecord => ({
  id: r.id,
  role: r.role,
  principalId: r.principalId,
  label: r.label,
  revokedAt: r.revokedAt,
  expiresAt: r.expiresAt,
  lastUsedAt: r.lastUsedAt,
  createdAt: r.createdAt,
});

/** What an API key's audit entry shows: never the key or its hash. */
const keyAudit = (k: { role: string; principalId: string; label: string; expiresAt: Date | null }) => ({
  role: k.role,
  principalId: k.principalId,
  label: k.label,
  expiresAt: k.expiresAt?.toISOString() ?? null,
});

/** API keys in `api_keys` (SHA-256 of each key only). */
export class PrismaApiKeyRegistry implements ApiKeyRegistry {
  constructor(
    private readonly prisma: PrismaClient,
    /** Told of each key revoked, once it is (this instance's authentication cache forgets its keys at once). */
    private readonly revoked: (keyId: string) => void = () => undefined,
  ) {}

  async add(key: NewApiKey, audit: { actor: Actor }): Promise<void> {
    const { at, ...fields } = key;
    await this.prisma.$transaction(async (tx) => {
      await tx.apiKey.create({ data: { ...fields, createdAt: at, updatedAt: at } });
      await new PrismaAuditLog(tx).append(
        auditEntriesFor(
          'apiKey',
          [{ type: 'ApiKeyIssued', aggregateId: key.id, at }],
          audit.actor,
          null,
          keyAudit(key),
        ),
      );
    });
  }

  async findById(id: string): Promise<ApiKeyRecord | undefined> {
    const row = await this.prisma.apiKey.findUnique({ where: { id } });
    return row ? toKey(row) : undefined;
  }

  async revoke(id: string, at: Date, audit: { actor: Actor }): Promise<void> {
    await this.prisma.$transaction(async (tx) => {
      const row = await tx.apiKey.update({
        where: { id },
        data: { revokedAt: at, updatedAt: at, version: { increment: 1 } },
      });
      await new PrismaAuditLog(tx).append(
        auditEntriesFor('apiKey', [{ type: 'ApiKeyRevoked', aggregateId: id, at }], audit.actor, keyAudit(row), {
          ...keyAudit(row),
          revokedAt: at.toISOString(),
        }),
      );
    });
    this.revoked(id);
  }

  list(page: PageRequest): Promise<Page<ApiKeyRecord>> {
    return orderedPage(
      sqlOn(this.prisma),
      'api_keys',
      page,
      (db) => db.selectFrom('api_keys').selectAll(),
      everyRow,
      toKey,
      everyRow, // admins only: every key is theirs to see
    );
  }
}

/** Merchants in `merchants`. */
export class PrismaMerchantRegistry implements MerchantRegistry {
  constructor(private readonly prisma: PrismaClient) {}

  async exists(id: string): Promise<boolean> {
    return (await this.prisma.merchant.findUnique({ where: { id }, select: { id: true } })) !== null;
  }

  async add(
    merchant: { id: string; name: string; signingSecret: string; at: Date },
    audit: { actor: Actor },
  ): Promise<MerchantRecord> {
    const { id, name, signingSecret, at } = merchant;
    return this.prisma.$transaction(async (tx) => {
      const row = await tx.merchant.create({ data: { id, name, signingSecret, createdAt: at, updatedAt: at } });
      await new PrismaAuditLog(tx).append(
        auditEntriesFor('merchant', [{ type: 'MerchantCreated', aggregateId: id, at }], audit.actor, null, {
          id,
          name: row.name,
        }),
      );
      return { id: row.id, name: row.name, version: row.version, createdAt: row.createdAt, updatedAt: row.updatedAt };
    });
  }

  async rotateSigningSecret(
    rotation: { id: string; signingSecret: string; previousUntil: Date; at: Date },
    audit: { actor: Actor },
  ): Promise<boolean> {
    const { id, signingSecret, previousUntil, at } = rotation;
    return this.prisma.$transaction(async (tx) => {
      const current = await tx.merchant.findUnique({ where: { id }, select: { signingSecret: true, version: true } });
      if (!current) return false;
      await tx.merchant.update({
        where: { id },
        data: {
          signingSecret,
          previousSigningSecret: current.signingSecret,
          previousSecretUntil: previousUntil,
          version: current.version + 1,
          updatedAt: at,
        },
      });
      // Never the secrets themselves: only when the old one stops signing.
      await new PrismaAuditLog(tx).append(
        auditEntriesFor(
          'merchant',
          [{ type: 'MerchantSigningSecretRotated', aggregateId: id, at }],
          audit.actor,
          null,
          {
            previousSecretUntil: previousUntil.toISOString(),
          },
        ),
      );
      return true;
    });
  }
}

/** Reads `audit_log`. */
export class PrismaAuditTrail implements AuditTrail {
  constructor(private readonly prisma: PrismaClient) {}

  async forRecord(entity: string, entityId: string, limit: number): Promise<AuditRecord[]> {
    const rows = await this.prisma.auditEntry.findMany({
      where: { entity, entityId },
      orderBy: { id: 'asc' },
      take: limit,
    });
    return rows.map(toAuditRecord);
  }

  async latest(entity: string, entityId: string, actions: readonly string[]): Promise<AuditRecord | undefined> {
    const row = await this.prisma.auditEntry.findFirst({
      where: { entity, entityId, action: { in: [...actions] } },
      orderBy: { id: 'desc' },
    });
    return row ? toAuditRecord(row) : undefined;
  }

  /** Newest first on (at, id), the order of the browsing indexes; the cursor entry's (at, id) is the keyset anchor. */
  async browse(filter: AuditFilter, page: PageRequest): Promise<Page<AuditRecord>> {
    return orderedPage(
      sqlOn(this.prisma),
      'audit_log',
      page,
      (db) => db.selectFrom('audit_log').selectAll(),
      (w) =>
        w.and([
          ...(filter.entity === undefined ? [] : [w('entity', '=', filter.entity)]),
          ...(filter.actorId === undefined ? [] : [w('actorId', '=', filter.actorId)]),
          ...(filter.actorRole === undefined ? [] : [w('actorRole', '=', filter.actorRole)]),
          ...(filter.from ? [w('at', '>=', filter.from)] : []),
          ...(filter.to ? [w('at', '<', filter.to)] : []),
        ]),
      toAuditRecord,
      everyRow, // admins only: the whole log is theirs to see
    );
  }
}

function toAuditRecord(r: {
  id: bigint;
  entity: string;
  entityId: string;
  action: string;
  actorRole: string;
  actorId: string;
  before: unknown;
  after: unknown;
  at: Date;
}): AuditRecord {
  return {
    id: r.id.toString(),
    entity: r.entity,
    entityId: r.entityId,
    action: r.action,
    actor: { role: r.actorRole as Actor['role'], id: r.actorId },
    before: r.before,
    after: r.after,
    at: r.at,
  };
}

/** The payment gauges of the metrics, each one indexed count. */
export class PrismaPaymentMetrics implements PaymentMetricsSource {
  constructor(private readonly prisma: PrismaClient) {}

  pendingOlderThan(cutoff: Date): Promise<number> {
    return this.prisma.transaction.count({
      where: { status: { in: ['requesting', 'pending'] }, createdAt: { lte: cutoff } },
    });
  }

  notificationsPending(): Promise<number> {
    return this.prisma.paymentNotification.count({ where: { status: 'pending' } });
  }
}
