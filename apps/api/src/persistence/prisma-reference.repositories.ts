import {
  Assembly,
  ASSEMBLY_ROLES,
  ASSEMBLY_TYPES,
  AssemblyUser,
  DuplicateErrors,
  oneOf,
  Region,
  Station,
  TransportUnion,
  UNION_STATUSES,
  type AssemblyRepository,
  type AssemblyUserRepository,
  type Page,
  type PageRequest,
  type RegionRepository,
  type StationRepository,
  type TransportUnionRepository,
} from '@transport/domain';
import type {
  Assembly as AssemblyRow,
  AssemblyUser as AssemblyUserRow,
  Region as RegionRow,
  Station as StationRow,
  TransportUnion as UnionRow,
} from '../generated/prisma/client';
import { mapped, MappingError } from './mapping-error';
import { newestFirstPage, type NewestFirstModel } from './paging';
import type { ListSource, PrismaExecutor } from './prisma-executor';
import { outsideTransaction, type ReadDb } from './read-db';
import { assertOneUpdated } from './optimistic';
import { translateUniqueViolation } from './prisma-errors';

// Reference data: regions, assemblies, assembly users, stations and transport unions. Created and read; the
// management issue adds their updates.

export const regionToDomain = (row: RegionRow): Region =>
  Region.restore({
    id: row.id,
    name: row.name,
    country: row.country,
    version: row.version,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  });

export const assemblyToDomain = (row: AssemblyRow): Assembly =>
  mapped('assemblies', row.id, () =>
    Assembly.restore({
      id: row.id,
      name: row.name,
      regionId: row.regionId,
      digitalAddress: row.digitalAddress,
      type: oneOf(ASSEMBLY_TYPES, row.type, 'type'),
      version: row.version,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
    }),
  );

export const assemblyUserToDomain = (row: AssemblyUserRow): AssemblyUser =>
  mapped('assembly_users', row.id, () =>
    AssemblyUser.restore({
      id: row.id,
      assemblyId: row.assemblyId,
      name: row.name,
      email: row.email,
      phone: row.phone,
      role: oneOf(ASSEMBLY_ROLES, row.role, 'role'),
      ...(row.disabledAt !== null && { disabledAt: row.disabledAt }),
      version: row.version,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
    }),
  );

export function stationToDomain(row: StationRow): Station {
  const contactNumber = Number(row.contactNumber);
  if (!Number.isSafeInteger(contactNumber)) throw new MappingError('stations', row.id, 'contactNumber out of range');
  return Station.restore({
    id: row.id,
    name: row.name,
    transportUnions: row.transportUnions,
    zones: row.zones,
    contactNumber,
    digitalAddress: row.digitalAddress,
    version: row.version,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  });
}

export const unionToDomain = (row: UnionRow): TransportUnion =>
  mapped('transport_unions', row.id, () =>
    TransportUnion.restore({
      id: row.id,
      status: oneOf(UNION_STATUSES, row.status, 'status'),
      name: row.name,
      digitalAddress: row.digitalAddress,
      contactNumber: row.contactNumber,
      email: row.email,
      zones: row.zones,
      version: row.version,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
      ...(row.parentUnionId === null ? {} : { parentUnionId: row.parentUnionId }),
    }),
  );

export class PrismaRegionRepository implements RegionRepository {
  constructor(
    private readonly db: PrismaExecutor,
    private readonly lists?: ListSource,
  ) {}

  async add(region: Region): Promise<Region> {
    try {
      return regionToDomain(await this.db.region.create({ data: { ...region.toState() } }));
    } catch (error) {
      translateUniqueViolation(error, { name: DuplicateErrors.region, country: DuplicateErrors.region });
    }
  }
  async findById(id: string): Promise<Region | undefined> {
    const row = await this.db.region.findUnique({ where: { id } });
    return row ? regionToDomain(row) : undefined;
  }
  async findByIds(ids: readonly string[]): Promise<Region[]> {
    return (await this.db.region.findMany({ where: { id: { in: [...ids] } } })).map(regionToDomain);
  }
  list(page: PageRequest): Promise<Page<Region>> {
    return newestFirstPage(
      (this.lists?.prisma ?? this.db).region as unknown as NewestFirstModel<RegionRow>,
      page,
      regionToDomain,
    );
  }
}

export class PrismaAssemblyRepository implements AssemblyRepository {
  constructor(
    private readonly db: PrismaExecutor,
    private readonly lists?: ListSource,
  ) {}

  async add(assembly: Assembly): Promise<Assembly> {
    return assemblyToDomain(await this.db.assembly.create({ data: { ...assembly.toState() } }));
  }
  async findById(id: string): Promise<Assembly | undefined> {
    const row = await this.db.assembly.findUnique({ where: { id } });
    return row ? assemblyToDomain(row) : undefined;
  }
  list(page: PageRequest): Promise<Page<Assembly>> {
    return newestFirstPage(
      (this.lists?.prisma ?? this.db).assembly as unknown as NewestFirstModel<AssemblyRow>,
      page,
      assemblyToDomain,
    );
  }
}

