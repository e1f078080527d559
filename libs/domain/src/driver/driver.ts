import { normalizeEmail, normalizePhone, requireText } from '../shared/contact';
import { renewedExpiry } from '../shared/renewal';
import { changedFields, correctionNotAllowed, definedOnly } from '../shared/correction';
import type { DomainError } from '../shared/domain-error';
import type { DomainEvent } from '../shared/events';
import { assertObjectId, type IdGenerator } from '../shared/id-generator';
import type { RandomSource } from '../shared/random-source';
import type { SecretHasher } from '../shared/secret-hasher';
import { validDate } from '../shared/values';
import { DEFAULT_LANGUAGE, parseLanguage, type Language } from '../shared/language';
import { newActivationKey } from './activation-key';
import { failedApprovalItems, parseApprovalChecklist, type ApprovalChecklist } from './approval-checklist';
import { documentNumber, ID_TYPES, oneOf, type IdType } from '../shared/identity';
import { GENDERS, LICENSE_CLASSES, type Gender, type LicenseClass } from './driver-fields';
import { DriverErrors } from './driver.errors';
import type { Mutable } from '../shared/mutable';
import { transferDestination, type Placed } from '../assembly/jurisdiction';

/** How long an activation key works after it was issued. */
export const ACTIVATION_KEY_LIFETIME_MS = 24 * 3_600_000;

/**
 * How long after `failures` wrong keys from one client address that address's next try is taken: doubling from one
 * second, at most fifteen minutes. A wrong key slows down only the address it came from: a stranger guessing from
 * elsewhere never delays the driver trying the right key from their own phone.
 */
export interface ActivationPolicy {
  keyLifetimeMs: number;
  delayMs(failures: number): number;
}
export const DEFAULT_ACTIVATION_POLICY: ActivationPolicy = {
  keyLifetimeMs: ACTIVATION_KEY_LIFETIME_MS,
  delayMs: (failures) => Math.min(1000 * 2 ** (failures - 1), 15 * 60_000),
};

export interface DriverRegistration {
  name: string;
  phone: string;
  email: string;
  license: string;
  licenseClass: string;
  licenseExpiry: Date;
  licenseIssueDate: Date;
  idType: string;
  idNumber: string;
  gender: string;
  ownerId?: string;
  walletAccount?: string;
  /** The assembly it belongs to (the self-registering driver's choice, or the registering staff's); absent: unassigned. */
  assemblyId?: string;
  /**
   * Who typed the contact details in, when staff registered the driver (absent: the driver did): they may not approve
   * the driver, as whoever corrects the contact may not (see `phoneSetBy`). They sent the first key to the number
   * they typed, so sending another is no new power and stays theirs.
   */
  registeredBy?: string;
  /** The language the driver's SMS are written in (shared/language.ts); absent: English. */
  language?: string;
}

/**
 * The fields a correction may change. Once the driver is approved, the identity document is refused
 * (CORRECTION_NOT_ALLOWED: the approver checked it) and a corrected licence (number, class or issue date) withdraws the
 * approval until an approver approves again; contact details, gender and the wallet are plain corrections. The
 * licence's expiry changes by renewal.
 */
export const CORRECTABLE_DRIVER_FIELDS = [
  'name',
  'phone',
  'email',
  'license',
  'licenseClass',
  'licenseIssueDate',
  'idType',
  'idNumber',
  'gender',
  'walletAccount',
  'language',
] as const;
export type CorrectableDriverField = (typeof CORRECTABLE_DRIVER_FIELDS)[number];
export type DriverCorrection = Partial<Pick<DriverRegistration, CorrectableDriverField>>;

export interface DriverRevocation {
  readonly reason: string;
  readonly revokedBy: string;
  readonly dateRevoked: Date;
}

