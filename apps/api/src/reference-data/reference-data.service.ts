import { Inject, Injectable } from '@nestjs/common';
import {
  Assembly,
  AssemblyUser,
  CommonErrors,
  DomainError,
  DuplicateErrors,
  jurisdictionOf,
  ReferenceErrors,
  Region,
  Station,
  TransportUnion,
  type Actor,
  type Clock,
  type DataStores,
  type Duty,
  type IdGenerator,
  type Page,
  type PageRequest,
  type RegionState,
  type UnitOfWork,
  type WorkContext,
  textablePhone,
} from '@transport/domain';
import { assertAssemblyDuty } from '../core/auth/duties';
import { changeAggregate, createRecord } from '../core/change-aggregate';
import { DEFAULT_TEXTING_POLICY, type PeopleDirectory, type TextingPolicy } from '../core/ports';
import { CLOCK, ID_GENERATOR, PEOPLE, STORES, TEXTING_POLICY, UNIT_OF_WORK } from '../core/tokens';
import {
  toAssemblyResponse,
  toAssemblyUserResponse,
  toRegionRecordResponse,
  toStationRecordResponse,
  toTransportUnionRecordResponse,
  type AssemblyResponse,
  type AssemblyUserResponse,
  type RegionRecordResponse,
  type StationRecordResponse,
  type TransportUnionRecordResponse,
} from './reference-data.dto';

export interface NewAssemblyUser {
  assemblyId: string;
  name: string;
  email: string;
  phone: string;
  role: string;
  language?: string;
  /** An enforcer who works nationwide (a police traffic officer); the national admin's to grant. */
  nationwide?: boolean;
}

export interface NewTransportUnion {
  name: string;
  status?: string;
  parentUnionId?: string;
  digitalAddress: string;
  contactNumber: string;
  email: string;
  zones: string[];
}

/** Reference data: regions, assemblies, assembly users, stations and transport unions. */
@Injectable()
export class ReferenceDataService {
  constructor(
    @Inject(UNIT_OF_WORK) private readonly uow: UnitOfWork,
    @Inject(STORES) private readonly stores: DataStores,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    @Inject(PEOPLE) private readonly people: PeopleDirectory,
    @Inject(TEXTING_POLICY) private readonly texting: TextingPolicy = DEFAULT_TEXTING_POLICY,
  ) {}

  async addRegion(input: { name: string; country: string }, actor: Actor): Promise<RegionRecordResponse> {
    const region = await this.create('region', actor, (c, at) => c.regions.add(Region.create(input, this.ids, at)));
    return toRegionRecordResponse(region.toState());
  }

  /** The drop-down lists: regions, stations and transport unions, newest first. */
  async listRegions(request: PageRequest): Promise<Page<RegionRecordResponse>> {
    return mapPage(await this.stores.regions.list(request), (r) => toRegionRecordResponse(r.toState()));
  }

  async listStations(request: PageRequest): Promise<Page<StationRecordResponse>> {
    return mapPage(await this.stores.stations.list(request), (s) => toStationRecordResponse(s.toState()));
  }

  async listUnions(request: PageRequest): Promise<Page<TransportUnionRecordResponse>> {
    return mapPage(await this.stores.unions.list(request), (u) => toTransportUnionRecordResponse(u.toState()));
  }

  async region(id: string): Promise<RegionRecordResponse> {
    const region = await this.stores.regions.findById(id);
    if (!region) throw CommonErrors.notFound('region', id);
    return toRegionRecordResponse(region.toState());
  }

  async addAssembly(
    input: { name: string; regionId: string; digitalAddress: string; type: string },
    actor: Actor,
  ): Promise<AssemblyResponse> {
    const assembly = await this.create('assembly', actor, async (c, at) => {
      const created = Assembly.create(input, this.ids, at);
      if (!(await c.regions.findById(created.toState().regionId)))
        throw ReferenceErrors.missing('region', input.regionId);
      return c.assemblies.add(created);
    });
    return toAssemblyResponse(assembly.toState(), await this.regionOf(assembly.id, assembly.toState().regionId));
  }

  async assembly(id: string): Promise<AssemblyResponse> {
    const assembly = (await this.stores.assemblies.findById(id))?.toState();
    if (!assembly) throw CommonErrors.notFound('assembly', id);
    return toAssemblyResponse(assembly, await this.regionOf(assembly.id, assembly.regionId));
  }

