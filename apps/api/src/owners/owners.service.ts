import { Inject, Injectable } from '@nestjs/common';
import {
  VehicleOwner,
  type Actor,
  type Clock,
  type DataStores,
  type IdGenerator,
  type Page,
  type PageRequest,
  type UnitOfWork,
  type VehicleOwnerRegistration,
} from '@transport/domain';
import { changeAggregate, createRecord } from '../core/change-aggregate';
import { CLOCK, ID_GENERATOR, STORES, UNIT_OF_WORK } from '../core/tokens';
import { toOwnerResponse, type OwnerResponse } from './owners.dto';

/** Vehicle owners: registration, identity verification, listing and search. */
@Injectable()
export class OwnersService {
  constructor(
    @Inject(UNIT_OF_WORK) private readonly uow: UnitOfWork,
    @Inject(STORES) private readonly stores: DataStores,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
  ) {}

  async list(request: PageRequest): Promise<Page<OwnerResponse>> {
    const page = await this.stores.owners.list(request);
    return { next: page.next, items: page.items.map((o) => toOwnerResponse(o.toState())) };
  }

  /** Any part of a name, phone (local or international form) or email. */
  async search(query: string, request: PageRequest): Promise<Page<OwnerResponse>> {
    const page = await this.stores.owners.search(query, request);
    return { next: page.next, items: page.items.map((o) => toOwnerResponse(o.toState())) };
  }

  async add(input: VehicleOwnerRegistration, actor: Actor): Promise<OwnerResponse> {
    const owner = await createRecord({ uow: this.uow, clock: this.clock }, 'owner', actor, (c, at) =>
      c.owners.add(VehicleOwner.register(input, this.ids, at)),
    );
    return toOwnerResponse(owner.toState());
  }

  /** The owner's identity document was checked; verifying twice is a conflict (OWNER_ALREADY_VERIFIED). */
  async verify(ownerId: string, actor: Actor, expectedVersion?: number): Promise<OwnerResponse> {
    const spec = {
      entity: 'owner',
      store: (c: DataStores) => c.owners,
      id: ownerId,
      actor,
      expectedVersion,
      action: 'OwnerVerified',
    };
    const { saved } = await changeAggregate({ uow: this.uow, clock: this.clock }, spec, (o, at) => o.verify(at));
    return toOwnerResponse(saved.toState());
  }
}
