import {
  ID_TYPES,
  oneOf,
  parseLanguage,
  phoneSearchForms,
  VehicleOwner,
  type Page,
  type PageRequest,
  type VehicleOwnerRepository,
} from '@transport/domain';
import { vehicleOwnerRow } from '@transport/rows';
import type { VehicleOwner as OwnerRow } from '../generated/prisma/client';
import { mapped } from './mapping-error';
import { assertOneUpdated } from './optimistic';
import { sqlOn, type PrismaExecutor, type Sql } from './prisma-executor';
import { containing, inAssemblyScope, orderedPage, type Condition } from './paging';

export function toDomain(row: OwnerRow): VehicleOwner {
  return mapped('vehicle_owners', row.id, () =>
    VehicleOwner.restore({
      id: row.id,
      name: row.name,
      phone: row.phone,
      ...(row.email !== null && { email: row.email }),
      idType: oneOf(ID_TYPES, row.idType, 'idType'),
      idNumber: row.idNumber,
      verified: row.verified,
      ...(row.assemblyId !== null && { assemblyId: row.assemblyId }),
      language: parseLanguage(row.language),
      version: row.version,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
    }),
  );
}

/** Writes and single-record reads through Prisma's models; lists, searches and batches through Kysely (`sqlOn`). */
export class PrismaVehicleOwnerRepository implements VehicleOwnerRepository {
  constructor(
    private readonly db: PrismaExecutor,
    /** Where list pages and searches read: the read replica when there is one (never inside a unit of work). */
    private readonly lists: PrismaExecutor = db,
  ) {}

  async add(owner: VehicleOwner): Promise<VehicleOwner> {
    return toDomain(await this.db.vehicleOwner.create({ data: vehicleOwnerRow(owner.toState()) }));
  }

  async update(owner: VehicleOwner): Promise<VehicleOwner> {
    const s = owner.toState();
    const { id, createdAt: _c, ...data } = vehicleOwnerRow(s);
    const { count } = await this.db.vehicleOwner.updateMany({
      where: { id, version: s.version },
      data: { ...data, version: s.version + 1 },
    });
    await assertOneUpdated(count, 'vehicle owner', id, () =>
      this.db.vehicleOwner.findUnique({ where: { id }, select: { id: true } }),
    );
    return VehicleOwner.restore({ ...s, version: s.version + 1 });
  }

  async findById(id: string): Promise<VehicleOwner | undefined> {
    const row = await this.db.vehicleOwner.findUnique({ where: { id } });
    return row ? toDomain(row) : undefined;
  }

  async findByIds(ids: readonly string[]): Promise<VehicleOwner[]> {
    if (ids.length === 0) return [];
    return (
      await allOwners(sqlOn(this.db))
        .where('id', 'in', [...ids])
        .execute()
    ).map(toDomain);
  }

  async list(page: PageRequest, assemblyId?: string): Promise<Page<VehicleOwner>> {
    return this.page(page, assemblyId, (w) => w.and(inAssembly(w, assemblyId)));
  }

  /** Served by the trigram GIN indexes on name, phone and email (ILIKE '%...%'). */
  async search(query: string, page: PageRequest, assemblyId?: string): Promise<Page<VehicleOwner>> {
    const needle = containing(query.trim());
    const phones = phoneSearchForms(query.trim().toLowerCase()).map(containing);
    return this.page(page, assemblyId, (w) =>
      w.and([
        w.or([
          w('name', 'ilike', needle),
          w('email', 'like', needle.toLowerCase()),
          ...phones.map((p) => w('phone', 'like', p)),
        ]),
        ...inAssembly(w, assemblyId),
      ]),
    );
  }

  private page(
    page: PageRequest,
    assemblyId: string | undefined,
    where: Condition<'vehicle_owners'>,
  ): Promise<Page<VehicleOwner>> {
    const scope = inAssemblyScope<'vehicle_owners'>(assemblyId);
    return orderedPage(sqlOn(this.lists), 'vehicle_owners', page, allOwners, where, toDomain, scope);
  }
}

const allOwners = (db: Sql) => db.selectFrom('vehicle_owners').selectAll();

const inAssembly = (w: Parameters<Condition<'vehicle_owners'>>[0], assemblyId: string | undefined) =>
  assemblyId === undefined ? [] : [w('assemblyId', '=', assemblyId)];