export interface DriverState {
  readonly id: string;
  readonly name: string;
  readonly phone: string;
  readonly email: string;
  readonly license: string;
  readonly licenseClass: LicenseClass;
  readonly licenseExpiry: Date;
  readonly licenseIssueDate: Date;
  readonly idType: IdType;
  readonly idNumber: string;
  readonly gender: Gender;
  /** The language the driver's SMS are written in. */
  readonly language: Language;
  readonly online: boolean;
  readonly busy: boolean;
  readonly verified: boolean;
  readonly approved: boolean;
  readonly approvalChecklist?: ApprovalChecklist;
  readonly approvedBy?: string;
  readonly dateApproved?: Date;
  readonly revocation?: DriverRevocation;
  /** Hash of the current activation key (the key itself is never kept). */
  readonly activationKeyHash: string;
  /** Wrong keys tried since the current key was issued, from every address. */
  readonly activationAttempts: number;
  /**
   * Per client address (an opaque key the caller derives from it, never the address itself), the wrong keys it tried
   * since the current key was issued and when it may try again.
   */
  readonly activationTries: Readonly<Record<string, ActivationTries>>;
  /** The current key works until then. */
  readonly activationKeyExpiresAt: Date;
  readonly dateActivated?: Date;
  readonly ownerId?: string;
  readonly walletAccount?: string;
  /** Absent: unassigned (visible nationwide only). */
  readonly assemblyId?: string;
  /**
   * The staff member who set the driver's current phone number, and its current email (registering the driver for
   * them, or correcting it); absent: the driver's own. Neither may approve the driver, and the one who set the phone
   * may not send an activation key to it: an approver who puts their own number on a driver must not be the one who
   * activates and approves it (four eyes).
   */
  readonly phoneSetBy?: string;
  readonly emailSetBy?: string;
  /** The staff member who registered the driver, contact details and all (absent: the driver): may not approve it. */
  readonly registeredBy?: string;
  readonly ratingTotal: number;
  readonly ratingCount: number;
  readonly version: number;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

export interface DriverPorts {
  ids: IdGenerator;
  random: RandomSource;
  hasher: SecretHasher;
}

/** One client address's wrong keys for this driver since the key was issued, and when it may try again. */
export interface ActivationTries {
  readonly failures: number;
  readonly retryAt: Date;
}

/** How many addresses' tries a driver keeps; past it the one whose delay ends first is forgotten. */
export const ACTIVATION_TRIES_KEPT = 50;

export type ActivationOutcome =
  { readonly activated: true } | { readonly activated: false; readonly retryAt: Date; readonly error: DomainError };

/**
 * A driver may name only an owner of the assembly it is placed in (both unassigned counts as the same). An owner that
 * does not exist and one of another assembly are refused alike, after the same lookup, so a registration never tells
 * whether an owner exists in another assembly.
 */
export function assertOwnerOfDriverAssembly(
  ownerId: string,
  owner: Placed | undefined,
  driverAssemblyId: string | undefined,
): void {
  if (!owner || owner.assemblyId !== driverAssemblyId) throw DriverErrors.ownerNotInAssembly(ownerId);
}

/** The tries of at most ACTIVATION_TRIES_KEPT addresses: those whose delays end last. */
function keepLatest(tries: Record<string, ActivationTries>): Record<string, ActivationTries> {
  const entries = Object.entries(tries);
  if (entries.length <= ACTIVATION_TRIES_KEPT) return tries;
  entries.sort(([, a], [, b]) => b.retryAt.getTime() - a.retryAt.getTime());
  return Object.fromEntries(entries.slice(0, ACTIVATION_TRIES_KEPT));
}

/**
 * A driver: registered (with a one-time activation key), activated by the driver, approved at an assembly dashboard,
 * then online/busy while working. Invariants: busy implies online; online implies approved and verified.
 */
export class Driver {
  private events: DomainEvent[] = [];

  private constructor(private state: Mutable<DriverState>) {}

