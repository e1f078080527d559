import { Idempotent } from '../core/http/idempotency';
import {
  Body,
  Controller,
  Get,
  Headers,
  HttpCode,
  Inject,
  Param,
  Post,
  Query,
  Req,
  Res,
  StreamableFile,
} from '@nestjs/common';
import { listOrCsv } from '../core/http/csv-export';
import {
  ApiBody,
  ApiCreatedResponse,
  ApiHeader,
  ApiOkResponse,
  ApiOperation,
  ApiSecurity,
  ApiTags,
} from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppConfig } from '../config';
import { unauthorized } from '../core/auth/api-key.guard';
import { CurrentPrincipal, OptionalAuth, Roles } from '../core/auth/auth.decorators';
import { actorOf, actorOrAnonymous, type Principal } from '../core/auth/principal';
import { seesSummaryOnly, viewerOf } from '../core/auth/views';
import { assertFilterShown } from '../core/auth/filter-access';
import { expiryWindow } from '../core/http/date-range';
import { IF_MATCH } from '../core/http/dto-support';
import { TransferBody, TransferRoute } from '../core/http/jurisdiction.dto';
import { ApiListOrCsv, ApiProblems } from '../core/http/openapi';
import { View } from '../core/http/view.interceptor';
import { CorrectRoute } from '../core/http/correction';
import { expectedVersion, ObjectIdPipe, requiredVersion } from '../core/http/params';
import { toBoolean } from '../core/http/query-values';
import { APP_CONFIG, CLOCK } from '../core/tokens';
import type { Clock } from '@transport/domain';
import { ComplianceQuery, ListVehiclesQuery } from './vehicle-lists.dto';
import {
  AddVehicleBody,
  CorrectVehicleBody,
  DecideAppealBody,
  InspectBody,
  LinkBody,
  LodgeAppealBody,
  ReinspectBody,
  RenewVehicleBody,
} from './vehicles.dto';
import {
  COMPLIANCE_CSV,
  ComplianceEntryResponse,
  InspectionRecordResponse,
  VEHICLE_CSV,
  VehicleResponse,
  type VehicleSummaryResponse,
} from './vehicle-responses.dto';
import { InspectionAppealsService } from './inspection-appeals.service';
import { VehiclesService } from './vehicles.service';

/** /vehicles: fixed paths (all, add, compliance) are declared before `:id`, which Express would otherwise match first. */
@ApiTags('vehicles')
@Controller('vehicles')
export class VehiclesController {
  constructor(
    private readonly vehicles: VehiclesService,
    private readonly appeals: InspectionAppealsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Get('all')
  @OptionalAuth()
  @View('vehicle')
  @ApiSecurity('apiKey')
  @ApiSecurity({})
  @ApiOperation({
    summary: 'List vehicles (operation 1)',
    description:
      'The body is a bare JSON array of vehicles (the original service\'s shape, kept for its clients); the driver list answers `{ status, payload }` instead (docs/api.md, "Two list shapes"). ' +
      'Open to anonymous callers, as documented. What each caller sees is its view (docs/api.md, "Who sees what"): anonymous callers and merchants get what a passenger checks ' +
      '(`_id`, `registrationNumber`, `make`, `model`, `color`, `type`, `capacity`, `inspected`, `approved`, `station`, `transportUnion`); platform keys also the documents, dates and the linked driver, never the owner or staff ids; admin and assembly keys every field. ' +
      'The `ownerID` and `driver` filters need an API key (401 without); `station` and `transportUnion` (what a vehicle is linked to, in every view) do not; ' +
      '`expiring` (documents ending within so many days) needs a key whose view shows the documents (401 without a key, 403 for a merchant). Filters combine. ' +
      'Newest first (createdAt, then _id) unless `sort` says otherwise (oldest first, or by plate either way): the whole list is in that order, page after page. Without filters, every vehicle, inspected or not, up to `limit`. ' +
      'When more exist, a `Link: <...>; rel="next"` header gives the next page (an `after` cursor of that order); the body stays a plain array.',
  })
  @ApiListOrCsv(VehicleResponse, VEHICLE_CSV)
  @ApiProblems(400, 401, 403)
  async list(
    @Query() query: ListVehiclesQuery,
    @CurrentPrincipal() principal: Principal | undefined,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) res: FastifyReply,
  ): Promise<Array<VehicleResponse | VehicleSummaryResponse> | StreamableFile> {
    // Without a key, a vehicle's owner and driver are nobody's business: they cannot be looked up either.
    if (!principal && (query.ownerID !== undefined || query.driver !== undefined)) {
      throw unauthorized('Filtering vehicles by owner or driver needs an API key');
    }
    if (query.expiring !== undefined)
      assertFilterShown(principal, 'vehicle', ['roadWorthyExpiryDate', 'insuranceExpiryDate'], 'document expiry');
    if (query.reinspectionEnding !== undefined)
      assertFilterShown(principal, 'vehicle', ['reinspectionDueBy'], 'the re-inspection window');
    const filter = {
      inspected: toBoolean(query.inspected),
      approved: toBoolean(query.approved),
      inspection: query.inspection,
      registrationNumber: query.registrationNumber,
      driverId: query.driver,
      ownerId: query.ownerID,
      stationId: query.station,
      transportUnionId: query.transportUnion,
      certificatesEndingBy: query.expiring === undefined ? undefined : this.expiryWindow(query.expiring).last,
      reinspectionEnding:
        query.reinspectionEnding === undefined
          ? undefined
          : { from: this.clock.now(), by: this.expiryWindow(query.reinspectionEnding).last },
    };
    const actor = actorOrAnonymous(principal);
    // The public's view is the vehicles' summaries: read as such, without restoring whole vehicles.
    const summaries = seesSummaryOnly('vehicle', viewerOf(principal));
    return listOrCsv(req, res, VEHICLE_CSV, query, (page) =>
      summaries ? this.vehicles.listSummaries(filter, page, actor) : this.vehicles.list(filter, page, actor),
    );
  }

