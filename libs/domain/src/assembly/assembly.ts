import { normalizeDigitalAddress, requireText } from '../shared/contact';
import { assertObjectId, type IdGenerator } from '../shared/id-generator';
import { oneOf } from '../shared/identity';

/** Ghana's local government assemblies are metropolitan, municipal or district assemblies. */
export const ASSEMBLY_TYPES = ['metropolitan', 'municipal', 'district'] as const;
export type AssemblyType = (typeof ASSEMBLY_TYPES)[number];

export interface AssemblyState {
  readonly id: string;
  readonly name: string;
  readonly regionId: string;
  readonly digitalAddress: string;
  readonly type: AssemblyType;
  readonly version: number;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

export class Assembly {
  private constructor(private readonly state: AssemblyState) {}

  static create(
    input: { name: string; regionId: string; digitalAddress: string; type: string },
    ids: IdGenerator,
    at: Date,
  ): Assembly {
    return new Assembly({
      id: ids.next(),
      name: requireText(input.name, 'name', 160),
      regionId: assertObjectId(input.regionId, 'region'),
      digitalAddress: normalizeDigitalAddress(input.digitalAddress),
      type: oneOf(ASSEMBLY_TYPES, input.type, 'type'),
      version: 0,
      createdAt: at,
      updatedAt: at,
    });
  }

  static restore(state: AssemblyState): Assembly {
    return new Assembly({ ...state });
  }

  get id(): string {
    return this.state.id;
  }

  toState(): AssemblyState {
    return { ...this.state };
  }
}