  /** The activation key is returned here, once; only its hash stays in the driver. */
  static register(
    input: DriverRegistration,
    ports: DriverPorts,
    at: Date,
    policy: ActivationPolicy = DEFAULT_ACTIVATION_POLICY,
  ): { driver: Driver; activationKey: string } {
    const licenseIssueDate = validDate(input.licenseIssueDate, 'licenseIssueDate');
    const licenseExpiry = validDate(input.licenseExpiry, 'licenseExpiry');
    if (licenseIssueDate > at || licenseExpiry <= licenseIssueDate) throw DriverErrors.licenseDates();
    const activationKey = newActivationKey(ports.random);
    const state: Mutable<DriverState> = {
      id: ports.ids.next(),
      name: requireText(input.name, 'name', 120),
      phone: normalizePhone(input.phone),
      email: normalizeEmail(input.email),
      license: documentNumber(input.license, 'license'),
      licenseClass: oneOf(LICENSE_CLASSES, input.licenseClass, 'licenseClass'),
      licenseExpiry,
      licenseIssueDate,
      idType: oneOf(ID_TYPES, input.idType, 'idType'),
      idNumber: documentNumber(input.idNumber, 'idNumber'),
      gender: oneOf(GENDERS, input.gender, 'gender'),
      language: input.language === undefined ? DEFAULT_LANGUAGE : parseLanguage(input.language),
      online: false,
      busy: false,
      verified: false,
      approved: false,
      activationKeyHash: ports.hasher.hash(activationKey),
      activationAttempts: 0,
      activationTries: {},
      activationKeyExpiresAt: new Date(at.getTime() + policy.keyLifetimeMs),
      ratingTotal: 0,
      ratingCount: 0,
      version: 0,
      createdAt: at,
      updatedAt: at,
    };
    if (input.ownerId !== undefined) state.ownerId = assertObjectId(input.ownerId, 'ownerID');
    if (input.walletAccount !== undefined) state.walletAccount = requireText(input.walletAccount, 'walletAccount', 40);
    if (input.assemblyId !== undefined) state.assemblyId = assertObjectId(input.assemblyId, 'assembly');
    if (input.registeredBy !== undefined) state.registeredBy = assertObjectId(input.registeredBy, 'registeredBy');
    const driver = new Driver(state);
    driver.record('DriverRegistered', at);
    return { driver, activationKey };
  }

  static restore(state: DriverState): Driver {
    return new Driver({ ...state, activationTries: { ...state.activationTries } });
  }

  get id(): string {
    return this.state.id;
  }
  get approved(): boolean {
    return this.state.approved;
  }
  get verified(): boolean {
    return this.state.verified;
  }
  get version(): number {
    return this.state.version;
  }
  /** Seconds until the client address `from` may try a key again; 0 when it may try now. */
  activationWaitSeconds(from: string, at: Date): number {
    const retryAt = this.state.activationTries[from]?.retryAt;
    return retryAt && retryAt > at ? Math.ceil((retryAt.getTime() - at.getTime()) / 1000) : 0;
  }
  /** Average of the ratings received, two decimals; undefined before the first rating. */
  get rating(): number | undefined {
    const { ratingTotal, ratingCount } = this.state;
    return ratingCount === 0 ? undefined : Math.round((ratingTotal / ratingCount) * 100) / 100;
  }

  toState(): DriverState {
    return { ...this.state };
  }

  pullEvents(): DomainEvent[] {
    const out = this.events;
    this.events = [];
    return out;
  }

  /**
   * The driver's own step, from the client address `from`. A wrong key is counted and delays that address's next try
   * (growing, capped: nobody is locked out for good), never another address's; it must be saved (the caller persists
   * the driver, then reports the error from the outcome). A try before the address's delay is over, or with an
   * expired key, is refused and counts for nothing.
   */
  activate(
    key: string,
    at: Date,
    hasher: SecretHasher,
    from: string,
    policy: ActivationPolicy = DEFAULT_ACTIVATION_POLICY,
  ): ActivationOutcome {
    const s = this.state;
    if (s.verified) throw DriverErrors.alreadyActivated();
    const wait = this.activationWaitSeconds(from, at);
    if (wait > 0) throw DriverErrors.activationTooSoon(wait);
    if (s.activationKeyExpiresAt <= at) throw DriverErrors.activationKeyExpired();
    if (typeof key === 'string' && /^\d{6}$/.test(key) && hasher.verify(key, s.activationKeyHash)) {
      s.verified = true;
      s.dateActivated = at;
      s.activationAttempts = 0;
      s.activationTries = {};
      s.updatedAt = at;
      this.record('DriverActivated', at);
      return { activated: true };
    }
    s.activationAttempts += 1;
    const failures = (s.activationTries[from]?.failures ?? 0) + 1;
    const retryAt = new Date(at.getTime() + policy.delayMs(failures));
    s.activationTries = keepLatest({ ...s.activationTries, [from]: { failures, retryAt } });
    s.updatedAt = at;
    this.record('DriverActivationFailed', at, { failures: s.activationAttempts, retryAt: retryAt.toISOString() });
    return { activated: false, retryAt, error: DriverErrors.wrongActivationKey(retryAt, at) };
  }

