import {
  ID_TYPES,
  oneOf,
  phoneSearchForms,
  VehicleOwner,
  type Page,
  type PageRequest,
  type VehicleOwnerRepository,
  type VehicleOwnerState,
} from '@transport/domain';
import type { VehicleOwner as OwnerRow } from '../generated/prisma/client';
import { mapped } from './mapping-error';
import { assertOneUpdated } from './optimistic';
import { afterCondition, NEWEST_FIRST, toPage } from './paging';
import type { PrismaExecutor } from './prisma-executor';

export function toDomain(row: OwnerRow): VehicleOwner {
  return mapped('vehicle_owners', row.id, () =>
    VehicleOwner.restore({
      id: row.id,
      name: row.name,
      phone: row.phone,
      email: row.email,
      idType: oneOf(ID_TYPES, row.idType, 'idType'),
      idNumber: row.idNumber,
      verified: row.verified,
      ...(row.assemblyId !== null && { assemblyId: row.assemblyId }),
      version: row.version,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
    }),
  );
}

export function toPersistence(s: VehicleOwnerState) {
  return {
    id: s.id,
    name: s.name,
    phone: s.phone,
    email: s.email,
    idType: s.idType,
    idNumber: s.idNumber,
    verified: s.verified,
    assemblyId: s.assemblyId ?? null,
    version: s.version,
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
  };
}

/** Prisma's `contains` wraps the text in % without escaping it: escape LIKE's wildcards so they match literally. */
function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

export class PrismaVehicleOwnerRepository implements VehicleOwnerRepository {
  constructor(private readonly db: PrismaExecutor) {}

  async add(owner: VehicleOwner): Promise<VehicleOwner> {
    return toDomain(await this.db.vehicleOwner.create({ data: toPersistence(owner.toState()) }));
  }

  async update(owner: VehicleOwner): Promise<VehicleOwner> {
    const s = owner.toState();
    const { id, createdAt: _c, ...data } = toPersistence(s);
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
    return (await this.db.vehicleOwner.findMany({ where: { id: { in: [...ids] } } })).map(toDomain);
  }

  async list(page: PageRequest, assemblyId?: string): Promise<Page<VehicleOwner>> {
    return this.page({ assemblyId }, page);
  }

  /** Served by the trigram GIN indexes on name, phone and email (ILIKE '%...%'). */
  async search(query: string, page: PageRequest, assemblyId?: string): Promise<Page<VehicleOwner>> {
    const needle = escapeLike(query.trim());
    const phones = phoneSearchForms(query.trim().toLowerCase()).map(escapeLike);
    return this.page(
      {
        OR: [
          { name: { contains: needle, mode: 'insensitive' as const } },
          { email: { contains: needle.toLowerCase() } },
          ...phones.map((p) => ({ phone: { contains: p } })),
        ],
        assemblyId,
      },
      page,
    );
  }

  private async page(where: object, page: PageRequest): Promise<Page<VehicleOwner>> {
    let after = {};
    if (page.after !== undefined) {
      const condition = afterCondition(
        await this.db.vehicleOwner.findUnique({ where: { id: page.after }, select: { id: true, createdAt: true } }),
      );
      if (!condition) return { items: [] };
      after = condition;
    }
    const rows = await this.db.vehicleOwner.findMany({
      where: { AND: [where, after] },
      orderBy: NEWEST_FIRST,
      take: page.limit + 1,
    });
    return toPage(rows, page, toDomain);
  }
}
