import { Inject, Injectable } from '@nestjs/common';
import {
  assertOwnerOfDriverAssembly,
  CORRECTABLE_DRIVER_FIELDS,
  Driver,
  DomainError,
  DuplicateErrors,
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
  type DriverSortField,
  type DriverRegistration,
  type DriverState,
  type Jurisdiction,
  SYSTEM_ACTOR,
  normalizeEmail,
  textablePhone,
  type IdGenerator,
  type Page,
  type PageRequest,
  type ActivationPolicy,
  type RandomSource,
  type SecretHasher,
  type UnitOfWork,
  type VehicleOwnerState,
} from '@transport/domain';
import { Logger } from '@nestjs/common';
import { assertAssemblyDuty } from '../core/auth/duties';
import { placeNew, transferRecord } from '../core/auth/jurisdiction';
import { changeAggregate, correctAggregate, type Transition } from '../core/change-aggregate';
import { AppError } from '../core/errors';
import { DEFAULT_TEXTING_POLICY, type MessageSender, type RateLimits, type TextingPolicy } from '../core/ports';
import {
  CLOCK,
  ID_GENERATOR,
  MESSAGE_SENDER,
  RANDOM_SOURCE,
  RATE_LIMITS,
  SECRET_HASHER,
  STORES,
  TEXTING_POLICY,
  UNIT_OF_WORK,
} from '../core/tokens';
import { ActivationTexts } from './activation-texts';
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
    @Inject(MESSAGE_SENDER) messages: MessageSender,
    @Inject(ACTIVATION_POLICY) private readonly policy: ActivationPolicy,
    @Inject(TEXTING_POLICY) private readonly texting: TextingPolicy = DEFAULT_TEXTING_POLICY,
  ) {
    this.texts = new ActivationTexts(limits, messages, clock, texting, policy);
  }

  private readonly texts: ActivationTexts;

  private readonly logger = new Logger('DriversService');

  /**
   * A page of drivers in the request's order (newest first by default) with their owners (one batched lookup); what
   * each caller sees is the route's view.
   */
  async list(
    filter: DriverListFilter,
    request: PageRequest<DriverSortField>,
    actor: Actor,
  ): Promise<Page<DriverResponse>> {
    const page = await this.stores.drivers.list(scoped(filter, actor), request);
    const states = page.items.map((d) => d.toState());
    const ownerIds = [...new Set(states.flatMap((s) => (s.ownerId ? [s.ownerId] : [])))];
    const owners = new Map<string, VehicleOwnerState>(
      (await this.stores.owners.findByIds(ownerIds)).map((o) => [o.id, o.toState()]),
    );
    const jurisdiction = jurisdictionOf(actor);
    return {
      ...page,
      items: states.map((s) => toDriverResponse(s, embeddedOwner(s, owners.get(s.ownerId ?? ''), jurisdiction))),
    };
  }

  /**
   * The same page as `list`, with the fields the public sees only: read as summaries, without restoring whole drivers
   * or looking up their owners, for callers whose view holds nothing more.
   */
  async listSummaries(
    filter: DriverListFilter,
    request: PageRequest<DriverSortField>,
    actor: Actor,
  ): Promise<Page<DriverSummaryResponse>> {
    const page = await this.stores.drivers.listSummaries(scoped(filter, actor), request);
    return { ...page, items: page.items.map(toDriverSummaryResponse) };
  }

  async get(id: string, actor: Actor): Promise<DriverResponse> {
    const driver = await this.stores.drivers.findById(id);
    return this.respond(withinJurisdiction(jurisdictionOf(actor), driver, 'driver', id), actor);
  }

  /**
   * Registers a driver awaiting activation and approval, in the assembly the driver chose (staff: their own), naming
   * at most an owner of that assembly. The activation key goes to the driver's phone only: nobody who registers a
   * driver, staff or anonymous, sees it; the answer says whether it was handed to the messaging service.
   *
   * Without an API key (the driver registering from the app) each client address and each phone number has its own
   * limit. The answers do not let anyone walk owners or e-mails: the driver's own registration is answered the same
   * whether another driver has the e-mail or not (the e-mail is unique among activated drivers only, and activation,
   * which needs the phone and its key, refuses a taken one), and an owner that does not exist is refused exactly as one
   * of another assembly is. Staff and keyed callers, who are accountable, are told at once that any other driver
   * (activated or awaiting activation) has the e-mail, before the owner is looked at.
   */
  async register(input: DriverRegistration, actor: Actor, clientAddress: string): Promise<DriverRegistered> {
    const own = actor.role === 'anonymous';
    await assertAssemblyDuty(this.stores.assemblyUsers, actor, 'registerRecords');
    if (own) await this.limits.consume('registration-address', clientAddress);
    const phone = textablePhone(input.phone, this.texting.countryCodes);
    if (own) await this.limits.consume('registration-phone', phone);
    // Staff registering someone: the key is not the answer to the driver's own action, so it waits for the morning.
    const heldFor = own ? 0 : this.texts.heldFor();
    const { driver, activationKey } = await this.uow.run(async (context) => {
      const assemblyId = await placeNew(context, actor, input.assemblyId);
      const registered = Driver.register(
        { ...input, assemblyId, ...(actor.role !== 'anonymous' && { registeredBy: actor.id }) },
        { ids: this.ids, random: this.random, hasher: this.hasher },
        this.clock.now(),
        this.policy,
      );
      const state = registered.driver.toState();
      if (!own && (await context.drivers.findByEmail(state.email)).length > 0) throw DuplicateErrors.driverEmail();
      if (state.ownerId)
        assertOwnerOfDriverAssembly(
          state.ownerId,
          (await context.owners.findById(state.ownerId))?.toState(),
          assemblyId,
        );
      const saved = await context.drivers.add(registered.driver);
      await context.audit.append(
        auditEntriesFor('driver', registered.driver.pullEvents(), actor, null, redact(saved.toState())),
      );
      if (heldFor > 0) await this.texts.hold(context, saved.id, heldFor);
      return { driver: saved, activationKey: registered.activationKey };
    });
    const activationKeySent =
      heldFor > 0 ? false : await this.texts.trySend(driver.toState().phone, activationKey, driver.toState().language);
    return { driver: await this.respond(driver, actor), activationKeySent };
  }

  /**
   * The driver's own step. Counted per driver and per client address in limits shared by every instance; a try
   * during the delay a wrong key set is a 429 with Retry-After that counts for nothing; a wrong key is saved (with
   * its delay) before it is reported, so the delay cannot be dodged by the error rolling it back.
   */
  async activate(id: string, key: string, actor: Actor, clientAddress: string): Promise<DriverResponse> {
    // The per-driver count is per driver and address: a stranger's tries use up the stranger's budget only.
    const from = this.hasher.hash(`address:${clientAddress}`);
    await this.limits.consume('activation-driver', `${id}:${from}`);
    await this.limits.consume('activation-address', clientAddress);
    const current = await this.stores.drivers.findById(id);
    const wait = current?.activationWaitSeconds(from, this.clock.now()) ?? 0;
    if (wait > 0) {
      throw new AppError('RATE_LIMITED', `A wrong activation key was tried from here; try again in ${wait} s`, {
        retryAfter: wait,
      });
    }
    const { saved, result } = await this.change(id, actor, undefined, 'DriverActivation', async (d, at, context) => {
      const outcome = d.activate(key, at, this.hasher, from, this.policy);
      // Only once the key is right: whoever holds the phone learns that the e-mail is taken, nobody else.
      if (
        outcome.activated &&
        (await context.drivers.findByEmail(d.toState().email)).some((o) => o.verified && o.id !== id)
      )
        throw DuplicateErrors.activatedDriverEmail();
      return outcome;
    }).catch((error: unknown) => {
      // Two activations at once: the partial unique index settles it, with the same answer.
      throw error instanceof DomainError && error.code === 'DRIVER_EMAIL_TAKEN'
        ? DuplicateErrors.activatedDriverEmail()
        : error;
    });
    if (!result.activated) throw result.error;
    return this.respond(saved, actor);
  }

  async approve(id: string, checklist: unknown, actor: Actor, expectedVersion?: number): Promise<DriverResponse> {
    await assertAssemblyDuty(this.stores.assemblyUsers, actor, 'approveDriver');
    return this.respond(
      (await this.change(id, actor, expectedVersion, 'DriverApproved', (d, at) => d.approve(checklist, actor.id, at)))
        .saved,
      actor,
    );
  }

  /** Corrects a driver (If-Match required; the rule per field is the domain's). */
  async correct(id: string, changes: DriverCorrection, actor: Actor, expectedVersion: number): Promise<DriverResponse> {
    if (changes.phone !== undefined) textablePhone(changes.phone, this.texting.countryCodes);
    // Checked before it is looked up (a null or a number is a 400 INVALID_EMAIL, not a failed query).
    const email = changes.email === undefined ? undefined : normalizeEmail(changes.email);
    const saved = await correctAggregate(
      { ...this.deps, users: this.stores.assemblyUsers },
      { ...this.spec(id, actor, expectedVersion, 'DriverCorrected'), expectedVersion },
      changes,
      CORRECTABLE_DRIVER_FIELDS,
      async (d, at, context) => {
        // As at a staff registration: refused while any other driver, activated or awaiting activation, has it.
        if (email !== undefined && (await context.drivers.findByEmail(email)).some((o) => o.id !== id))
          throw DuplicateErrors.driverEmail();
        d.correct(changes, actor.id, at);
      },
    );
    return this.respond(saved, actor);
  }

  /** Records a renewed licence (ahead, later than the current one). Assembly inspectors and approvers, admins. */
  async renewLicense(id: string, expiry: Date, actor: Actor, expectedVersion?: number): Promise<DriverResponse> {
    await assertAssemblyDuty(this.stores.assemblyUsers, actor, 'renewDocuments');
    return this.respond(
      (await this.change(id, actor, expectedVersion, 'DriverLicenseRenewed', (d, at) => d.renewLicense(expiry, at)))
        .saved,
      actor,
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
      actor,
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
    return this.respond(saved, actor);
  }

  /**
   * A new activation key (lifting any delay), sent to the driver's own phone through the messaging port: staff who
   * ask for it never see it. A duty of approvers (and admins). If the message cannot be handed over, the call fails
   * (502) and may be repeated.
   */
  async reissueActivationKey(id: string, actor: Actor): Promise<DriverResponse> {
    await assertAssemblyDuty(this.stores.assemblyUsers, actor, 'reissueActivationKey');
    const current = withinJurisdiction(jurisdictionOf(actor), await this.stores.drivers.findById(id), 'driver', id);
    // An activated driver: the domain refuses (409 DRIVER_ALREADY_ACTIVATED), whatever the hour.
    if (current.verified) return this.respond(await this.reissue(id, actor), actor);
    const heldFor = this.texts.heldFor();
    if (heldFor > 0) {
      // In the quiet hours the new key is made and sent when they end (by the queued job), not now.
      await this.uow.run((context) => this.texts.hold(context, id, heldFor));
      return this.respond(current, actor);
    }
    const phone = current.toState().phone;
    // Refused before the key changes: the driver's current key keeps working.
    await this.texts.assertWindowOpen(phone);
    return this.respond(await this.reissue(id, actor), actor);
  }

  /**
   * The key held by the quiet hours (a staff registration, a reissue): made now and sent, once the quiet hours are
   * over, to a driver still waiting for one. A driver activated or deleted since gets nothing. The per-number window
   * and the hourly budget apply: a key they refuse is not sent (logged), and approvers can reissue it later.
   */
  async sendHeldActivationKey(id: string): Promise<'sent' | 'held' | 'skipped'> {
    const driver = await this.stores.drivers.findById(id);
    if (!driver || driver.verified) return 'skipped';
    const heldFor = this.texts.heldFor();
    if (heldFor > 0) {
      await this.uow.run((context) => this.texts.hold(context, id, heldFor));
      return 'held';
    }
    try {
      await this.texts.assertWindowOpen(driver.toState().phone);
    } catch (error) {
      this.logger.warn(`A held activation key was not sent: ${(error as Error).message}`);
      return 'skipped';
    }
    await this.reissue(id, SYSTEM_ACTOR);
    return 'sent';
  }

  /** Replaces the key and sends it, counted in the number's window (a refusal there is a 429: nothing sent). */
  private async reissue(id: string, actor: Actor): Promise<Driver> {
    const { saved, result } = await this.change(id, actor, undefined, 'DriverActivationKeyReissued', (d, at) =>
      d.reissueActivationKey({ random: this.random, hasher: this.hasher }, actor.id, at, this.policy),
    );
    await this.texts.send(saved.toState().phone, result, saved.toState().language);
    return saved;
  }

  /** An admin's move of a driver to another assembly (audited as DriverTransferred). */
  async transfer(id: string, assemblyId: string, actor: Actor, expectedVersion?: number): Promise<DriverResponse> {
    return this.respond(
      await transferRecord(this.deps, this.spec(id, actor, expectedVersion, 'DriverTransferred'), assemblyId),
      actor,
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

  private async respond(driver: Driver, actor: Actor): Promise<DriverResponse> {
    const state = driver.toState();
    const owner = state.ownerId ? (await this.stores.owners.findById(state.ownerId))?.toState() : undefined;
    return toDriverResponse(state, embeddedOwner(state, owner, jurisdictionOf(actor)));
  }
}

/** A registration's outcome: the driver, and whether the activation key reached the messaging service. */
export interface DriverRegistered {
  driver: DriverResponse;
  activationKeySent: boolean;
}

/**
 * The owner a reader sees embedded in a driver: whole when the owner is within the reader's jurisdiction, otherwise
 * its id only (an admin may have linked a driver to another assembly's owner; that assembly's people stay its own).
 */
function embeddedOwner(
  driver: DriverState,
  owner: VehicleOwnerState | undefined,
  jurisdiction: Jurisdiction,
): VehicleOwnerState | { id: string } | undefined {
  if (!driver.ownerId) return undefined;
  return owner && covers(jurisdiction, owner) ? owner : { id: driver.ownerId };
}

/** A list's filter within the actor's jurisdiction. */
const scoped = (filter: DriverListFilter, actor: Actor): DriverListFilter => ({
  ...filter,
  assemblyId: assemblyScope(jurisdictionOf(actor)),
});