  /**
   * The current key stops working (its phone number was corrected before the driver activated: a key sent to the old
   * number must not activate the account). A new one is sent by reissuing. No-op once activated or already void.
   */
  voidActivationKey(at: Date): boolean {
    const s = this.state;
    if (s.verified || s.activationKeyExpiresAt <= at) return false;
    s.activationKeyExpiresAt = at;
    s.updatedAt = at;
    this.record('DriverActivationKeyVoided', at);
    return true;
  }

  /**
   * A new key replaces the old one, with a new lifetime and no delay. Returned once; only its hash is kept. Whoever
   * sends it vouches for the phone number it goes to, so the staff member who set that number may not send it
   * (DRIVER_KEY_SENDER_SET_PHONE): a second person confirms a number typed in by staff.
   */
  reissueActivationKey(
    ports: Pick<DriverPorts, 'random' | 'hasher'>,
    by: string,
    at: Date,
    policy: ActivationPolicy = DEFAULT_ACTIVATION_POLICY,
  ): string {
    if (this.state.verified) throw DriverErrors.alreadyActivated();
    if (this.state.phoneSetBy === by) throw DriverErrors.keySenderSetPhone();
    const key = newActivationKey(ports.random);
    this.state.activationKeyHash = ports.hasher.hash(key);
    this.state.activationAttempts = 0;
    this.state.activationTries = {};
    this.state.activationKeyExpiresAt = new Date(at.getTime() + policy.keyLifetimeMs);
    this.state.updatedAt = at;
    this.record('DriverActivationKeyReissued', at);
    return key;
  }

  approve(rawChecklist: unknown, approverId: string, at: Date): void {
    const checklist = parseApprovalChecklist(rawChecklist);
    assertObjectId(approverId, 'approvedBy');
    const s = this.state;
    if (s.approved) throw DriverErrors.alreadyApproved();
    if ([s.registeredBy, s.phoneSetBy, s.emailSetBy].includes(approverId)) throw DriverErrors.approverSetContact();
    const failed = failedApprovalItems(checklist);
    if (failed.length > 0) throw DriverErrors.checklistFailed(failed);
    if (s.licenseExpiry <= at) throw DriverErrors.licenseExpired();
    s.approved = true;
    s.approvalChecklist = checklist;
    s.approvedBy = approverId;
    s.dateApproved = at;
    delete s.revocation;
    s.updatedAt = at;
    this.record('DriverApproved', at, { approvedBy: approverId });
  }

  /**
   * Corrects fields (see CORRECTABLE_DRIVER_FIELDS for the rule per field) as the staff member `by`; returns those
   * that changed. A changed phone makes `by` the driver's `phoneSetBy`, a changed email its `emailSetBy`.
   */
  correct(changes: DriverCorrection, by: string, at: Date): CorrectableDriverField[] {
    const s = this.state;
    assertObjectId(by, 'correctedBy');
    const sent = definedOnly(changes);
    const checked: Partial<Record<CorrectableDriverField, unknown>> = {
      ...(sent.name !== undefined && { name: requireText(sent.name, 'name', 120) }),
      ...(sent.phone !== undefined && { phone: normalizePhone(sent.phone) }),
      ...(sent.email !== undefined && { email: normalizeEmail(sent.email) }),
      ...(sent.license !== undefined && { license: documentNumber(sent.license, 'license') }),
      ...(sent.licenseClass !== undefined && {
        licenseClass: oneOf(LICENSE_CLASSES, sent.licenseClass, 'licenseClass'),
      }),
      ...(sent.licenseIssueDate !== undefined && {
        licenseIssueDate: validDate(sent.licenseIssueDate, 'licenseIssueDate'),
      }),
      ...(sent.idType !== undefined && { idType: oneOf(ID_TYPES, sent.idType, 'idType') }),
      ...(sent.idNumber !== undefined && { idNumber: documentNumber(sent.idNumber, 'idNumber') }),
      ...(sent.gender !== undefined && { gender: oneOf(GENDERS, sent.gender, 'gender') }),
      ...(sent.walletAccount !== undefined && { walletAccount: requireText(sent.walletAccount, 'walletAccount', 40) }),
      ...(sent.language !== undefined && { language: parseLanguage(sent.language) }),
    };
    const issued = checked.licenseIssueDate as Date | undefined;
    if (issued && (issued > at || s.licenseExpiry <= issued)) throw DriverErrors.licenseDates();
    const changed = changedFields(CORRECTABLE_DRIVER_FIELDS, sent, checked, s);
    if (changed.length === 0) return [];
    const identity = changed.find((f) => f === 'idType' || f === 'idNumber');
    if (s.approved && identity)
      throw correctionNotAllowed(identity, 'once the driver is approved: the approver checked that document');
    const withdraw =
      s.approved && changed.some((f) => f === 'license' || f === 'licenseClass' || f === 'licenseIssueDate');
    for (const field of changed) (s as Record<string, unknown>)[field] = checked[field];
    if (changed.includes('phone')) s.phoneSetBy = by;
    if (changed.includes('email')) s.emailSetBy = by;
    s.updatedAt = at;
    this.record('DriverCorrected', at, { fields: changed });
    if (changed.includes('phone')) this.voidActivationKey(at);
    if (withdraw) {
      s.approved = false;
      s.online = false;
      s.busy = false;
      delete s.approvedBy;
      delete s.dateApproved;
      this.record('DriverApprovalWithdrawn', at, { reason: 'licence corrected' });
    }
    return changed;
  }

