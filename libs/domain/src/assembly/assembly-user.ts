import { normalizeEmail, normalizePhone, requireText } from '../shared/contact';
import { assertObjectId, type IdGenerator } from '../shared/id-generator';
import { oneOf } from '../shared/identity';

/** What an assembly user does at the dashboard: inspectors inspect vehicles, approvers approve, admins manage users. */
export const ASSEMBLY_ROLES = ['inspector', 'approver', 'admin'] as const;
export type AssemblyRole = (typeof ASSEMBLY_ROLES)[number];

export interface AssemblyUserState {
  readonly id: string;
  readonly assemblyId: string;
  readonly name: string;
  readonly email: string;
  readonly phone: string;
  readonly role: AssemblyRole;
  /** Off-boarded: no sign-in, no session, no key works until an admin enables the user again. Absent: enabled. */
  readonly disabledAt?: Date;
  readonly version: number;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

export class AssemblyUser {
  private constructor(private state: AssemblyUserState) {}

  static create(
    input: { assemblyId: string; name: string; email: string; phone: string; role: string },
    ids: IdGenerator,
    at: Date,
  ): AssemblyUser {
    return new AssemblyUser({
      id: ids.next(),
      assemblyId: assertObjectId(input.assemblyId, 'assembly'),
      name: requireText(input.name, 'name', 120),
      email: normalizeEmail(input.email),
      phone: normalizePhone(input.phone),
      role: oneOf(ASSEMBLY_ROLES, input.role, 'role'),
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