  /** Assemblies, newest first, each with its region (fetched in one batch). */
  async listAssemblies(request: PageRequest): Promise<Page<AssemblyResponse>> {
    const page = await this.stores.assemblies.list(request);
    const states = page.items.map((a) => a.toState());
    const regions = new Map(
      (await this.stores.regions.findByIds([...new Set(states.map((a) => a.regionId))])).map((r) => [
        r.id,
        r.toState(),
      ]),
    );
    return {
      ...page,
      items: states.map((a) => {
        const region = regions.get(a.regionId);
        if (!region) throw brokenReference(a.id, a.regionId);
        return toAssemblyResponse(a, region);
      }),
    };
  }

  /**
   * Admins add users to any assembly; an assembly user (acting as `actor`) only to its own, which is checked here
   * against the stored user, not taken from the request.
   */
  async addAssemblyUser(input: NewAssemblyUser, actor: Actor): Promise<AssemblyUserResponse> {
    await assertAssemblyDuty(this.stores.assemblyUsers, actor, 'manageAssemblyUsers');
    // Staff get their password links by SMS.
    textablePhone(input.phone, this.texting.countryCodes);
    const user = await this.create('assemblyUser', actor, async (c, at) => {
      // Made by an assembly admin, an approver or admin waits for a second person's confirmation (the domain's rule).
      const created = AssemblyUser.create(input, this.ids, at, actor.role === 'assembly' ? actor.id : undefined);
      if (!(await c.assemblies.findById(created.assemblyId)))
        throw ReferenceErrors.missing('assembly', input.assemblyId);
      if (actor.role === 'assembly') {
        const self = await c.assemblyUsers.findById(actor.id);
        if (!self || self.assemblyId !== created.assemblyId)
          throw new DomainError(
            'OTHER_ASSEMBLY',
            'Assembly users may add users to their own assembly only',
            'assembly',
          );
      }
      // A person has one account (one role): otherwise one admin could make an inspector and an approver of
      // themselves and approve their own inspections. The email is unique in the table too.
      if (await c.assemblyUsers.findByPhone(created.toState().phone)) throw DuplicateErrors.assemblyUserPhone();
      return c.assemblyUsers.add(created);
    });
    return toAssemblyUserResponse(user.toState());
  }

  /**
   * Off-boards an assembly user: from the commit on they cannot sign in, their sessions are gone (and refused even
   * if one were left) and their API keys authenticate nobody, until `enableAssemblyUser`. Admins anywhere; assembly
   * admins (duty manageAssemblyUsers) in their own assembly, where another assembly's user is not found. Nobody
   * disables themselves (the last admin would lock the assembly out). Audited with the actor.
   */
  async disableAssemblyUser(id: string, actor: Actor): Promise<AssemblyUserResponse> {
    if (actor.role === 'assembly' && actor.id === id)
      throw new DomainError('CANNOT_DISABLE_SELF', 'You cannot disable your own account; ask another admin', 'id');
    const saved = await this.changeUser(id, actor, 'AssemblyUserDisabled', (u, at) => u.disable(at));
    await this.people.endAllOf(id, this.clock.now());
    return toAssemblyUserResponse(saved.toState());
  }

  /** Lets a disabled user sign in again (their keys work again; sessions and password links stay ended). */
  async enableAssemblyUser(id: string, actor: Actor): Promise<AssemblyUserResponse> {
    const saved = await this.changeUser(id, actor, 'AssemblyUserEnabled', (u, at) => u.enable(at));
    return toAssemblyUserResponse(saved.toState());
  }

  /**
   * A second person lets an approver or admin that an assembly admin created act: the national admin, or an assembly
   * admin of the same assembly (duty confirmAssemblyUsers) who did not create it. Confirming twice changes nothing.
   */
  async confirmAssemblyUser(id: string, actor: Actor): Promise<AssemblyUserResponse> {
    const saved = await this.changeUser(
      id,
      actor,
      'AssemblyUserConfirmed',
      (u, at) => void u.confirm(actor.id, at),
      'confirmAssemblyUsers',
    );
    return toAssemblyUserResponse(saved.toState());
  }

