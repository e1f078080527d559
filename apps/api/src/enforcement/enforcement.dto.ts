import { ApiExtraModels, ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsDate,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateNested,
} from 'class-validator';
import {
  CERTIFICATE_DOCUMENTS,
  NOTICE_STATUSES,
  OBJECT_ID_PATTERN,
  type Notice,
  type OffenceCatalogueState,
} from '@transport/domain';
import { DATE, ID, idMessage, ToDate } from '../core/http/dto-support';
import { ApiNullableObject, ApiSchemaKeywords } from '../core/http/openapi';
import { IdParam, LimitParam, CountParam } from '../core/http/query-values';
import type { RoadsideCheckRecord } from '../core/ports';
import { PointBody } from '../trips/trips.dto';

const ISO = 'an ISO 8601 date or date-time';

// ---- The roadside check ----

/** POST /enforcement/checks: a plate or a token (exactly one), and what the driver said, if asked. */
@ApiSchemaKeywords({ minProperties: 1 })
export class RoadsideCheckBody {
  @ApiPropertyOptional({
    description: 'The plate, in any spelling ("gr1001 24", "GR-1OO1-24" are GR 1001-24). One of plate or token.',
    example: 'GR 1001-24',
  })
  @IsOptional()
  @IsString()
  @MinLength(3)
  @MaxLength(40)
  plate?: string;
  @ApiPropertyOptional({
    description: "The token of the certificate's QR code (the part after /check/). One of plate or token.",
  })
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  token?: string;
  @ApiPropertyOptional({ description: "The driver's licence number as shown to the officer.", example: 'DL-1-2020' })
  @IsOptional()
  @IsString()
  @MaxLength(40)
  license?: string;
  @ApiPropertyOptional({ description: "The driver's phone number as given to the officer.", example: '0201000001' })
  @IsOptional()
  @IsString()
  @MaxLength(20)
  phone?: string;
  @ApiPropertyOptional({ description: `${ISO}: when the check was made, as the phone says. Absent: when received.` })
  @IsOptional()
  @ToDate()
  @IsDate({ message: `madeAt must be ${ISO}` })
  madeAt?: Date;
  @ApiPropertyOptional({
    type: PointBody,
    description: 'Where, when the officer allowed their phone to say: a GeoJSON Point [longitude, latitude].',
    example: { type: 'Point', coordinates: [-0.2166, 5.556] },
  })
  @IsOptional()
  @IsObject()
  location?: Record<string, unknown>;
}

export class CheckedVehicleResponse {
  @ApiProperty({ ...ID }) _id!: string;
  @ApiProperty({ example: 'GR 1001-24' }) registrationNumber!: string;
  @ApiProperty({ type: String, nullable: true }) make!: string | null;
  @ApiProperty({ type: String, nullable: true }) model!: string | null;
  @ApiProperty({ type: String, nullable: true }) color!: string | null;
  @ApiProperty({ type: String, nullable: true }) type!: string | null;
  @ApiProperty({ ...ID, type: String, nullable: true, description: 'Its assembly.' }) assembly!: string | null;
}

export class StickerResponse {
  @ApiProperty({
    enum: ['valid', 'expired', 'withdrawn', 'not_genuine', 'unknown'],
    description:
      'valid: approved and every document current; expired: a document has lapsed; withdrawn: the approval the sticker names is gone (or, by plate, the vehicle has none); not_genuine: the token is not signed by this service; unknown: no vehicle has this plate.',
  })
  state!: string;
  @ApiPropertyOptional({ description: 'Why withdrawn or not genuine.' }) reason?: string;
}

export class CheckedDocumentResponse {
  @ApiProperty({ enum: CERTIFICATE_DOCUMENTS }) document!: string;
  @ApiProperty({ ...DATE }) expiresOn!: string;
  @ApiProperty() expired!: boolean;
}

export class CheckedDriverResponse {
  @ApiProperty({
    description:
      "Whether the licence number or phone typed is that of the vehicle's linked, approved driver (a revoked driver is never approved).",
  })
  approvedDriver!: boolean;
  @ApiPropertyOptional({ description: 'Only when approvedDriver: the name, to compare with the licence.' })
  name?: string;
  @ApiPropertyOptional({ ...DATE, description: 'Only when approvedDriver.' }) licenseExpiry?: string;
}

