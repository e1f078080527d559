import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import {
  DRIVER_STANDINGS,
  MAX_SEARCH_LENGTH,
  MIN_SEARCH_CHARACTERS,
  OWNER_STANDINGS,
  REGISTRY_KINDS,
  VEHICLE_STANDINGS,
  driverStanding,
  ownerStanding,
  vehicleStanding,
  type RegistryKind,
  type RegistryRecord,
} from '@transport/domain';
import { DATE, ID } from '../core/http/dto-support';
import { CountParam, IdParam, LimitParam } from '../core/http/query-values';

// Requests and responses of GET /search, declared once: validation, the OpenAPI document and the types.

const QUERY_RULE = `${MIN_SEARCH_CHARACTERS} to ${MAX_SEARCH_LENGTH} characters, at least ${MIN_SEARCH_CHARACTERS} of them letters or digits`;
/** At least three letters or digits anywhere (any script): "GR 1", "Ama", "024". */
const ENOUGH_CHARACTERS = new RegExp(`^(?:[^\\p{L}\\p{N}]*[\\p{L}\\p{N}]){${MIN_SEARCH_CHARACTERS}}`, 'u');

export class SearchQuery {
  @ApiProperty({
    description:
      'What was typed: a plate in any spelling (`GR1001-24`, `gr 1001 24`, `1001`: compared on letters and digits only), part of a VIN, ' +
      "a driver's name, phone (0244... or +233244...), email or licence number, an owner's name, phone or email. Case-insensitive; " +
      `${QUERY_RULE}.`,
    example: 'gr 1001 24',
    minLength: MIN_SEARCH_CHARACTERS,
    maxLength: MAX_SEARCH_LENGTH,
  })
  @IsString({ message: `query is required: ${QUERY_RULE}` })
  @MaxLength(MAX_SEARCH_LENGTH, { message: `query must be at most ${MAX_SEARCH_LENGTH} characters` })
  @Matches(ENOUGH_CHARACTERS, { message: `query must contain at least ${MIN_SEARCH_CHARACTERS} letters or digits` })
  query!: string;

  @ApiPropertyOptional({ enum: REGISTRY_KINDS, description: 'Only records of this kind (default: every kind).' })
  @IsOptional()
  @IsIn(REGISTRY_KINDS as unknown as string[], { message: `kind must be one of ${REGISTRY_KINDS.join(', ')}` })
  kind?: RegistryKind;

  @LimitParam() limit?: number;
  @CountParam() count?: string;
  @IdParam('Cursor: the `_id` of the last hit of the previous page (see the `Link` header).') after?: string;
}

/** Every standing a hit can show, by kind: vehicles, then drivers, then owners. */
export const SEARCH_HIT_STATES = [...new Set([...VEHICLE_STANDINGS, ...DRIVER_STANDINGS, ...OWNER_STANDINGS])];

/** One record a search found: enough to show it in a list and link to it (`GET /vehicles/:id`, `/drivers/:id`, ...). */
export class SearchHitResponse {
  @ApiProperty({ enum: REGISTRY_KINDS, description: 'Which registry the record is in.' }) kind!: RegistryKind;
  @ApiProperty({ ...ID, description: "The record's `_id`." }) _id!: string;
  @ApiProperty({
    description:
      "What names the record: a vehicle's registration number (its VIN when it has none, else its make and model, else its `_id`); a driver's or owner's name.",
    example: 'GR 1001-24',
  })
  label!: string;
  @ApiPropertyOptional({
    description: "A second line: a vehicle's make and model; a driver's or owner's phone (+233XXXXXXXXX).",
    example: 'Toyota Corolla',
  })
  detail?: string;
  @ApiProperty({
    enum: SEARCH_HIT_STATES,
    description:
      'Where the record stands. Vehicles: approved, awaiting_approval, inspection_failed (inspected with a failed item), awaiting_inspection. ' +
      'Drivers: approved, revoked (approval withdrawn), awaiting_approval. Owners: verified (identity document checked), unverified.',
    example: 'awaiting_approval',
  })
  state!: string;
  @ApiProperty({
    ...ID,
    type: String,
    nullable: true,
    description: 'The assembly the record belongs to (null: unassigned, seen by admins only).',
  })
  assembly!: string | null;
  @ApiProperty({ ...DATE, description: 'When the record was registered: hits are newest first.' }) createdAt!: string;
}

const joined = (...parts: Array<string | undefined>) => parts.filter(Boolean).join(' ') || undefined;

export function toSearchHitResponse(found: RegistryRecord): SearchHitResponse {
  const r = found.record;
  const common = { _id: r.id, assembly: r.assemblyId ?? null, createdAt: r.createdAt.toISOString() };
  switch (found.kind) {
    case 'vehicle': {
      const v = found.record;
      const model = joined(v.make, v.model);
      const out: SearchHitResponse = {
        kind: 'vehicle',
        ...common,
        label: v.registrationNumber ?? v.vin ?? model ?? v.id,
        state: vehicleStanding(v),
      };
      if (model && out.label !== model) out.detail = model;
      return out;
    }
    case 'driver':
      return {
        kind: 'driver',
        ...common,
        label: found.record.name,
        detail: found.record.phone,
        state: driverStanding(found.record),
      };
    case 'owner':
      return {
        kind: 'owner',
        ...common,
        label: found.record.name,
        detail: found.record.phone,
        state: ownerStanding(found.record),
      };
  }
}
