import { Inject, Injectable } from '@nestjs/common';
import {
  CORRECTABLE_OWNER_FIELDS,
  VehicleOwner,
  type VehicleOwnerCorrection,
  assemblyScope,
  jurisdictionOf,
  type Actor,
  type Clock,
  type DataStores,
  type IdGenerator,
  type Page,
  type PageRequest,
  type UnitOfWork,
  type VehicleOwnerRegistration,
  textablePhone,
} from '@transport/domain';
import { placeNew, transferRecord } from '../core/auth/jurisdiction';
import { assertAssemblyDuty } from '../core/auth/duties';
import { changeAggregate, correctAggregate, createRecord } from '../core/change-aggregate';
import { DEFAULT_TEXTING_POLICY, type TextingPolicy } from '../core/ports';
import { CLOCK, ID_GENERATOR, STORES, TEXTING_POLICY, UNIT_OF_WORK } from '../core/tokens';
import { toOwnerResponse, type OwnerResponse } from './owners.dto';

/**
 * Vehicle owners: registration, identity verification, transfers, listing and search. Assembly staff see and act on
 * their assembly's owners only; admins nationwide.
 */
@Injectable()
export class OwnersService {
  constructor(
    @Inject(UNIT_OF_WORK) private readonly uow: UnitOfWork,
    @Inject(STORES) private readonly stores: DataStores,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    @Inject(TEXTING_POLICY) private readonly texting: TextingPolicy = DEFAULT_TEXTING_POLICY,
  ) {}

  async list(request: PageRequest, actor: Actor): Promise<Page<OwnerResponse>> {
    const page = await this.stores.owners.list(request, assemblyScope(jurisdictionOf(actor)));
    return { ...page, items: page.items.map((o) => toOwnerResponse(o.toState())) };
  }

  /** Any part of a name, phone (local or international form) or email. */
  async search(query: string, request: PageRequest, actor: Actor): Promise<Page<OwnerResponse>> {
    const page = await this.stores.owners.search(query, request, assemblyScope(jurisdictionOf(actor)));
    return { ...page, items: page.items.map((o) => toOwnerResponse(o.toState())) };
  }

  /** In the registering staff's assembly; an admin's in the one named, else unassigned. */
  async add(input: VehicleOwnerRegistration, actor: Actor): Promise<OwnerResponse> {
    await assertAssemblyDuty(this.stores.assemblyUsers, actor, 'registerRecords');
    textablePhone(input.phone, this.texting.countryCodes);
    const owner = await createRecord(this.deps, 'owner', actor, async (c, at) => {
      const assemblyId = await placeNew(c, actor, input.assemblyId);
      return c.owners.add(VehicleOwner.register({ ...input, assemblyId }, this.ids, at));
    });
    return toOwnerResponse(owner.toState());
  }

  /** The owner's identity document was checked; verifying twice is a conflict (OWNER_ALREADY_VERIFIED). */
  async verify(ownerId: string, actor: Actor, expectedVersion?: number): Promise<OwnerResponse> {
    await assertAssemblyDuty(this.stores.assemblyUsers, actor, 'registerRecords');
    const spec = this.spec(ownerId, actor, expectedVersion, 'OwnerVerified');
    const { saved } = await changeAggregate(this.deps, spec, (o, at) => o.verify(at));
    return toOwnerResponse(saved.toState());
  }

  /** Corrects an owner (If-Match required; the identity document only until verification). */
  async correct(ownerId: string, changes: VehicleOwnerCorrection, actor: Actor, expectedVersion: number) {
    if (changes.phone !== undefined) textablePhone(changes.phone, this.texting.countryCodes);
    const saved = await correctAggregate(
      { ...this.deps, users: this.stores.assemblyUsers },
      { ...this.spec(ownerId, actor, expectedVersion, 'OwnerCorrected'), expectedVersion },
      changes,
      CORRECTABLE_OWNER_FIELDS,
      (o, at) => o.correct(changes, at),
    );
    return toOwnerResponse(saved.toState());
  }

  /** An admin's move of an owner to another assembly (its vehicles and drivers stay where they are). */
  async transfer(ownerId: string, assemblyId: string, actor: Actor, expectedVersion?: number): Promise<OwnerResponse> {
    const spec = this.spec(ownerId, actor, expectedVersion, 'OwnerTransferred');
    return toOwnerResponse((await transferRecord(this.deps, spec, assemblyId)).toState());
  }

  private get deps() {
    return { uow: this.uow, clock: this.clock };
  }

  private spec(id: string, actor: Actor, expectedVersion: number | undefined, action: string) {
    const store = (c: DataStores) => c.owners;
    return { entity: 'owner', store, id, actor, expectedVersion, action, jurisdiction: jurisdictionOf(actor) };
  }
}