export class NoticeSummaryResponse {
  @ApiProperty({ ...ID }) _id!: string;
  @ApiProperty({ enum: NOTICE_STATUSES }) status!: string;
  @ApiProperty({ type: [String], example: ['TF-01'] }) offences!: string[];
  @ApiProperty({ description: 'Owed now, in pesewas (the surcharge included once overdue).', example: 20000 })
  amountDue!: number;
  @ApiProperty({ ...DATE }) dueAt!: string;
}

export function toNoticeSummary(notice: Notice, now: Date): NoticeSummaryResponse {
  const s = notice.toState();
  return {
    _id: s.id,
    status: s.status,
    offences: s.offences.map((o) => o.code),
    amountDue: notice.amountDue(now),
    dueAt: s.dueAt.toISOString(),
  };
}

@ApiExtraModels(CheckedVehicleResponse, CheckedDriverResponse)
export class RoadsideCheckResponse {
  @ApiProperty({ ...DATE }) checkedAt!: string;
  @ApiNullableObject(CheckedVehicleResponse, { description: 'Null: no vehicle matched (or the token is not genuine).' })
  vehicle!: CheckedVehicleResponse | null;
  @ApiProperty({ type: StickerResponse }) sticker!: StickerResponse;
  @ApiProperty({ type: [CheckedDocumentResponse] }) documents!: CheckedDocumentResponse[];
  @ApiNullableObject(CheckedDriverResponse, { description: 'Null: neither a licence number nor a phone was sent.' })
  driver!: CheckedDriverResponse | null;
  @ApiProperty({ type: [NoticeSummaryResponse], description: 'Issued, overdue, contested or decided.' })
  openNotices!: NoticeSummaryResponse[];
}

export class CheckLogQuery {
  @LimitParam() limit?: number;
  @CountParam() count?: string;
  @IdParam('Cursor: the `_id` of the last check of the previous page.') after?: string;
}

export class CheckLogEntryResponse {
  @ApiProperty({ ...ID }) _id!: string;
  @ApiProperty({ ...ID, description: 'The enforcer who checked.' }) officer!: string;
  @ApiProperty({ ...ID, description: "The officer's assembly." }) assembly!: string;
  @ApiProperty({ ...ID, type: String, nullable: true, description: 'Null: nothing matched.' }) vehicle!: string | null;
  @ApiProperty({ enum: ['plate', 'token'] }) by!: string;
  @ApiProperty({ type: String, nullable: true, description: 'The plate as typed.' }) query!: string | null;
  @ApiProperty({ ...DATE, description: "When, by the officer's phone." }) madeAt!: string;
  @ApiProperty({ type: PointBody, nullable: true }) location!: PointBody | null;
  @ApiProperty({ ...DATE, description: 'When the service received it.' }) createdAt!: string;
}

export function toCheckLogEntry(c: RoadsideCheckRecord): CheckLogEntryResponse {
  return {
    _id: c.id,
    officer: c.officerId,
    assembly: c.assemblyId,
    vehicle: c.vehicleId ?? null,
    by: c.by,
    query: c.query ?? null,
    madeAt: c.madeAt.toISOString(),
    location: c.location ? { type: 'Point', coordinates: [...c.location.coordinates] } : null,
    createdAt: c.createdAt.toISOString(),
  };
}

// ---- The offence catalogue ----

