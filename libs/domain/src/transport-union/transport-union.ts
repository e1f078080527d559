import { normalizeDigitalAddress, normalizeEmail, normalizePhone, requireText } from '../shared/contact';
import { assertObjectId, idList, type IdGenerator } from '../shared/id-generator';
import { oneOf } from '../shared/identity';

export const UNION_STATUSES = ['active', 'suspended'] as const;
export type UnionStatus = (typeof UNION_STATUSES)[number];

export interface TransportUnionState {
  readonly id: string;
  readonly status: UnionStatus;
  readonly name: string;
  /** The parent union a branch belongs to (the interface's `transportUnion`), when it is a branch. */
  readonly parentUnionId?: string;
  readonly digitalAddress: string;
  readonly contactNumber: string;
  readonly email: string;
  readonly zones: readonly string[];
  readonly version: number;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

export class TransportUnion {
  private constructor(private readonly state: TransportUnionState) {}

  static create(
    input: {
      name: string;
      status?: string;
      parentUnionId?: string;
      digitalAddress: string;
      contactNumber: string;
      email: string;
      zones: readonly string[];
    },
    ids: IdGenerator,
    at: Date,
  ): TransportUnion {
    const state: TransportUnionState = {
      id: ids.next(),
      status: oneOf(UNION_STATUSES, input.status ?? 'active', 'status'),
      name: requireText(input.name, 'name', 160),
      digitalAddress: normalizeDigitalAddress(input.digitalAddress),
      contactNumber: normalizePhone(input.contactNumber, 'contactNumber'),
      email: normalizeEmail(input.email),
      zones: idList(input.zones, 'zones'),
      version: 0,
      createdAt: at,
      updatedAt: at,
    };
    return new TransportUnion(
      input.parentUnionId === undefined
        ? state
        : { ...state, parentUnionId: assertObjectId(input.parentUnionId, 'transportUnion') },
    );
  }

  static restore(state: TransportUnionState): TransportUnion {
    return new TransportUnion({ ...state });
  }

  get id(): string {
    return this.state.id;
  }

  toState(): TransportUnionState {
    return { ...this.state };
  }
}
