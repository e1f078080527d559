import { normalizeEmail, normalizePhone, requireText } from '../shared/contact';
import { DomainError } from '../shared/domain-error';
import { assertObjectId, type IdGenerator } from '../shared/id-generator';
import { transferDestination } from '../assembly/jurisdiction';
import { documentNumber, ID_TYPES, oneOf, type IdType } from '../shared/identity';
import { changedFields, correctionNotAllowed, definedOnly } from '../shared/correction';
import { DEFAULT_LANGUAGE, parseLanguage, type Language } from '../shared/language';

export interface VehicleOwnerRegistration {
  name: string;
  phone: string;
  email: string;
  idType: string;
  idNumber: string;
  /** The assembly it belongs to (placed by the registering caller's jurisdiction); absent: unassigned. */
  assemblyId?: string;
  /** The language the owner's SMS are written in (shared/language.ts); absent: English. */
  language?: string;
}

export interface VehicleOwnerState {
  readonly id: string;
  readonly name: string;
  /** Canonical +233XXXXXXXXX form. */
  readonly phone: string;
  /**
   * Lower case. Absent only on an owner kept from the original service's history, whose agents registered owners by
   * phone only (`keepFromHistory`); a new owner always has one, and a correction may add it.
   */
  readonly email?: string;
  readonly idType: IdType;
  readonly idNumber: string;
  readonly verified: boolean;
  /** Absent: unassigned (visible nationwide only). */
  readonly assemblyId?: string;
  /** The language the owner's SMS are written in. */
  readonly language: Language;
  readonly version: number;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** The fields a correction may change; the identity document only until an assembly has verified it. */
export const CORRECTABLE_OWNER_FIELDS = ['name', 'phone', 'email', 'idType', 'idNumber', 'language'] as const;
export type CorrectableOwnerField = (typeof CORRECTABLE_OWNER_FIELDS)[number];
export type VehicleOwnerCorrection = Partial<Pick<VehicleOwnerRegistration, CorrectableOwnerField>>;

/** Someone who owns vehicles. Verified once an assembly has checked the identity document. */
export class VehicleOwner {
  private constructor(private state: VehicleOwnerState) {}

  static register(input: VehicleOwnerRegistration, ids: IdGenerator, at: Date): VehicleOwner {
    return VehicleOwner.create(input, normalizeEmail(input.email), ids, at);
  }

  /**
   * An owner from the original service's history (the importer): the checks of `register`, but the e-mail may be
   * absent, as the original's agents registered owners by phone only. Never for a new registration.
   */
  static keepFromHistory(
    input: Omit<VehicleOwnerRegistration, 'email'> & { email?: string },
    ids: IdGenerator,
    at: Date,
  ): VehicleOwner {
    return VehicleOwner.create(input, input.email === undefined ? undefined : normalizeEmail(input.email), ids, at);
  }

  private static create(
    input: Omit<VehicleOwnerRegistration, 'email'>,
    email: string | undefined,
    ids: IdGenerator,
    at: Date,
  ): VehicleOwner {
    return new VehicleOwner({
      id: ids.next(),
      name: requireText(input.name, 'name', 120),
      phone: normalizePhone(input.phone),
      ...(email !== undefined && { email }),
      idType: oneOf(ID_TYPES, input.idType, 'idType'),
      idNumber: documentNumber(input.idNumber, 'idNumber'),
      verified: false,
      ...(input.assemblyId !== undefined && { assemblyId: assertObjectId(input.assemblyId, 'assembly') }),
      language: input.language === undefined ? DEFAULT_LANGUAGE : parseLanguage(input.language),
      version: 0,
      createdAt: at,
      updatedAt: at,
    });
  }

  static restore(state: VehicleOwnerState): VehicleOwner {
    return new VehicleOwner({ ...state });
  }

  get id(): string {
    return this.state.id;
  }
  get version(): number {
    return this.state.version;
  }

  toState(): VehicleOwnerState {
    return { ...this.state };
  }

  /** Moves the owner to another assembly (its vehicles and drivers stay where they are). */
  transferTo(assemblyId: string, at: Date): void {
    this.state = { ...this.state, assemblyId: transferDestination(this.state, assemblyId), updatedAt: at };
  }

  /**
   * Corrects contact details and, until verification, the identity document (checked as at registration). Once the
   * owner is verified, idType and idNumber are refused (CORRECTION_NOT_ALLOWED): the assembly checked that document.
   * Returns the fields that changed; nothing changes when none does.
   */
  correct(changes: VehicleOwnerCorrection, at: Date): CorrectableOwnerField[] {
    const s = this.state;
    const sent = definedOnly(changes);
    const checked: Partial<Record<CorrectableOwnerField, unknown>> = {
      ...(sent.name !== undefined && { name: requireText(sent.name, 'name', 120) }),
      ...(sent.phone !== undefined && { phone: normalizePhone(sent.phone) }),
      ...(sent.email !== undefined && { email: normalizeEmail(sent.email) }),
      ...(sent.idType !== undefined && { idType: oneOf(ID_TYPES, sent.idType, 'idType') }),
      ...(sent.idNumber !== undefined && { idNumber: documentNumber(sent.idNumber, 'idNumber') }),
      ...(sent.language !== undefined && { language: parseLanguage(sent.language) }),
    };
    const changed = changedFields(CORRECTABLE_OWNER_FIELDS, sent, checked, s);
    const locked = changed.find((f) => f === 'idType' || f === 'idNumber');
    if (s.verified && locked)
      throw correctionNotAllowed(locked, 'once the owner is verified: the assembly checked that document');
    if (changed.length > 0)
      this.state = { ...s, ...Object.fromEntries(changed.map((f) => [f, checked[f]])), updatedAt: at };
    return changed;
  }

  verify(at: Date): void {
    if (this.state.verified) throw new DomainError('OWNER_ALREADY_VERIFIED', 'The owner is already verified');
    this.state = { ...this.state, verified: true, updatedAt: at };
  }
}