export class PrismaAssemblyUserRepository implements AssemblyUserRepository {
  constructor(
    private readonly db: PrismaExecutor,
    private readonly lists?: ListSource,
  ) {}

  async add(user: AssemblyUser): Promise<AssemblyUser> {
    try {
      return assemblyUserToDomain(await this.db.assemblyUser.create({ data: { ...user.toState() } }));
    } catch (error) {
      translateUniqueViolation(error, { email: DuplicateErrors.assemblyUserEmail });
    }
  }
  async update(user: AssemblyUser): Promise<AssemblyUser> {
    const { id, createdAt: _c, version, ...state } = user.toState();
    const { count } = await this.db.assemblyUser.updateMany({
      where: { id, version },
      data: { ...state, disabledAt: state.disabledAt ?? null, version: version + 1 },
    });
    await assertOneUpdated(count, 'assembly user', id, () =>
      this.db.assemblyUser.findUnique({ where: { id }, select: { id: true } }),
    );
    return AssemblyUser.restore({ ...user.toState(), version: version + 1 });
  }
  async findById(id: string): Promise<AssemblyUser | undefined> {
    const row = await this.db.assemblyUser.findUnique({ where: { id } });
    return row ? assemblyUserToDomain(row) : undefined;
  }
  async findByPhone(phone: string): Promise<AssemblyUser | undefined> {
    const row = await this.db.assemblyUser.findFirst({ where: { phone } });
    return row ? assemblyUserToDomain(row) : undefined;
  }
  list(filter: { assemblyId?: string }, page: PageRequest): Promise<Page<AssemblyUser>> {
    return newestFirstPage(
      (this.lists?.prisma ?? this.db).assemblyUser as unknown as NewestFirstModel<AssemblyUserRow>,
      page,
      assemblyUserToDomain,
      filter.assemblyId === undefined ? {} : { assemblyId: filter.assemblyId },
    );
  }
}

/** Batches of stations and unions (embedded in every vehicle list) are read through Kysely (read-db.ts). */
export class PrismaStationRepository implements StationRepository {
  constructor(
    private readonly db: PrismaExecutor,
    private readonly readDb?: ReadDb,
    private readonly lists?: ListSource,
  ) {}

  /** Kysely, outside units of work only (inside one, every read is on the transaction's connection). */
  private get reads(): ReadDb {
    return outsideTransaction(this.readDb);
  }

  async add(station: Station): Promise<Station> {
    const s = station.toState();
    return stationToDomain(
      await this.db.station.create({
        data: {
          ...s,
          transportUnions: [...s.transportUnions],
          zones: [...s.zones],
          contactNumber: BigInt(s.contactNumber),
        },
      }),
    );
  }
  async findById(id: string): Promise<Station | undefined> {
    const row = await this.db.station.findUnique({ where: { id } });
    return row ? stationToDomain(row) : undefined;
  }
  list(page: PageRequest): Promise<Page<Station>> {
    return newestFirstPage(
      (this.lists?.prisma ?? this.db).station as unknown as NewestFirstModel<StationRow>,
      page,
      stationToDomain,
    );
  }
  async findByIds(ids: readonly string[]): Promise<Station[]> {
    if (ids.length === 0) return [];
    if (!this.readDb) return (await this.db.station.findMany({ where: { id: { in: [...ids] } } })).map(stationToDomain);
    return (
      await this.reads
        .selectFrom('stations')
        .selectAll()
        .where('id', 'in', [...ids])
        .execute()
    ).map(stationToDomain);
  }
}

export class PrismaTransportUnionRepository implements TransportUnionRepository {
  constructor(
    private readonly db: PrismaExecutor,
    private readonly readDb?: ReadDb,
    private readonly lists?: ListSource,
  ) {}

  /** Kysely, outside units of work only (inside one, every read is on the transaction's connection). */
  private get reads(): ReadDb {
    return outsideTransaction(this.readDb);
  }

  async add(union: TransportUnion): Promise<TransportUnion> {
    const s = union.toState();
    return unionToDomain(
      await this.db.transportUnion.create({
        data: { ...s, zones: [...s.zones], parentUnionId: s.parentUnionId ?? null },
      }),
    );
  }
  async findById(id: string): Promise<TransportUnion | undefined> {
    const row = await this.db.transportUnion.findUnique({ where: { id } });
    return row ? unionToDomain(row) : undefined;
  }
  list(page: PageRequest): Promise<Page<TransportUnion>> {
    return newestFirstPage(
      (this.lists?.prisma ?? this.db).transportUnion as unknown as NewestFirstModel<UnionRow>,
      page,
      unionToDomain,
    );
  }
  async findByIds(ids: readonly string[]): Promise<TransportUnion[]> {
    if (ids.length === 0) return [];
    if (!this.readDb) {
      // Inside a unit of work (a new station's unions): on the transaction's own connection.
      return (await this.db.transportUnion.findMany({ where: { id: { in: [...ids] } } })).map(unionToDomain);
    }
    return (
      await this.reads
        .selectFrom('transport_unions')
        .selectAll()
        .where('id', 'in', [...ids])
        .execute()
    ).map(unionToDomain);
  }
}