export class OffenceTermsBody {
  @ApiProperty({ example: 'TF-01', description: '1 to 12 letters, digits or hyphens; stored upper case.' })
  @IsString()
  @MaxLength(12)
  code!: string;
  @ApiProperty({ example: 'Operating without a valid sticker' }) @IsString() @MaxLength(200) description!: string;
  @ApiProperty({ example: 'AMA Bye-laws 2019, s. 12(1)' }) @IsString() @MaxLength(120) bylaw!: string;
  @ApiProperty({ example: 20000, description: 'The fine in pesewas (an integer above zero).' })
  @IsInt()
  @Min(1)
  @Max(100_000_000)
  fine!: number;
  @ApiProperty({ example: 14, description: 'Days to pay, 1 to 365.' }) @IsInt() @Min(1) @Max(365) daysToPay!: number;
  @ApiProperty({ example: 5000, description: 'Added once overdue, in pesewas (0: none).' })
  @IsInt()
  @Min(0)
  @Max(100_000_000)
  surcharge!: number;
  @ApiPropertyOptional({ example: 10, description: 'Days to contest, 1 to 365. Absent: cannot be contested.' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(365)
  daysToContest?: number;
}

/** POST /enforcement/catalogue: publishes the next version of an assembly's catalogue, whole. */
export class PublishCatalogueBody {
  @ApiPropertyOptional({
    ...ID,
    description:
      "The assembly: the national admin names it; an assembly admin's is their own (another: 422 OTHER_ASSEMBLY).",
  })
  @IsOptional()
  @Matches(OBJECT_ID_PATTERN, idMessage)
  assembly?: string;
  @ApiProperty({ type: [OffenceTermsBody] })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(200)
  @ValidateNested({ each: true })
  @Type(() => OffenceTermsBody)
  offences!: OffenceTermsBody[];
}

export class CatalogueQuery {
  @IdParam("The assembly. Absent: the caller's own (for assembly staff).") assembly?: string;
}

export class CatalogueResponse {
  @ApiProperty({ ...ID }) assembly!: string;
  @ApiProperty({ example: 1, description: 'Each publication is the next version; a notice keeps its own.' })
  version!: number;
  @ApiProperty({ type: [OffenceTermsBody] }) offences!: OffenceTermsBody[];
  @ApiProperty({ ...DATE }) publishedAt!: string;
}

export function toCatalogueResponse(c: OffenceCatalogueState): CatalogueResponse {
  return {
    assembly: c.assemblyId,
    version: c.version,
    offences: c.offences.map((o) => ({ ...o })),
    publishedAt: c.publishedAt.toISOString(),
  };
}

// ---- Offences and notices ----

/** POST /enforcement/offences: an offence as the officer's phone records it. */
export class RecordOffenceBody {
  @ApiProperty({ ...ID, description: 'The vehicle (of any assembly): found with POST /enforcement/checks.' })
  @Matches(OBJECT_ID_PATTERN, idMessage)
  vehicle!: string;
  @ApiProperty({ type: [String], example: ['TF-01'], description: '1 to 10 codes of the catalogue (any letter case).' })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(10)
  @IsString({ each: true })
  @MaxLength(12, { each: true })
  codes!: string[];
  @ApiPropertyOptional({ ...ID, description: 'The driver, when identified (an approved driver the check matched).' })
  @IsOptional()
  @Matches(OBJECT_ID_PATTERN, idMessage)
  driver?: string;
  @ApiPropertyOptional({
    ...ID,
    description:
      'Nationwide (police) officers: the assembly where the offence was made, whose catalogue applies (required). Task-force officers: absent or their own (another: 422 OTHER_ASSEMBLY).',
  })
  @IsOptional()
  @Matches(OBJECT_ID_PATTERN, idMessage)
  assembly?: string;
  @ApiPropertyOptional({ description: `${ISO}: when the offence was made, as the phone says. Absent: when received.` })
  @IsOptional()
  @ToDate()
  @IsDate({ message: `madeAt must be ${ISO}` })
  madeAt?: Date;
  @ApiPropertyOptional({
    type: PointBody,
    description: 'Where, when the phone may say: a GeoJSON Point [longitude, latitude] (else 400 INVALID_LOCATION).',
  })
  @IsOptional()
  @IsObject()
  madeWhere?: Record<string, unknown>;
  @ApiPropertyOptional({ example: 'Loading at the roadside, Kaneshie first light', maxLength: 500 })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  notes?: string;
}

export class NoticeContestResponse {
  @ApiProperty({ description: "The owner's words." }) text!: string;
  @ApiProperty({ ...DATE }) at!: string;
  @ApiProperty({ description: 'A photo came with it (GET /enforcement/notices/{id}/contest-photo).' }) photo!: boolean;
}

export class NoticeDecisionResponse {
  @ApiProperty({ enum: ['upheld', 'reduced', 'cancelled'] }) outcome!: string;
  @ApiProperty({ ...ID, description: 'The supervisor.' }) by!: string;
  @ApiProperty() reason!: string;
  @ApiProperty({ ...DATE }) at!: string;
  @ApiProperty({ type: Number, nullable: true, description: 'The reduced fine (pesewas), for reduced.' })
  amount!: number | null;
}

export class NoticeCancellationResponse {
  @ApiProperty({ ...ID, description: 'The supervisor.' }) by!: string;
  @ApiProperty() reason!: string;
  @ApiProperty({ ...DATE }) at!: string;
}

@ApiExtraModels(NoticeContestResponse, NoticeDecisionResponse, NoticeCancellationResponse)
export class NoticeResponse {
  @ApiProperty({ ...ID }) _id!: string;
  @ApiProperty({
    ...ID,
    description: 'The assembly whose catalogue it was issued under (the merchant of its payment).',
  })
  assembly!: string;
  @ApiProperty({ ...ID }) vehicle!: string;
  @ApiProperty({ ...ID, type: String, nullable: true }) driver!: string | null;
  @ApiProperty({ ...ID, description: 'The officer who recorded it.' }) officer!: string;
  @ApiProperty({ description: 'The catalogue version whose terms it keeps.' }) catalogueVersion!: number;
  @ApiProperty({ type: [OffenceTermsBody] }) offences!: OffenceTermsBody[];
  @ApiProperty({ type: String, nullable: true }) notes!: string | null;
  @ApiProperty({ ...DATE }) madeAt!: string;
  @ApiProperty({ type: PointBody, nullable: true }) madeWhere!: PointBody | null;
  @ApiProperty({ enum: NOTICE_STATUSES }) status!: string;
  @ApiProperty({ description: 'The fine in pesewas (the sum of its offences, or the reduced amount).' }) fine!: number;
  @ApiProperty({ description: 'Added once overdue, in pesewas.' }) surcharge!: number;
  @ApiProperty({ description: 'Owed now, in pesewas.' }) amountDue!: number;
  @ApiProperty({ ...DATE }) dueAt!: string;
  @ApiProperty({ ...DATE, type: String, nullable: true, description: 'Null: cannot be contested.' }) contestBy!:
    string | null;
  @ApiNullableObject(NoticeContestResponse, { description: "The owner's contest; null: not contested." })
  contest!: NoticeContestResponse | null;
  @ApiNullableObject(NoticeDecisionResponse, { description: "A supervisor's decision of the contest; null: none yet." })
  decision!: NoticeDecisionResponse | null;
  @ApiNullableObject(NoticeCancellationResponse, {
    description: "A supervisor's cancellation; null: not cancelled so.",
  })
  cancellation!: NoticeCancellationResponse | null;
  @ApiProperty({ description: 'Paid so far, in pesewas.' }) paid!: number;
  @ApiProperty({ description: 'Received beyond what was owed (or of a cancelled notice), to refund, in pesewas.' })
  refundDue!: number;
  @ApiProperty({ description: 'The revision (If-Match).' }) __v!: number;
  @ApiProperty({ ...DATE }) createdAt!: string;
  @ApiProperty({ ...DATE }) updatedAt!: string;
}

export function toNoticeResponse(notice: Notice, now: Date): NoticeResponse {
  const s = notice.toState();
  return {
    _id: s.id,
    assembly: s.assemblyId,
    vehicle: s.vehicleId,
    driver: s.driverId ?? null,
    officer: s.officerId,
    catalogueVersion: s.catalogueVersion,
    offences: s.offences.map((o) => ({ ...o })),
    notes: s.notes ?? null,
    madeAt: s.madeAt.toISOString(),
    madeWhere: s.madeWhere ? { type: 'Point', coordinates: [...s.madeWhere.coordinates] } : null,
    status: s.status,
    fine: s.fine,
    surcharge: s.surcharge,
    amountDue: notice.amountDue(now),
    dueAt: s.dueAt.toISOString(),
    contestBy: s.contestBy?.toISOString() ?? null,
    contest: s.contest ? { text: s.contest.text, at: s.contest.at.toISOString(), photo: !!s.contest.photo } : null,
    decision: s.decision
      ? {
          outcome: s.decision.outcome,
          by: s.decision.by,
          reason: s.decision.reason,
          at: s.decision.at.toISOString(),
          amount: s.decision.amount ?? null,
        }
      : null,
    cancellation: s.cancellation
      ? { by: s.cancellation.by, reason: s.cancellation.reason, at: s.cancellation.at.toISOString() }
      : null,
    paid: s.paid,
    refundDue: s.refundDue,
    __v: s.version,
    createdAt: s.createdAt.toISOString(),
    updatedAt: s.updatedAt.toISOString(),
  };
}
