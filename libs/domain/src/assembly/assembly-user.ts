import { normalizeEmail, normalizePhone, requireText } from '../shared/contact';
import { DomainError } from '../shared/domain-error';
import { assertObjectId, type IdGenerator } from '../shared/id-generator';
import { oneOf } from '../shared/identity';
import { parseLanguage, type Language } from '../shared/language';

/**
 * What an assembly user does at the dashboard: inspectors inspect vehicles, approvers approve, admins manage users,
 * enforcers (the assembly's task force, or police traffic officers: `nationwide`) check vehicles at the roadside and
 * record offences.
 */
export const ASSEMBLY_ROLES = ['inspector', 'approver', 'admin', 'enforcer'] as const;
export type AssemblyRole = (typeof ASSEMBLY_ROLES)[number];

/**
 * The roles that may approve, or make those who may: an account of theirs that an assembly admin creates waits for a
 * second person's confirmation before it can act, so one admin cannot make approvers of themselves under other phone
 * numbers. An inspector needs none: an inspector approves nothing.
 */
export const ROLES_NEEDING_CONFIRMATION: readonly AssemblyRole[] = ['approver', 'admin'];

export interface AssemblyUserState {
  readonly id: string;
  readonly assemblyId: string;
  readonly name: string;
  readonly email: string;
  readonly phone: string;
  readonly role: AssemblyRole;
  /**
   * A police traffic officer: an enforcer who works nationwide (records offences under any assembly's catalogue, the
   * assembly where the offence was made). Only enforcers carry it, and only the national admin grants it. Their
   * `assemblyId` is the assembly of the unit they report to. Absent: works in their own assembly only.
   */
  readonly nationwide?: true;
  /** Off-boarded: no sign-in, no session, no key works until an admin enables the user again. Absent: enabled. */
  readonly disabledAt?: Date;
  /** The assembly user (an assembly admin) who created the account; absent: the national admin (or the seed, an import). */
  readonly createdBy?: string;
  /** Made by an assembly admin with a role that may approve: no sign-in, session or key works until confirmed. */
  readonly awaitingConfirmation?: boolean;
  /** Who confirmed it: the national admin, or an assembly admin other than its creator. */
  readonly confirmedBy?: string;
  /** The language the dashboard speaks to them in, chosen when they are added or by themselves; absent: English. */
  readonly language?: Language;
  readonly version: number;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

export class AssemblyUser {
  private constructor(private state: AssemblyUserState) {}

  /**
   * `createdBy`: the assembly admin creating the account (absent: the national admin). An approver or admin created by
   * an assembly admin awaits confirmation by someone else (`confirm`).
   */
  static create(
    input: {
      assemblyId: string;
      name: string;
      email: string;
      phone: string;
      role: string;
      language?: string;
      nationwide?: boolean;
    },
    ids: IdGenerator,
    at: Date,
    createdBy?: string,
  ): AssemblyUser {
    const role = oneOf(ASSEMBLY_ROLES, input.role, 'role');
    const byAssembly = createdBy !== undefined && { createdBy: assertObjectId(createdBy, 'createdBy') };
    if (input.nationwide === true && role !== 'enforcer')
      throw new DomainError(
        'INVALID_VALUE',
        'Only an enforcer (a police traffic officer) works nationwide',
        'nationwide',
      );
    if (input.nationwide === true && byAssembly)
      throw new DomainError(
        'DUTY_NOT_ALLOWED',
        'A nationwide enforcer (a police traffic officer) is created by the national admin, not an assembly admin',
        'nationwide',
      );
    return new AssemblyUser({
      ...byAssembly,
      ...(byAssembly && ROLES_NEEDING_CONFIRMATION.includes(role) && { awaitingConfirmation: true }),
      ...(input.language !== undefined && { language: parseLanguage(input.language) }),
      ...(input.nationwide === true && { nationwide: true as const }),
      id: ids.next(),
      assemblyId: assertObjectId(input.assemblyId, 'assembly'),
      name: requireText(input.name, 'name', 120),
      email: normalizeEmail(input.email),
      phone: normalizePhone(input.phone),
      role,
      version: 0,
      createdAt: at,
      updatedAt: at,
    });
  }

  static restore(state: AssemblyUserState): AssemblyUser {
    return new AssemblyUser({ ...state });
  }

  get id(): string {
    return this.state.id;
  }
  get assemblyId(): string {
    return this.state.assemblyId;
  }
  get version(): number {
    return this.state.version;
  }
  get disabled(): boolean {
    return this.state.disabledAt !== undefined;
  }
  get nationwide(): boolean {
    return this.state.nationwide === true;
  }
  get awaitingConfirmation(): boolean {
    return this.state.awaitingConfirmation === true;
  }

  /**
   * A second person lets an account awaiting confirmation act: never its creator, nor the account itself
   * (ASSEMBLY_USER_CONFIRMER_IS_CREATOR). An account that awaits nothing is left as it is (returns false).
   */
  confirm(by: string, at: Date): boolean {
    assertObjectId(by, 'confirmedBy');
    if (!this.awaitingConfirmation) return false;
    if (by === this.state.createdBy || by === this.state.id)
      throw new DomainError(
        'ASSEMBLY_USER_CONFIRMER_IS_CREATOR',
        'An account that may approve is confirmed by someone other than the admin who created it: the national admin or another assembly admin',
        'id',
      );
    const { awaitingConfirmation: _done, ...rest } = this.state;
    this.state = { ...rest, confirmedBy: by, updatedAt: at };
    return true;
  }

  /** Off-boards the user (a second time changes nothing: the first instant stays). */
  disable(at: Date): void {
    if (this.disabled) return;
    this.state = { ...this.state, disabledAt: at, updatedAt: at };
  }

  /** Lets a disabled user work again (an enabled one is left as it is). */
  enable(at: Date): void {
    if (!this.disabled) return;
    const { disabledAt: _ended, ...rest } = this.state;
    this.state = { ...rest, updatedAt: at };
  }

  toState(): AssemblyUserState {
    return { ...this.state };
  }
}
