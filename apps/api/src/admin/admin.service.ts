import { Inject, Injectable } from '@nestjs/common';
import {
  assertObjectId,
  CommonErrors,
  DomainError,
  jurisdictionOf,
  NATIONWIDE,
  withinJurisdiction,
  type Actor,
  type Clock,
  type DataStores,
  type IdGenerator,
  type Page,
  type PageRequest,
} from '@transport/domain';
import { ROLES, type Role } from '../core/auth/principal';
import { AppError } from '../core/errors';
import { hashApiKey, newApiKey, newSigningSecret } from '../core/platform/secrets';
import type { ApiKeyRegistry, AuditFilter, AuditTrail, MerchantRegistry } from '../core/ports';
import { API_KEYS, AUDIT_TRAIL, CLOCK, ID_GENERATOR, MERCHANTS, STORES } from '../core/tokens';

/** The longest an API key may be issued for. */
const MAX_KEY_LIFETIME_MS = 5 * 366 * 86_400_000;
import {
  toAuditEntryResponse,
  toKeySummary,
  type AuditEntryResponse,
  type IssuedKeyResponse,
  type KeySummaryResponse,
  type MerchantCreatedResponse,
} from './admin.dto';

/** At most this many audit entries per record are answered (oldest first). */
const AUDIT_LIMIT = 1000;

/** The operator's work: API keys, merchants, and reading the audit log. */
@Injectable()
export class AdminService {
  constructor(
    @Inject(API_KEYS) private readonly keys: ApiKeyRegistry,
    @Inject(MERCHANTS) private readonly merchants: MerchantRegistry,
    @Inject(AUDIT_TRAIL) private readonly audit: AuditTrail,
    @Inject(STORES) private readonly stores: DataStores,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
  ) {}

  /**
   * Issues a new API key for a principal, optionally expiring. The key is returned this once; only its hash is
   * stored. Audited with the issuing admin.
   */
  async issueKey(
    role: string,
    principal: string,
    actor: Actor,
    options: { label?: string; expiresAt?: Date } = {},
  ): Promise<IssuedKeyResponse> {
    const now = this.clock.now();
    const expiresAt = options.expiresAt ?? null;
    if (expiresAt && (expiresAt <= now || expiresAt.getTime() - now.getTime() > MAX_KEY_LIFETIME_MS)) {
      throw new DomainError('INVALID_DATE', 'expiresAt must be in the future and at most 5 years ahead', 'expiresAt');
    }
    if (!(ROLES as readonly string[]).includes(role))
      throw new DomainError('INVALID_ROLE', `role must be one of ${ROLES.join(', ')}`, 'role');
    assertObjectId(principal, 'principal');
    // Assembly and merchant keys act for a stored user or merchant (their data is scoped by it): it must exist.
    const exists =
      role === 'assembly'
        ? (await this.stores.assemblyUsers.findById(principal)) !== undefined
        : role === 'merchant'
          ? await this.merchants.exists(principal)
          : true;
    if (!exists)
      throw new DomainError(
        'PRINCIPAL_NOT_FOUND',
        `No ${role === 'assembly' ? 'assembly user' : 'merchant'} with id ${principal}`,
        'principal',
      );
    const key = newApiKey(role);
    const id = this.ids.next();
    await this.keys.add(
      { id, keyHash: hashApiKey(key), role, principalId: principal, label: options.label ?? '', expiresAt, at: now },
      { actor },
    );
    return { _id: id, key, role: role as Role, principal, expiresAt: expiresAt?.toISOString() ?? null };
  }

  /** Revokes a key at once (the next request with it gets 401), audited. Revoking twice is harmless. */
  async revokeKey(id: string, actor: Actor): Promise<{ _id: string; revoked: true }> {
    assertObjectId(id, 'id');
    const key = await this.keys.findById(id);
    if (!key) throw CommonErrors.notFound('API key', id);
    if (!key.revokedAt) await this.keys.revoke(id, this.clock.now(), { actor });
    return { _id: id, revoked: true };
  }

  /** Every key, never the key itself: newest first, a page at a time. */
  async listKeys(request: PageRequest): Promise<Page<KeySummaryResponse>> {
    const page = await this.keys.list(request);
    return { ...page, items: page.items.map(toKeySummary) };
  }

  /** A merchant and its notification signing secret, shown this once. */
  async addMerchant(name: string, actor: Actor): Promise<MerchantCreatedResponse> {
    const signingSecret = newSigningSecret();
    const merchant = await this.merchants.add(
      { id: this.ids.next(), name: name.trim(), signingSecret, at: this.clock.now() },
      { actor },
    );
    return {
      _id: merchant.id,
      name: merchant.name,
      signingSecret,
      createdAt: merchant.createdAt.toISOString(),
      updatedAt: merchant.updatedAt.toISOString(),
      __v: merchant.version,
    };
  }

  /** The whole log, newest first, narrowed by any of the filters. */
  async browseAudit(filter: AuditFilter, page: PageRequest): Promise<Page<AuditEntryResponse>> {
    const found = await this.audit.browse(filter, page);
    return { ...found, items: found.items.map(toAuditEntryResponse) };
  }

  /** A record's history, oldest first. */
  /**
   * A record's history. Assembly staff read only their own assembly's vehicles, drivers and owners: the records their
   * work is about, which they already see whole.
   */
  async auditFor(entity: string, id: string, actor: Actor): Promise<AuditEntryResponse[]> {
    const jurisdiction = jurisdictionOf(actor);
    if (jurisdiction !== NATIONWIDE) {
      const stores = { vehicle: this.stores.vehicles, driver: this.stores.drivers, owner: this.stores.owners } as const;
      if (!(entity in stores)) {
        throw new AppError('FORBIDDEN', 'Assembly staff may read the history of vehicles, drivers and owners only');
      }
      const record = await stores[entity as keyof typeof stores].findById(id);
      withinJurisdiction(jurisdiction, record, entity, id);
    }
    return (await this.audit.forRecord(entity, id, AUDIT_LIMIT)).map(toAuditEntryResponse);
  }
}
