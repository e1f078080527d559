import { Inject, Injectable } from '@nestjs/common';
import {
  CORRECTABLE_DRIVER_FIELDS,
  DomainError,
  Driver,
  type DriverCorrection,
  assemblyScope,
  auditEntriesFor,
  covers,
  jurisdictionOf,
  withinJurisdiction,
  type Actor,
  type Clock,
  type DataStores,
  type DriverListFilter,
  type DriverRegistration,
  type IdGenerator,
  type Page,
  type PageRequest,
  type ActivationPolicy,
  type RandomSource,
  type SecretHasher,
  type UnitOfWork,
  type VehicleOwnerState,
} from '@transport/domain';
import { assertAssemblyDuty } from '../core/auth/duties';
import { placeNew, transferRecord } from '../core/auth/jurisdiction';
import { changeAggregate, correctAggregate, type Transition } from '../core/change-aggregate';
import { AppError } from '../core/errors';
import type { MessageSender, RateLimits } from '../core/ports';
import {
  CLOCK,
  ID_GENERATOR,
  MESSAGE_SENDER,
  RANDOM_SOURCE,
  RATE_LIMITS,
  SECRET_HASHER,
  STORES,
  UNIT_OF_WORK,
} from '../core/tokens';
import {
  toDriverResponse,
  toDriverSummaryResponse,
  type DriverResponse,
  type DriverSummaryResponse,
} from './drivers.dto';

/** The activation key hash never enters the audit log: history is for people, secrets are not. */
const redact = (state: object) => {
  const { activationKeyHash: _hash, ...rest } = state as { activationKeyHash?: string };
  return rest;
};

/** The activation rules as configured (key lifetime, longest delay after wrong keys). */
export const ACTIVATION_POLICY = Symbol('ACTIVATION_POLICY');

/**
 * Drivers: self-registration, activation, approval at the assembly, status from the platform, transfers, and the
 * lists. Assembly staff read and act on their assembly's drivers only (another's answers like a missing one); the
 * platform and admins nationwide; the driver's own activation is open.
 */
@Injectable()
export class DriversService {
  constructor(
    @Inject(UNIT_OF_WORK) private readonly uow: UnitOfWork,
    @Inject(STORES) private readonly stores: DataStores,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    @Inject(RANDOM_SOURCE) private readonly random: RandomSource,
    @Inject(SECRET_HASHER) private readonly hasher: SecretHasher,
    @Inject(RATE_LIMITS) private readonly limits: RateLimits,
    @Inject(MESSAGE_SENDER) private readonly messages: MessageSender,
    @Inject(ACTIVATION_POLICY) private readonly policy: ActivationPolicy,
  ) {}

  /** A page of drivers with their owners (one batched lookup); what each caller sees is the route's view. */
  async list(filter: DriverListFilter, request: PageRequest, actor: Actor): Promise<Page<DriverResponse>> {
    const page = await this.stores.drivers.list(scoped(filter, actor), request);
    const states = page.items.map((d) => d.toState());
    const ownerIds = [...new Set(states.flatMap((s) => (s.ownerId ? [s.ownerId] : [])))];
    const owners = new Map<string, VehicleOwnerState>(
      (await this.stores.owners.findByIds(ownerIds)).map((o) => [o.id, o.toState()]),
    );
    return {
      ...page,
      items: states.map((s) => toDriverResponse(s, s.ownerId ? owners.get(s.ownerId) : undefined)),
    };
  }

  /**
   * The same page as `list`, with the fields the public sees only: read as summaries, without restoring whole drivers
   * or looking up their owners, for callers whose view holds nothing more.
   */
  async listSummaries(
    filter: DriverListFilter,
    request: PageRequest,
    actor: Actor,
  ): Promise<Page<DriverSummaryResponse>> {
    const page = await this.stores.drivers.listSummaries(scoped(filter, actor), request);
    return { ...page, items: page.items.map(toDriverSummaryResponse) };
  }

  async get(id: string, actor: Actor): Promise<DriverResponse> {
    const driver = await this.stores.drivers.findById(id);
    return this.respond(withinJurisdiction(jurisdictionOf(actor), driver, 'driver', id));
  }

