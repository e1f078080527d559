import { Inject, Injectable } from '@nestjs/common';
import {
  CommonErrors,
  DomainError,
  Driver,
  auditEntriesFor,
  type Actor,
  type Clock,
  type DataStores,
  type DriverListFilter,
  type DriverRegistration,
  type IdGenerator,
  type Page,
  type PageRequest,
  type RandomSource,
  type SecretHasher,
  type UnitOfWork,
  type VehicleOwnerState,
} from '@transport/domain';
import { assertAssemblyDuty } from '../core/auth/duties';
import { changeAggregate, type Transition } from '../core/change-aggregate';
import { CLOCK, ID_GENERATOR, RANDOM_SOURCE, SECRET_HASHER, STORES, UNIT_OF_WORK } from '../core/tokens';
import { toDriverResponse, type DriverResponse } from './drivers.dto';

/** The activation key hash never enters the audit log: history is for people, secrets are not. */
const redact = (state: object) => {
  const { activationKeyHash: _hash, ...rest } = state as { activationKeyHash?: string };
  return rest;
};

/** Drivers: self-registration, activation, approval at the assembly, status from the platform, and the lists. */
@Injectable()
export class DriversService {
  constructor(
    @Inject(UNIT_OF_WORK) private readonly uow: UnitOfWork,
    @Inject(STORES) private readonly stores: DataStores,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    @Inject(RANDOM_SOURCE) private readonly random: RandomSource,
    @Inject(SECRET_HASHER) private readonly hasher: SecretHasher,
  ) {}

  /** A page of drivers with their owners (one batched lookup); what each caller sees is the route's view. */
  async list(filter: DriverListFilter, request: PageRequest): Promise<Page<DriverResponse>> {
    const page = await this.stores.drivers.list(filter, request);
    const states = page.items.map((d) => d.toState());
    const ownerIds = [...new Set(states.flatMap((s) => (s.ownerId ? [s.ownerId] : [])))];
    const owners = new Map<string, VehicleOwnerState>(
      (await this.stores.owners.findByIds(ownerIds)).map((o) => [o.id, o.toState()]),
    );
    return {
      next: page.next,
      items: states.map((s) => toDriverResponse(s, s.ownerId ? owners.get(s.ownerId) : undefined)),
    };
  }

  async get(id: string): Promise<DriverResponse> {
    const driver = await this.stores.drivers.findById(id);
    if (!driver) throw CommonErrors.notFound('driver', id);
    return this.respond(driver);
  }

  /** Registers a driver awaiting activation and approval; the activation key is in the response this once. */
  async register(input: DriverRegistration, actor: Actor): Promise<DriverResponse> {
    const { driver, activationKey } = await this.uow.run(async (context) => {
      const registered = Driver.register(
        input,
        { ids: this.ids, random: this.random, hasher: this.hasher },
        this.clock.now(),
      );
      const ownerId = registered.driver.toState().ownerId;
      if (ownerId && !(await context.owners.findById(ownerId))) {
        throw new DomainError(
          'OWNER_NOT_FOUND',
          `ownerID ${ownerId} names no vehicle owner; find owners with GET /vehicles/owner/search`,
          'ownerID',
        );
      }
      const saved = await context.drivers.add(registered.driver);
      await context.audit.append(
        auditEntriesFor('driver', registered.driver.pullEvents(), actor, null, redact(saved.toState())),
      );
      return { driver: saved, activationKey: registered.activationKey };
    });
    return this.respond(driver, activationKey);
  }

  /**
   * The driver's own step. A wrong key is saved (it counts towards the five-try lock) before it is reported, so the
   * lock cannot be dodged by the error rolling the count back.
   */
  async activate(id: string, key: string, actor: Actor): Promise<DriverResponse> {
    const { saved, result } = await this.change(id, actor, undefined, 'DriverActivation', (d, at) =>
      d.activate(key, at, this.hasher),
    );
    if (!result.activated) throw result.error;
    return this.respond(saved);
  }

  async approve(id: string, checklist: unknown, actor: Actor, expectedVersion?: number): Promise<DriverResponse> {
    await assertAssemblyDuty(this.stores.assemblyUsers, actor, 'approveDriver');
    return this.respond(
      (await this.change(id, actor, expectedVersion, 'DriverApproved', (d, at) => d.approve(checklist, actor.id, at)))
        .saved,
    );
  }

  async revoke(id: string, reason: string, actor: Actor, expectedVersion?: number): Promise<DriverResponse> {
    await assertAssemblyDuty(this.stores.assemblyUsers, actor, 'revokeDriver');
    return this.respond(
      (
        await this.change(id, actor, expectedVersion, 'DriverApprovalRevoked', (d, at) =>
          d.revokeApproval(reason, actor.id, at),
        )
      ).saved,
    );
  }

  /** online/busy as the platform reports them; going offline and becoming free are applied before the others. */
  async setStatus(
    id: string,
    status: { online?: boolean; busy?: boolean },
    actor: Actor,
    expectedVersion?: number,
  ): Promise<DriverResponse> {
    const { saved } = await this.change(id, actor, expectedVersion, 'DriverStatus', (d, at) => {
      if (status.busy === false) d.setBusy(false, at);
      if (status.online === true) d.goOnline(at);
      if (status.busy === true) d.setBusy(true, at);
      if (status.online === false) d.goOffline(at);
    });
    return this.respond(saved);
  }

  /** A new activation key (lifting the lock), in the response this once. */
  async reissueActivationKey(id: string, actor: Actor): Promise<DriverResponse> {
    const { saved, result } = await this.change(id, actor, undefined, 'DriverActivationKeyReissued', (d, at) =>
      d.reissueActivationKey({ random: this.random, hasher: this.hasher }, at),
    );
    return this.respond(saved, result);
  }

  private change<R>(
    id: string,
    actor: Actor,
    expectedVersion: number | undefined,
    action: string,
    transition: Transition<Driver, R>,
  ) {
    const spec = { entity: 'driver', store: (c: DataStores) => c.drivers, id, actor, expectedVersion, action, redact };
    return changeAggregate({ uow: this.uow, clock: this.clock }, spec, transition);
  }

  private async respond(driver: Driver, activationKey?: string): Promise<DriverResponse> {
    const state = driver.toState();
    const owner = state.ownerId ? await this.stores.owners.findById(state.ownerId) : undefined;
    return toDriverResponse(state, owner?.toState(), { activationKey });
  }
}
