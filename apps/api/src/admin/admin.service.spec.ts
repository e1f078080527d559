import { sha256Hex } from '../core/platform/secrets';
import { ADMIN, InMemoryMerchants, fakePorts } from '../core/testing/fixtures';
import type { Actor } from '@transport/domain';
import type { ApiKeyRecord, ApiKeyRegistry, AuditRecord, AuditTrail, NewApiKey } from '../core/ports';
import { referenceDataOnFakes } from '../reference-data/reference-data.testing';
import { adminOnFakes } from './admin.testing';

/** The admin ports in memory (the Prisma adapters are covered by the end-to-end tests). */
class InMemoryKeys implements ApiKeyRegistry {
  readonly rows: Array<ApiKeyRecord & { keyHash: string }> = [];
  readonly audit: Array<{ action: string; id: string; actor: Actor }> = [];
  async add(k: NewApiKey, audit: { actor: Actor }) {
    this.rows.push({
      id: k.id,
      keyHash: k.keyHash,
      role: k.role,
      principalId: k.principalId,
      label: k.label,
      revokedAt: null,
      expiresAt: k.expiresAt,
      lastUsedAt: null,
      createdAt: k.at,
    });
    this.audit.push({ action: 'ApiKeyIssued', id: k.id, actor: audit.actor });
  }
  findById = async (id: string) => this.rows.find((r) => r.id === id);
  async revoke(id: string, at: Date, audit: { actor: Actor }) {
    this.rows.find((r) => r.id === id)!.revokedAt = at;
    this.audit.push({ action: 'ApiKeyRevoked', id, actor: audit.actor });
  }
  list = async () => ({ items: [...this.rows].reverse() });
}

class FixedTrail implements AuditTrail {
  constructor(readonly entries: AuditRecord[]) {}
  forRecord = async (entity: string, id: string, limit: number) =>
    this.entries.filter((e) => e.entity === entity && e.entityId === id).slice(0, limit);
  latest = async (entity: string, id: string, actions: readonly string[]) =>
    this.entries.filter((e) => e.entity === entity && e.entityId === id && actions.includes(e.action)).at(-1);
  browse = async (filter: { entity?: string }) => ({
    items: this.entries.filter((e) => filter.entity === undefined || e.entity === filter.entity),
  });
}

function setup(trail: AuditRecord[] = []) {
  const p = fakePorts();
  const keys = new InMemoryKeys();
  const merchants = new InMemoryMerchants();
  const admin = adminOnFakes({ ...p, keys, merchants, audit: new FixedTrail(trail) });
  return {
    ...p,
    keys,
    merchants,
    admin,
    reference: referenceDataOnFakes(p),
  };
}

