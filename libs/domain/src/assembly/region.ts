import { requireText } from '../shared/contact';
import { assertObjectId, type IdGenerator } from '../shared/id-generator';

export interface RegionState {
  readonly id: string;
  readonly name: string;
  /** Id of the country record (the interface keeps countries as ids). */
  readonly country: string;
  readonly version: number;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

export class Region {
  private constructor(private readonly state: RegionState) {}

  static create(input: { name: string; country: string }, ids: IdGenerator, at: Date): Region {
    return new Region({
      id: ids.next(),
      name: requireText(input.name, 'name', 120),
      country: assertObjectId(input.country, 'country'),
      version: 0,
      createdAt: at,
      updatedAt: at,
    });
  }

  static restore(state: RegionState): Region {
    return new Region({ ...state });
  }

  get id(): string {
    return this.state.id;
  }

  toState(): RegionState {
    return { ...this.state };
  }
}
