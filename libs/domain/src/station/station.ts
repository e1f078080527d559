import { normalizeDigitalAddress, requireText } from '../shared/contact';
import { DomainError } from '../shared/domain-error';
import { idList, type IdGenerator } from '../shared/id-generator';

export interface StationState {
  readonly id: string;
  readonly name: string;
  readonly transportUnions: readonly string[];
  readonly zones: readonly string[];
  /** The interface shows a number: the local digits of the station's line, e.g. 302000444. */
  readonly contactNumber: number;
  readonly digitalAddress: string;
  readonly version: number;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

export class Station {
  private constructor(private readonly state: StationState) {}

  static create(
    input: {
      name: string;
      transportUnions: readonly string[];
      zones: readonly string[];
      contactNumber: number;
      digitalAddress: string;
    },
    ids: IdGenerator,
    at: Date,
  ): Station {
    if (
      !Number.isSafeInteger(input.contactNumber) ||
      input.contactNumber < 10_000_000 ||
      input.contactNumber > 999_999_999_999
    ) {
      throw new DomainError(
        'INVALID_PHONE',
        'contactNumber must be the 8 to 12 digits of a phone number',
        'contactNumber',
      );
    }
    return new Station({
      id: ids.next(),
      name: requireText(input.name, 'name', 160),
      transportUnions: idList(input.transportUnions, 'transportUnions'),
      zones: idList(input.zones, 'zones'),
      contactNumber: input.contactNumber,
      digitalAddress: normalizeDigitalAddress(input.digitalAddress),
      version: 0,
      createdAt: at,
      updatedAt: at,
    });
  }

  static restore(state: StationState): Station {
    return new Station({ ...state });
  }

  get id(): string {
    return this.state.id;
  }

  toState(): StationState {
    return { ...this.state };
  }
}