describe('AdminService on fakes', () => {
  it('issues a key shown once; only its SHA-256 is stored', async () => {
    const s = setup();
    const issued = await s.admin.issueKey('platform', '65a0000000000000000000b1', ADMIN, { label: 'app' });
    expect(issued).toMatchObject({ role: 'platform', principal: '65a0000000000000000000b1', key: expect.any(String) });
    expect(s.keys.rows[0].keyHash).toBe(sha256Hex(issued.key));
    expect(s.keys.rows[0].keyHash).not.toContain(issued.key);
    expect((await s.admin.listKeys({ limit: 50 })).items).toEqual([
      {
        _id: issued._id,
        role: 'platform',
        principal: '65a0000000000000000000b1',
        label: 'app',
        revoked: false,
        expiresAt: null,
        lastUsedAt: null,
        createdAt: expect.any(String),
      },
    ]);
  });

  it('refuses an unknown role (INVALID_ROLE), a malformed principal, and an assembly or merchant principal that does not exist', async () => {
    const s = setup();
    await expect(s.admin.issueKey('root', '65a0000000000000000000b1', ADMIN)).rejects.toMatchObject({
      code: 'INVALID_ROLE',
      kind: 'validation',
    });
    await expect(s.admin.issueKey('admin', 'nope', ADMIN)).rejects.toMatchObject({ code: 'INVALID_ID' });
    await expect(s.admin.issueKey('assembly', '65a0000000000000000000b1', ADMIN)).rejects.toMatchObject({
      code: 'PRINCIPAL_NOT_FOUND',
      kind: 'rule',
    });
    await expect(s.admin.issueKey('merchant', '65a0000000000000000000b1', ADMIN)).rejects.toMatchObject({
      code: 'PRINCIPAL_NOT_FOUND',
    });
    expect(s.keys.rows).toEqual([]);
  });

  it('issues keys for an existing assembly user and an existing merchant', async () => {
    const s = setup();
    const region = await s.reference.addRegion({ name: 'Ashanti', country: '65a00000000000000000c0c0' }, ADMIN);
    const assembly = await s.reference.addAssembly(
      { name: 'KMA', regionId: region._id, digitalAddress: 'AK-039-5028', type: 'metropolitan' },
      ADMIN,
    );
    const user = await s.reference.addAssemblyUser(
      { assemblyId: assembly._id, name: 'Abena', email: 'abena@ama.gov.gh', phone: '0244000111', role: 'inspector' },
      ADMIN,
    );
    const merchant = await s.admin.addMerchant('  Kumasi Rides  ', ADMIN);
    expect((await s.admin.issueKey('assembly', user._id, ADMIN)).role).toBe('assembly');
    expect((await s.admin.issueKey('merchant', merchant._id, ADMIN)).role).toBe('merchant');
  });

  it('adds a merchant with a signing secret shown once, attributed to the admin', async () => {
    const s = setup();
    const merchant = await s.admin.addMerchant('  Kumasi Rides  ', ADMIN);
    expect(merchant).toMatchObject({ name: 'Kumasi Rides', signingSecret: expect.any(String), __v: 0 });
    expect(s.merchants.rows[0]).toMatchObject({ signingSecret: merchant.signingSecret, actor: ADMIN });
  });

  it('revokes a key at once; revoking twice is harmless; an unknown key is NOT_FOUND', async () => {
    const s = setup();
    const issued = await s.admin.issueKey('admin', '65a0000000000000000000b1', ADMIN);
    expect(await s.admin.revokeKey(issued._id, ADMIN)).toEqual({ _id: issued._id, revoked: true });
    const revokedAt = s.keys.rows[0].revokedAt;
    s.clock.advance(5000);
    await s.admin.revokeKey(issued._id, ADMIN);
    expect(s.keys.rows[0].revokedAt).toEqual(revokedAt);
    expect((await s.admin.listKeys({ limit: 50 })).items[0].revoked).toBe(true);
    await expect(s.admin.revokeKey('65a0000000000000000000ff', ADMIN)).rejects.toMatchObject({
      code: 'NOT_FOUND',
      kind: 'not_found',
    });
    // Issued and revoked once each, by the admin who did it.
    expect(s.keys.audit).toEqual([
      { action: 'ApiKeyIssued', id: issued._id, actor: ADMIN },
      { action: 'ApiKeyRevoked', id: issued._id, actor: ADMIN },
    ]);
  });

  it('issues a key that expires, only in the future and at most five years ahead', async () => {
    const s = setup();
    const inAMonth = new Date(s.clock.now().getTime() + 30 * 86_400_000);
    const issued = await s.admin.issueKey('admin', '65a0000000000000000000b1', ADMIN, { expiresAt: inAMonth });
    expect(issued.expiresAt).toBe(inAMonth.toISOString());
    expect((await s.admin.listKeys({ limit: 50 })).items[0]).toMatchObject({
      expiresAt: inAMonth.toISOString(),
      lastUsedAt: null,
    });
    for (const expiresAt of [s.clock.now(), new Date(s.clock.now().getTime() + 6 * 366 * 86_400_000)]) {
      await expect(s.admin.issueKey('admin', '65a0000000000000000000b1', ADMIN, { expiresAt })).rejects.toMatchObject({
        code: 'INVALID_DATE',
        field: 'expiresAt',
      });
    }
  });

  it("answers a record's audit trail oldest first, in the wire shape", async () => {
    const at = new Date('2026-06-01T09:00:00Z');
    const s = setup([
      {
        id: '1',
        entity: 'vehicle',
        entityId: 'v1',
        action: 'VehicleRegistered',
        actor: ADMIN,
        before: null,
        after: { a: 1 },
        at,
      },
      { id: '2', entity: 'driver', entityId: 'v1', action: 'Other', actor: ADMIN, before: null, after: null, at },
    ]);
    expect(await s.admin.auditFor('vehicle', 'v1', ADMIN)).toEqual([
      {
        _id: '1',
        entity: 'vehicle',
        entityId: 'v1',
        action: 'VehicleRegistered',
        actor: { role: 'admin', id: ADMIN.id },
        before: null,
        after: { a: 1 },
        at: at.toISOString(),
      },
    ]);
  });
});