  /**
   * Registers a driver awaiting activation and approval, in the assembly the driver chose (staff: their own); the
   * activation key is in the response this once.
   */
  async register(input: DriverRegistration, actor: Actor): Promise<DriverResponse> {
    const { driver, activationKey } = await this.uow.run(async (context) => {
      const assemblyId = await placeNew(context, actor, input.assemblyId);
      const registered = Driver.register(
        { ...input, assemblyId },
        { ids: this.ids, random: this.random, hasher: this.hasher },
        this.clock.now(),
        this.policy,
      );
      const ownerId = registered.driver.toState().ownerId;
      const owner = ownerId ? await context.owners.findById(ownerId) : undefined;
      if (ownerId && (!owner || !covers(jurisdictionOf(actor), owner.toState()))) {
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
   * The driver's own step. Counted per driver and per client address in limits shared by every instance; a try
   * during the delay a wrong key set is a 429 with Retry-After that counts for nothing; a wrong key is saved (with
   * its delay) before it is reported, so the delay cannot be dodged by the error rolling it back.
   */
  async activate(id: string, key: string, actor: Actor, clientAddress: string): Promise<DriverResponse> {
    await this.limits.consume('activation-driver', id);
    await this.limits.consume('activation-address', clientAddress);
    const current = await this.stores.drivers.findById(id);
    const wait = current?.activationWaitSeconds(this.clock.now()) ?? 0;
    if (wait > 0) {
      throw new AppError('RATE_LIMITED', `A wrong activation key was tried; try again in ${wait} s`, {
        retryAfter: wait,
      });
    }
    const { saved, result } = await this.change(id, actor, undefined, 'DriverActivation', (d, at) =>
      d.activate(key, at, this.hasher, this.policy),
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

  /** Corrects a driver (If-Match required; the rule per field is the domain's). */
  async correct(id: string, changes: DriverCorrection, actor: Actor, expectedVersion: number): Promise<DriverResponse> {
    const saved = await correctAggregate(
      { ...this.deps, users: this.stores.assemblyUsers },
      { ...this.spec(id, actor, expectedVersion, 'DriverCorrected'), expectedVersion },
      changes,
      CORRECTABLE_DRIVER_FIELDS,
      (d, at) => d.correct(changes, at),
    );
    return this.respond(saved);
  }

  /** Records a renewed licence (ahead, later than the current one). Assembly inspectors and approvers, admins. */
  async renewLicense(id: string, expiry: Date, actor: Actor, expectedVersion?: number): Promise<DriverResponse> {
    await assertAssemblyDuty(this.stores.assemblyUsers, actor, 'renewDocuments');
    return this.respond(
      (await this.change(id, actor, expectedVersion, 'DriverLicenseRenewed', (d, at) => d.renewLicense(expiry, at)))
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

  /**
   * A new activation key (lifting any delay), sent to the driver's own phone through the messaging port: staff who
   * ask for it never see it. If the message cannot be handed over, the call fails (502) and may be repeated.
   */
  async reissueActivationKey(id: string, actor: Actor): Promise<DriverResponse> {
    const { saved, result } = await this.change(id, actor, undefined, 'DriverActivationKeyReissued', (d, at) =>
      d.reissueActivationKey({ random: this.random, hasher: this.hasher }, at, this.policy),
    );
    const state = saved.toState();
    await this.messages.send({
      to: state.phone,
      text: `Your transport platform activation key is ${result}. It works for ${Math.round(this.policy.keyLifetimeMs / 3_600_000)} hours. Do not share it.`,
    });
    return this.respond(saved);
  }

  /** An admin's move of a driver to another assembly (audited as DriverTransferred). */
  async transfer(id: string, assemblyId: string, actor: Actor, expectedVersion?: number): Promise<DriverResponse> {
    return this.respond(
      await transferRecord(this.deps, this.spec(id, actor, expectedVersion, 'DriverTransferred'), assemblyId),
    );
  }

  private get deps() {
    return { uow: this.uow, clock: this.clock };
  }

  private spec(id: string, actor: Actor, expectedVersion: number | undefined, action: string) {
    const store = (c: DataStores) => c.drivers;
    return { entity: 'driver', store, id, actor, expectedVersion, action, redact, jurisdiction: jurisdictionOf(actor) };
  }

  private change<R>(
    id: string,
    actor: Actor,
    expectedVersion: number | undefined,
    action: string,
    transition: Transition<Driver, R>,
  ) {
    return changeAggregate(this.deps, this.spec(id, actor, expectedVersion, action), transition);
  }

  private async respond(driver: Driver, activationKey?: string): Promise<DriverResponse> {
    const state = driver.toState();
    const owner = state.ownerId ? await this.stores.owners.findById(state.ownerId) : undefined;
    return toDriverResponse(state, owner?.toState(), { activationKey });
  }
}

/** A list's filter within the actor's jurisdiction. */
const scoped = (filter: DriverListFilter, actor: Actor): DriverListFilter => ({
  ...filter,
  assemblyId: assemblyScope(jurisdictionOf(actor)),
});