  @Post('add')
  @HttpCode(201)
  @Roles('admin', 'assembly')
  @ApiSecurity('apiKey')
  @ApiOperation({
    summary: 'Register a vehicle (operation 2)',
    description:
      'Registers a vehicle of an existing owner. It starts uninspected and unapproved; fields the server owns ' +
      '(_id, inspected, approved, approvedBy, inspectedBy, dateApproved, dateInspected, inspectionChecklist, station, transportUnion, driver, __v) are refused with 400. ' +
      'An ownerID that names no owner is a 422 (OWNER_NOT_FOUND); a registration number already in use is a 409 (VEHICLE_REGISTRATION_TAKEN).',
  })
  @ApiBody({ type: AddVehicleBody })
  @View('vehicle')
  @ApiCreatedResponse({ description: 'The created Vehicle.', type: VehicleResponse })
  @ApiProblems(400, 401, 403, 409, 413, 415, 422)
  add(@Body() body: AddVehicleBody, @CurrentPrincipal() principal: Principal): Promise<VehicleResponse> {
    const { ownerID, assembly, ...fields } = body;
    return this.vehicles.register({ ownerId: ownerID, assemblyId: assembly, ...fields }, actorOf(principal));
  }

  @Get('compliance')
  @Roles('admin', 'assembly')
  @ApiTags('vehicles (management)')
  @ApiSecurity('apiKey')
  @ApiOperation({
    summary: 'Vehicles whose roadworthy or insurance certificate has expired or expires soon',
    description:
      'Lists vehicles with a certificate ending by the end of the day `within` days from today (in TZ_DEFAULT), newest first, each with its reasons: ' +
      'ROADWORTHY_EXPIRED / INSURANCE_EXPIRED (already ended) or ROADWORTHY_EXPIRING / INSURANCE_EXPIRING (ends within the window), plus NOT_APPROVED and CHECKLIST_FAILED when they apply.',
  })
  @View('vehicle', 'each.vehicle')
  @ApiListOrCsv(ComplianceEntryResponse, COMPLIANCE_CSV)
  @ApiProblems(400, 401, 403)
  async compliance(
    @Query() query: ComplianceQuery,
    @CurrentPrincipal() principal: Principal,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) res: FastifyReply,
  ): Promise<ComplianceEntryResponse[] | StreamableFile> {
    const window = this.expiryWindow(query.within ?? 30);
    return listOrCsv(req, res, COMPLIANCE_CSV, query, (page) =>
      this.vehicles.compliance(window, page, actorOf(principal)),
    );
  }

  /** Documents ending within so many days from today in TZ_DEFAULT, expired ones included (compliance, `expiring`). */
  private expiryWindow(days: number) {
    return expiryWindow(this.clock.now(), days, this.config.timeZone);
  }

  @Get(':id')
  @Roles('admin', 'assembly', 'platform')
  @ApiTags('vehicles (management)')
  @ApiSecurity('apiKey')
  @ApiOperation({ summary: 'One vehicle' })
  @View('vehicle')
  @ApiOkResponse({ type: VehicleResponse })
  @ApiProblems(400, 401, 403, 404)
  one(@Param('id', ObjectIdPipe) id: string, @CurrentPrincipal() principal: Principal): Promise<VehicleResponse> {
    return this.vehicles.get(id, actorOf(principal));
  }

  @Post(':id/inspect')
  @HttpCode(200)
  @Roles('assembly')
  @ApiTags('vehicles (management)')
  @ApiSecurity('apiKey')
  @ApiHeader(IF_MATCH)
  @Idempotent()
  @ApiOperation({
    summary: 'Record an inspection (inspectedBy is the caller; assembly inspectors only, else 403 DUTY_NOT_ALLOWED)',
    description:
      'All ten items as booleans (missing or extra items: 400), and optionally a defect note per failed item (`defects`), a grade per failed item (`grades`: dangerous, major or minor; none given: every failed item is major), advice on passed items (`advisories`) and when it was made (`madeAt`: a phone that kept it without a signal sends it later). ' +
      'The grades decide the outcome (`inspectionOutcome`; docs/api.md, "Inspections: grades, re-inspection and appeal"): a dangerous defect prohibits use, a major one fails with a free re-inspection until `reinspectionDueBy` (the assembly\'s days to fix, 14 by default), minor ones alone pass with advice. ' +
      "An approved vehicle whose inspection fails or is prohibited loses its approval (and its driver), and its owner is told by SMS. Each inspection is kept in the vehicle's history (GET /vehicles/{id}/inspections) with the request's Idempotency-Key.",
  })
  @ApiBody({ type: InspectBody })
  @View('vehicle')
  @ApiOkResponse({ type: VehicleResponse })
  @ApiProblems(400, 401, 403, 404, 409, 413, 415, 422)
  inspect(
    @Param('id', ObjectIdPipe) id: string,
    @Body() body: InspectBody,
    @Headers('if-match') ifMatch: string | undefined,
    @Headers('idempotency-key') idempotencyKey: string | undefined,
    @CurrentPrincipal() principal: Principal,
  ): Promise<VehicleResponse> {
    return this.vehicles.inspect(
      id,
      body.inspectionChecklist,
      actorOf(principal),
      expectedVersion(ifMatch),
      body.defects,
      body.madeAt,
      body.madeWhere,
      { grades: body.grades, advisories: body.advisories, idempotencyKey },
    );
  }

  @Post(':id/reinspect')
  @HttpCode(200)
  @Roles('assembly')
  @ApiTags('vehicles (management)')
  @ApiSecurity('apiKey')
  @ApiHeader(IF_MATCH)
  @Idempotent()
  @ApiOperation({
    summary: 'Record a free re-inspection of the failed items (assembly inspectors only, else 403 DUTY_NOT_ALLOWED)',
    description:
      'Open while the vehicle has `reinspectionDueBy` (its last inspection failed with major defects, or an appeal sent it back) and it was made by then; it makes no new fee. ' +
      '`inspectionChecklist` gives exactly the items that failed (true: fixed), with grades, notes and advice as for an inspection; the items that passed stand. ' +
      'Linked to the inspection it follows in the history; it opens no new window (failing again, a full inspection is due). ' +
      'Refusals: 422 REINSPECTION_NOT_OPEN (none open: make a full inspection), REINSPECTION_WINDOW_CLOSED (a full inspection is due), REINSPECTOR_TOOK_PART (an appeal asked for another inspector than the one appealed against); 400 INVALID_CHECKLIST for items that did not fail or are left out.',
  })
  @ApiBody({ type: ReinspectBody })
  @View('vehicle')
  @ApiOkResponse({ type: VehicleResponse })
  @ApiProblems(400, 401, 403, 404, 409, 413, 415, 422)
  reinspect(
    @Param('id', ObjectIdPipe) id: string,
    @Body() body: ReinspectBody,
    @Headers('if-match') ifMatch: string | undefined,
    @Headers('idempotency-key') idempotencyKey: string | undefined,
    @CurrentPrincipal() principal: Principal,
  ): Promise<VehicleResponse> {
    return this.vehicles.reinspect(
      id,
      body.inspectionChecklist,
      actorOf(principal),
      expectedVersion(ifMatch),
      body.defects,
      body.madeAt,
      body.madeWhere,
      { grades: body.grades, advisories: body.advisories, idempotencyKey },
    );
  }

  @Get(':id/inspections')
  @Roles('admin', 'assembly')
  @ApiTags('vehicles (management)')
  @ApiSecurity('apiKey')
  @ApiOperation({
    summary: "A vehicle's inspections, the last made first (admins; assembly staff for their assembly's vehicles)",
    description:
      'Each inspection and re-inspection with its checklist, grades, notes, advice, outcome, re-inspection window, the Idempotency-Key that recorded it, and its appeal. ' +
      "Another assembly's vehicle is a 404, as a missing one. Inspections recorded before the history was kept show the vehicle's last one only.",
  })
  @ApiOkResponse({ type: InspectionRecordResponse, isArray: true })
  @ApiProblems(400, 401, 403, 404)
  inspections(
    @Param('id', ObjectIdPipe) id: string,
    @CurrentPrincipal() principal: Principal,
  ): Promise<InspectionRecordResponse[]> {
    return this.appeals.inspections(id, actorOf(principal));
  }

  @Post(':id/inspections/:inspectionId/appeal')
  @HttpCode(201)
  @Roles('assembly')
  @ApiTags('vehicles (management)')
  @ApiSecurity('apiKey')
  @Idempotent()
  @ApiOperation({
    summary: "Lodge the owner's appeal of an inspection (assembly staff of the vehicle's assembly)",
    description:
      "Only a failed or prohibited inspection (else 422 APPEAL_NOT_ALLOWED), once (409 APPEAL_ALREADY_LODGED), within the assembly's appeal days of when it was made (15 by default; else 422 APPEAL_WINDOW_CLOSED). " +
      "Audited on the vehicle (InspectionAppealLodged), shown in its history. Another assembly's vehicle, or an inspection of another vehicle, is a 404.",
  })
  @ApiBody({ type: LodgeAppealBody })
  @ApiCreatedResponse({ type: InspectionRecordResponse })
  @ApiProblems(400, 401, 403, 404, 409, 413, 415, 422)
  lodgeAppeal(
    @Param('id', ObjectIdPipe) id: string,
    @Param('inspectionId', ObjectIdPipe) inspectionId: string,
    @Body() body: LodgeAppealBody,
    @CurrentPrincipal() principal: Principal,
  ): Promise<InspectionRecordResponse> {
    return this.appeals.lodgeAppeal(id, inspectionId, body.grounds, actorOf(principal));
  }

  @Post(':id/inspections/:inspectionId/appeal/decision')
  @HttpCode(200)
  @Roles('assembly')
  @ApiTags('vehicles (management)')
  @ApiSecurity('apiKey')
  @ApiHeader(IF_MATCH)
  @Idempotent()
  @ApiOperation({
    summary:
      'Decide an appeal (an assembly approver who took no part, else 403 DUTY_NOT_ALLOWED / 422 APPEAL_DECIDER_TOOK_PART)',
    description:
      "`upheld`: the inspection stands. `reinspection`: the vehicle's failed items are re-inspected free (POST /vehicles/{id}/reinspect) by an inspector other than the one appealed against, within the assembly's days to fix from now. " +
      'Neither the inspector nor who lodged the appeal may decide it (422 APPEAL_DECIDER_TOOK_PART). No appeal: 422 APPEAL_NOT_LODGED; decided already: 409 APPEAL_ALREADY_DECIDED; ' +
      "a re-inspection of an inspection a later one replaced: 409 INSPECTION_SUPERSEDED. If-Match names the vehicle's revision. Audited on the vehicle (InspectionAppealDecided, and VehicleReinspectionOrdered).",
  })
  @ApiBody({ type: DecideAppealBody })
  @ApiOkResponse({ type: InspectionRecordResponse })
  @ApiProblems(400, 401, 403, 404, 409, 413, 415, 422)
  decideAppeal(
    @Param('id', ObjectIdPipe) id: string,
    @Param('inspectionId', ObjectIdPipe) inspectionId: string,
    @Body() body: DecideAppealBody,
    @Headers('if-match') ifMatch: string | undefined,
    @CurrentPrincipal() principal: Principal,
  ): Promise<InspectionRecordResponse> {
    return this.appeals.decideAppeal(id, inspectionId, body.decision, actorOf(principal), expectedVersion(ifMatch));
  }

  @CorrectRoute(
    'registration fields',
    'vehicle',
    CorrectVehicleBody,
    VehicleResponse,
    'vehicles (management)',
    'Any of color, registrationNumber, make, model, makeYear, yearOfRegistration, capacity, grossWeight, netWeight, type, fuelCapacity, vin. ' +
      'Per field, once the vehicle is approved: `vin` is refused (422 CORRECTION_NOT_ALLOWED: it identifies the vehicle itself), a new `registrationNumber` withdraws the approval ' +
      'and unlinks the driver until an approver approves again, every other field is a plain correction.',
  )
  correct(
    @Param('id', ObjectIdPipe) id: string,
    @Body() body: CorrectVehicleBody,
    @Headers('if-match') ifMatch: string | undefined,
    @CurrentPrincipal() principal: Principal,
  ): Promise<VehicleResponse> {
    return this.vehicles.correct(id, body, actorOf(principal), requiredVersion(ifMatch));
  }

  @Post(':id/renew')
  @HttpCode(200)
  @Roles('admin', 'assembly')
  @ApiTags('vehicles (management)')
  @ApiSecurity('apiKey')
  @ApiHeader(IF_MATCH)
  @ApiOperation({
    summary: 'Record a renewed roadworthy certificate, insurance, or both (assembly inspectors and approvers, admins)',
    description:
      'Each new expiry must be in the future (else 422 RENEWAL_EXPIRED) and later than the one it replaces (else 422 RENEWAL_NOT_LATER); ' +
      'a vehicle registered without the documents gets them recorded this way, after which it can be approved. ' +
      'Neither field: 400. Both fields are recorded together or not at all; the audit log keeps each renewal with the expiry it replaced.',
  })
  @ApiBody({ type: RenewVehicleBody })
  @View('vehicle')
  @ApiOkResponse({ type: VehicleResponse })
  @ApiProblems(400, 401, 403, 404, 409, 413, 415, 422)
  renew(
    @Param('id', ObjectIdPipe) id: string,
    @Body() body: RenewVehicleBody,
    @Headers('if-match') ifMatch: string | undefined,
    @CurrentPrincipal() principal: Principal,
  ): Promise<VehicleResponse> {
    return this.vehicles.renew(id, body, actorOf(principal), expectedVersion(ifMatch));
  }

  @Post(':id/approve')
  @HttpCode(200)
  @Roles('assembly')
  @ApiTags('vehicles (management)')
  @ApiSecurity('apiKey')
  @ApiHeader(IF_MATCH)
  @ApiOperation({
    summary:
      'Approve a vehicle (approvedBy is the caller; assembly approvers only, else 403 DUTY_NOT_ALLOWED; never its inspector, 422 VEHICLE_APPROVER_IS_INSPECTOR)',
    description:
      'Only an inspected vehicle with every item passed, a registration number, and roadworthy and insurance certificates valid now. Refusals are 422 with the domain code ' +
      '(VEHICLE_NOT_INSPECTED, VEHICLE_INSPECTION_FAILED, VEHICLE_INSPECTION_INCOMPLETE (an imported checklist of an older version with items not recorded: re-inspect), VEHICLE_ROADWORTHY_EXPIRED, ...); approving an approved vehicle, or losing a race with another approval, is 409.',
  })
  @View('vehicle')
  @ApiOkResponse({ type: VehicleResponse })
  @ApiProblems(400, 401, 403, 404, 409, 422)
  approve(
    @Param('id', ObjectIdPipe) id: string,
    @Headers('if-match') ifMatch: string | undefined,
    @CurrentPrincipal() principal: Principal,
  ): Promise<VehicleResponse> {
    return this.vehicles.approve(id, actorOf(principal), expectedVersion(ifMatch));
  }

  @Post(':id/link')
  @HttpCode(200)
  @Roles('admin', 'assembly')
  @ApiTags('vehicles (management)')
  @ApiSecurity('apiKey')
  @ApiHeader(IF_MATCH)
  @ApiOperation({
    summary: 'Link a driver, a station and/or a transport union',
    description:
      'driver: only to an approved vehicle, and only an approved, activated driver (null unlinks). station: an id, or null to unlink. Unknown ids are 422.',
  })
  @ApiBody({ type: LinkBody })
  @View('vehicle')
  @ApiOkResponse({ type: VehicleResponse })
  @ApiProblems(400, 401, 403, 404, 409, 413, 415, 422)
  link(
    @Param('id', ObjectIdPipe) id: string,
    @Body() body: LinkBody,
    @Headers('if-match') ifMatch: string | undefined,
    @CurrentPrincipal() principal: Principal,
  ): Promise<VehicleResponse> {
    return this.vehicles.link(id, body, actorOf(principal), expectedVersion(ifMatch));
  }

  @TransferRoute('a vehicle', 'vehicle', VehicleResponse, 'vehicles (management)')
  transfer(
    @Param('id', ObjectIdPipe) id: string,
    @Body() body: TransferBody,
    @Headers('if-match') ifMatch: string | undefined,
    @CurrentPrincipal() principal: Principal,
  ): Promise<VehicleResponse> {
    return this.vehicles.transfer(id, body.assembly, actorOf(principal), expectedVersion(ifMatch));
  }
}