  private async changeUser(
    id: string,
    actor: Actor,
    action: string,
    transition: (user: AssemblyUser, at: Date) => void,
    duty: Duty = 'manageAssemblyUsers',
  ): Promise<AssemblyUser> {
    await assertAssemblyDuty(this.stores.assemblyUsers, actor, duty);
    const { saved } = await changeAggregate(
      { uow: this.uow, clock: this.clock },
      {
        entity: 'assemblyUser',
        store: (c) => c.assemblyUsers,
        id,
        actor,
        action,
        jurisdiction: jurisdictionOf(actor),
        auditChangedFieldsOnly: true,
      },
      transition,
    );
    return saved;
  }

  /** One assembly user; an assembly actor sees its own assembly's staff only (another's answers like a missing one). */
  async assemblyUser(id: string, actor: Actor): Promise<AssemblyUserResponse> {
    const user = await this.stores.assemblyUsers.findById(id);
    if (!user) throw CommonErrors.notFound('assembly user', id);
    if (actor.role === 'assembly') {
      const self = await this.stores.assemblyUsers.findById(actor.id);
      if (!self || self.assemblyId !== user.assemblyId) throw CommonErrors.notFound('assembly user', id);
    }
    return toAssemblyUserResponse(user.toState());
  }

  /** Admins see every assembly user; an assembly user sees the users of its own assembly. */
  async listAssemblyUsers(actor: Actor, request: PageRequest): Promise<Page<AssemblyUserResponse>> {
    let assemblyId: string | undefined;
    if (actor.role === 'assembly') {
      const self = await this.stores.assemblyUsers.findById(actor.id);
      if (!self) return { items: [] };
      assemblyId = self.assemblyId;
    }
    const page = await this.stores.assemblyUsers.list({ assemblyId }, request);
    return { ...page, items: page.items.map((u) => toAssemblyUserResponse(u.toState())) };
  }

  async addStation(
    input: { name: string; transportUnions: string[]; zones: string[]; contactNumber: number; digitalAddress: string },
    actor: Actor,
  ): Promise<StationRecordResponse> {
    const station = await this.create('station', actor, async (c, at) => {
      const created = Station.create(input, this.ids, at);
      const unions = await c.unions.findByIds(created.toState().transportUnions);
      if (unions.length !== created.toState().transportUnions.length) {
        throw new DomainError(
          'TRANSPORT_UNION_NOT_FOUND',
          'transportUnions names a union that does not exist',
          'transportUnions',
        );
      }
      return c.stations.add(created);
    });
    return toStationRecordResponse(station.toState());
  }

  async station(id: string): Promise<StationRecordResponse> {
    const station = await this.stores.stations.findById(id);
    if (!station) throw CommonErrors.notFound('station', id);
    return toStationRecordResponse(station.toState());
  }

  async addUnion(input: NewTransportUnion, actor: Actor): Promise<TransportUnionRecordResponse> {
    const union = await this.create('transportUnion', actor, async (c, at) => {
      const created = TransportUnion.create(input, this.ids, at);
      if (input.parentUnionId && !(await c.unions.findById(input.parentUnionId)))
        throw new DomainError('TRANSPORT_UNION_NOT_FOUND', 'transportUnion names no union', 'transportUnion');
      return c.unions.add(created);
    });
    return toTransportUnionRecordResponse(union.toState());
  }

  async union(id: string): Promise<TransportUnionRecordResponse> {
    const union = await this.stores.unions.findById(id);
    if (!union) throw CommonErrors.notFound('transport union', id);
    return toTransportUnionRecordResponse(union.toState());
  }

  private create<T extends { id: string; toState(): object }>(
    entity: string,
    actor: Actor,
    make: (context: WorkContext, at: Date) => Promise<T>,
  ): Promise<T> {
    return createRecord({ uow: this.uow, clock: this.clock }, entity, actor, make);
  }

  private async regionOf(assemblyId: string, regionId: string): Promise<RegionState> {
    const region = await this.stores.regions.findById(regionId);
    if (!region) throw brokenReference(assemblyId, regionId);
    return region.toState();
  }
}

/** A stored assembly whose region is gone: the database's foreign keys forbid it, so it is a server fault (500). */
function brokenReference(assemblyId: string, regionId: string): Error {
  return new Error(`assembly ${assemblyId} names region ${regionId}, which does not exist`);
}

const mapPage = <T, R>(page: Page<T>, map: (item: T) => R): Page<R> => ({ ...page, items: page.items.map(map) });