  /** Records a renewed driving licence: its expiry must be ahead and later than the current one (shared/renewal.ts). */
  renewLicense(expiry: Date, at: Date): void {
    const previous = this.state.licenseExpiry;
    this.state.licenseExpiry = renewedExpiry(previous, expiry, 'licenseExpiry', at);
    this.state.updatedAt = at;
    this.record('DriverLicenseRenewed', at, { expiry: this.state.licenseExpiry, previous });
  }

  /** Withdraws approval and takes the driver offline (and so not busy). */
  revokeApproval(reason: string, by: string, at: Date): void {
    const s = this.state;
    if (!s.approved) throw DriverErrors.notApproved();
    const text = requireText(reason, 'reason', 500);
    assertObjectId(by, 'revokedBy');
    s.approved = false;
    s.online = false;
    s.busy = false;
    delete s.approvedBy;
    delete s.dateApproved;
    s.revocation = { reason: text, revokedBy: by, dateRevoked: at };
    s.updatedAt = at;
    this.record('DriverApprovalRevoked', at, { reason: text, revokedBy: by });
  }

  /** Returns false (and changes nothing) when already online. */
  goOnline(at: Date): boolean {
    const s = this.state;
    if (!s.approved) throw DriverErrors.notApproved();
    if (!s.verified) throw DriverErrors.notVerified();
    if (s.online) return false;
    s.online = true;
    s.updatedAt = at;
    this.record('DriverWentOnline', at);
    return true;
  }

  /** Returns false (and changes nothing) when already offline. */
  goOffline(at: Date): boolean {
    const s = this.state;
    if (s.busy) throw DriverErrors.busy();
    if (!s.online) return false;
    s.online = false;
    s.updatedAt = at;
    this.record('DriverWentOffline', at);
    return true;
  }

  /** Returns false (and changes nothing) when the driver is already in that state. */
  setBusy(busy: boolean, at: Date): boolean {
    const s = this.state;
    if (busy && !s.online) throw DriverErrors.offline();
    if (s.busy === busy) return false;
    s.busy = busy;
    s.updatedAt = at;
    this.record(busy ? 'DriverBusy' : 'DriverAvailable', at);
    return true;
  }

  rate(stars: number, at: Date): void {
    if (!Number.isInteger(stars) || stars < 1 || stars > 5) throw DriverErrors.invalidRating();
    this.state.ratingTotal += stars;
    this.state.ratingCount += 1;
    this.state.updatedAt = at;
  }

  /** Moves the driver to another assembly, approval as it is (an admin's explicit act). */
  transferTo(assemblyId: string, at: Date): void {
    const from = this.state.assemblyId ?? null;
    this.state.assemblyId = transferDestination(this.state, assemblyId);
    this.state.updatedAt = at;
    this.record('DriverTransferred', at, { from, to: this.state.assemblyId });
  }

  private record(type: string, at: Date, data?: Record<string, unknown>): void {
    this.events.push({ type, aggregateId: this.state.id, at, data });
  }
}
