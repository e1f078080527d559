import {
  Assembly,
  ASSEMBLY_ROLES,
  ASSEMBLY_TYPES,
  AssemblyUser,
  DuplicateErrors,
  inspectionSettingsOf,
  type InspectionSettings,
  isLanguage,
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
import { everyRow, inAssemblyScope, orderedPage } from './paging';
import { sqlOn, type PrismaExecutor } from './prisma-executor';
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
      ...(row.createdBy !== null && { createdBy: row.createdBy }),
      ...(row.awaitingConfirmation && { awaitingConfirmation: true }),
      ...(row.nationwide && { nationwide: true as const }),
      ...(row.confirmedBy !== null && { confirmedBy: row.confirmedBy }),
      ...(isLanguage(row.language) && { language: row.language }),
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
    /** Where list pages read: the read replica when there is one (never inside a unit of work). */
    private readonly lists: PrismaExecutor = db,
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
    return orderedPage(
      sqlOn(this.lists),
      'regions',
      page,
      (db) => db.selectFrom('regions').selectAll(),
      everyRow,
      regionToDomain,
      everyRow, // reference data: the same list for everyone it is open to
    );
  }
}

export class PrismaAssemblyRepository implements AssemblyRepository {
  constructor(
    private readonly db: PrismaExecutor,
    /** Where list pages read: the read replica when there is one (never inside a unit of work). */
    private readonly lists: PrismaExecutor = db,
  ) {}

  async add(assembly: Assembly): Promise<Assembly> {
    return assemblyToDomain(await this.db.assembly.create({ data: { ...assembly.toState() } }));
  }
  async findById(id: string): Promise<Assembly | undefined> {
    const row = await this.db.assembly.findUnique({ where: { id } });
    return row ? assemblyToDomain(row) : undefined;
  }
  list(page: PageRequest): Promise<Page<Assembly>> {
    return orderedPage(
      sqlOn(this.lists),
      'assemblies',
      page,
      (db) => db.selectFrom('assemblies').selectAll(),
      everyRow,
      assemblyToDomain,
      everyRow, // reference data: the same list for everyone it is open to
    );
  }
  async inspectionSettings(id: string | undefined): Promise<InspectionSettings> {
    const row = id
      ? await this.db.assembly.findUnique({
          where: { id },
          select: { daysToFix: true, appealDays: true, photosRequired: true },
        })
      : null;
    return inspectionSettingsOf(row ?? {});
  }
  async setInspectionSettings(id: string, settings: InspectionSettings): Promise<boolean> {
    const { count } = await this.db.assembly.updateMany({
      where: { id },
      data: {
        daysToFix: settings.daysToFix,
        appealDays: settings.appealDays,
        photosRequired: settings.photosRequired,
      },
    });
    return count === 1;
  }
}

export class PrismaAssemblyUserRepository implements AssemblyUserRepository {
  constructor(
    private readonly db: PrismaExecutor,
    /** Where list pages read: the read replica when there is one (never inside a unit of work). */
    private readonly lists: PrismaExecutor = db,
  ) {}

  async add(user: AssemblyUser): Promise<AssemblyUser> {
    try {
      return assemblyUserToDomain(await this.db.assemblyUser.create({ data: { ...user.toState() } }));
    } catch (error) {
      translateUniqueViolation(error, { email: DuplicateErrors.assemblyUserEmail });
    }
  }
  async update(user: AssemblyUser): Promise<AssemblyUser> {
    // The language is the person's own to change (PUT /auth/language, unversioned): an update of the record leaves it.
    const { id, createdAt: _c, version, language: _l, ...state } = user.toState();
    const { count } = await this.db.assemblyUser.updateMany({
      where: { id, version },
      data: {
        ...state,
        disabledAt: state.disabledAt ?? null,
        awaitingConfirmation: state.awaitingConfirmation ?? false,
        version: version + 1,
      },
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
    return orderedPage(
      sqlOn(this.lists),
      'assembly_users',
      page,
      (db) => db.selectFrom('assembly_users').selectAll(),
      inAssemblyScope(filter.assemblyId),
      assemblyUserToDomain,
      inAssemblyScope(filter.assemblyId),
    );
  }
}

/** Batches of stations and unions (embedded in every vehicle list) are read through Kysely (`sqlOn`). */
export class PrismaStationRepository implements StationRepository {
  constructor(
    private readonly db: PrismaExecutor,
    /** Where list pages read: the read replica when there is one (never inside a unit of work). */
    private readonly lists: PrismaExecutor = db,
  ) {}

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
    return orderedPage(
      sqlOn(this.lists),
      'stations',
      page,
      (db) => db.selectFrom('stations').selectAll(),
      everyRow,
      stationToDomain,
      everyRow, // reference data: the same list for everyone it is open to
    );
  }
  async findByIds(ids: readonly string[]): Promise<Station[]> {
    if (ids.length === 0) return [];
    return (
      await sqlOn(this.db)
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
    /** Where list pages read: the read replica when there is one (never inside a unit of work). */
    private readonly lists: PrismaExecutor = db,
  ) {}

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
    return orderedPage(
      sqlOn(this.lists),
      'transport_unions',
      page,
      (db) => db.selectFrom('transport_unions').selectAll(),
      everyRow,
      unionToDomain,
      everyRow, // reference data: the same list for everyone it is open to
    );
  }
  async findByIds(ids: readonly string[]): Promise<TransportUnion[]> {
    if (ids.length === 0) return [];
    return (
      await sqlOn(this.db)
        .selectFrom('transport_unions')
        .selectAll()
        .where('id', 'in', [...ids])
        .execute()
    ).map(unionToDomain);
  }
}
