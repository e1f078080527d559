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
import type { Clock, DriverSortField, PageRequest } from '@transport/domain';
import type { AppConfig } from '../config';
import { assertFilterShown } from '../core/auth/filter-access';
import { exportCsv, wantsCsv } from '../core/http/csv-export';
import { expiryWindow } from '../core/http/date-range';
import { APP_CONFIG, CLOCK } from '../core/tokens';
import { NoStore } from '../core/http/no-store';
import type { Bulkhead } from '../core/platform/bulkhead';
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
import { unauthorized } from '../core/auth/api-key.guard';
import { AppError } from '../core/errors';
import { View } from '../core/http/view.interceptor';
import { CorrectRoute } from '../core/http/correction';
import { CurrentPrincipal, OptionalAuth, Roles } from '../core/auth/auth.decorators';
import { actorOf, actorOrAnonymous, type Principal } from '../core/auth/principal';
import { seesSummaryOnly, viewerOf } from '../core/auth/views';
import { IF_MATCH } from '../core/http/dto-support';
import { clientAddressKey } from '../core/http/client-address';
import { TransferBody, TransferRoute } from '../core/http/jurisdiction.dto';
import { ApiListOrCsv, ApiProblems } from '../core/http/openapi';
import { pageItems } from '../core/http/paging';
import { expectedVersion, ObjectIdPipe, requiredVersion } from '../core/http/params';
import { toBoolean, pageRequest } from '../core/http/query-values';
import {
  ActivateBody,
  AddDriverBody,
  ApproveDriverBody,
  DriverCreatedResponse,
  DRIVER_CSV,
  DriverListResponse,
  DriverResponse,
  type DriverSummaryResponse,
  DriverStatusBody,
  ListDriversQuery,
  CorrectDriverBody,
  RenewLicenseBody,
  RevokeBody,
} from './drivers.dto';
import { DriversService } from './drivers.service';

/** The bulkhead anonymous registrations run in (drivers.module.ts). */
export const REGISTRATION_BULKHEAD = Symbol('REGISTRATION_BULKHEAD');

/** /drivers: fixed paths (all, add) are declared before `:id`, which Express would otherwise match first. */
@ApiTags('drivers')
@Controller('drivers')
export class DriversController {
  // Per driver and per client address: 10 attempts a quarter hour each, in front of the domain's five-wrong-keys lock.
  constructor(
    private readonly drivers: DriversService,
    @Inject(REGISTRATION_BULKHEAD) private readonly anonymousRegistrations: Bulkhead,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Get('all')
  @OptionalAuth()
  @ApiSecurity('apiKey')
  @ApiSecurity({})
  @ApiOperation({
    summary: 'List drivers (operation 5)',
    description:
      'The body is `{ "status": 200, "payload": [drivers] }` (the original service\'s shape, kept for its clients), where the vehicle list answers a bare array (docs/api.md, "Two list shapes"). ' +
      'Open to anonymous callers, as documented. Assembly keys list their own assembly\'s drivers only; other callers list every driver. What each caller sees is its view (docs/api.md, "Who sees what"): anonymous callers and merchants get `_id`, `name`, `approved` and `rating` only; ' +
      'platform keys add contact, wallet, licence class and expiry, online/busy and dates, never identity documents, licence numbers or the owner; admin and assembly keys get every field, the owner embedded. ' +
      'The `email` filter needs an admin, assembly or platform key (401 without a key, 403 for a merchant); so does `expiring` (licences ending within so many days); ' +
      '`state` (approved, revoked, awaiting approval) needs an admin or assembly key. Filters combine. ' +
      'The activation key never appears here. Newest first unless `sort` says otherwise (oldest first, or by name either way): the whole list is in that order, page after page; ' +
      '`limit` (default 50, at most 500) and an `after` cursor of that order with a `Link` header.',
  })
  @View('driver', 'payload')
  @ApiListOrCsv(DriverResponse, DRIVER_CSV, DriverListResponse)
  @ApiProblems(400, 401, 403)
  async list(
    @Query() query: ListDriversQuery,
    @CurrentPrincipal() principal: Principal | undefined,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) res: FastifyReply,
  ): Promise<{ status: number; payload: Array<DriverResponse | DriverSummaryResponse> } | StreamableFile> {
    if (query.email !== undefined && !principal) throw unauthorized('Filtering drivers by email needs an API key');
    if (query.email !== undefined && principal?.role === 'merchant') {
      throw new AppError('FORBIDDEN', 'Filtering drivers by email is for admin, assembly and platform keys');
    }
    if (query.state !== undefined) assertFilterShown(principal, 'driver', 'all', 'where drivers stand');
    if (query.expiring !== undefined) assertFilterShown(principal, 'driver', ['licenseExpiry'], 'licence expiry');
    const filter = {
      approved: toBoolean(query.approved),
      email: query.email,
      standing: query.state,
      licenseEndingBy:
        query.expiring === undefined
          ? undefined
          : expiryWindow(this.clock.now(), query.expiring, this.config.timeZone).last,
    };
    const actor = actorOrAnonymous(principal);
    // The public's view is the drivers' summaries: read as such, without restoring whole drivers or their owners.
    const summaries = seesSummaryOnly('driver', viewerOf(principal));
    const fetch = (page: PageRequest<DriverSortField>) =>
      summaries ? this.drivers.listSummaries(filter, page, actor) : this.drivers.list(filter, page, actor);
    const first = pageRequest<DriverSortField>(query);
    // A CSV export is rows of drivers, in the list's order; JSON keeps the interface's envelope.
    if (wantsCsv(req)) return exportCsv(req, DRIVER_CSV, (page) => fetch({ ...page, order: first.order }));
    return {
      status: 200,
      payload: pageItems(req, res, await fetch(first)),
    };
  }

  @Post('add')
  @HttpCode(201)
  @NoStore()
  @OptionalAuth()
  @ApiSecurity('apiKey')
  @ApiSecurity({})
  @ApiOperation({
    summary: 'Register a driver (operation 6)',
    description:
      'Drivers register themselves from the platform app, so no API key is needed (one, if sent, must be valid: 401 otherwise; a dashboard session must carry its X-CSRF-Token: 403 CSRF_REJECTED otherwise). The driver starts unapproved and unverified; ' +
      "the response carries only the new driver's own record (never the embedded owner). A six-digit activation key goes by SMS to the driver's phone, and to nobody else: neither the caller nor staff who register a driver ever see it (only a keyed hash is kept); `activationKeySent` says whether it was handed over (false: an approver sends a new one). The driver activates the account with it, and an assembly approves the driver. " +
      'The phone must be of a country we text (PHONE_COUNTRY_CODES, default 233: 024…, +233 24… and 233-24-… are one number); another is 400 PHONE_NOT_ALLOWED. ' +
      'At most one activation key goes to one number in ACTIVATION_SMS_WINDOW_MINUTES (default 60), and no SMS past SMS_BUDGET_PER_HOUR: then `activationKeySent` is false. ' +
      'A driver registering themselves gets the key at once; one registered by staff in the quiet hours (REMINDER_QUIET_HOURS) gets it when they end (`activationKeySent` false). ' +
      'A registration not activated within UNACTIVATED_DRIVER_DAYS (default 7) is deleted. ' +
      'A self-registering driver names the `assembly` that is to approve them (GET /assembly/all lists them); without one the driver waits unassigned until an admin places them. ' +
      'Without an API key, each client address may register REGISTRATION_LIMIT_PER_ADDRESS drivers an hour (default 20) and each phone number REGISTRATION_LIMIT_PER_PHONE a day (default 3): past either, 429 with Retry-After. ' +
      'An instance works on REGISTRATION_CONCURRENCY registrations without a key at once (default 2) with as many waiting, and admits at most REGISTRATION_RATE_PER_SECOND a second (default 5); past either, 429 with Retry-After: 1, answered a quarter second later. ' +
      "An email is unique among activated drivers only. A driver registering themselves (no API key) is registered whether or not another driver has the email, with the same answer either way, so the answer tells nobody whether an email is registered; the activation of a driver whose email an activated driver has is refused (409 DRIVER_EMAIL_TAKEN, see POST /drivers/{id}/activate). Staff and keyed callers get 409 DRIVER_EMAIL_TAKEN for an email another driver has, activated or awaiting activation, answered before the owner is looked at. An `ownerID` may name only an owner of the driver's own assembly: one that does not exist and one of another assembly are the same 422 (OWNER_NOT_FOUND). An assembly that does not exist is 422 ASSEMBLY_NOT_FOUND.",
  })
  @ApiBody({ type: AddDriverBody })
  @View('registeredDriver', 'payload')
  @ApiCreatedResponse({
    description: '`{ "status": 201, "payload": Driver, "activationKeySent": true }`.',
    type: DriverCreatedResponse,
  })
  @ApiProblems(400, 401, 403, 409, 413, 415, 422, 429)
  async add(
    @Body() body: AddDriverBody,
    @Req() req: FastifyRequest,
    @CurrentPrincipal() principal: Principal | undefined,
  ): Promise<DriverCreatedResponse> {
    const { ownerID, assembly, ...fields } = body;
    const register = () =>
      this.drivers.register(
        { ...fields, ownerId: ownerID, assemblyId: assembly },
        actorOrAnonymous(principal),
        clientAddressKey(req.ip),
      );
    const { driver, activationKeySent } = principal
      ? await register()
      : await this.anonymousRegistrations.run(register);
    return { status: 201, payload: driver, activationKeySent };
  }

  @Get(':id')
  @Roles('admin', 'assembly', 'platform')
  @ApiTags('drivers (management)')
  @ApiSecurity('apiKey')
  @ApiOperation({ summary: 'One driver (never the activation key)' })
  @View('driver')
  @ApiOkResponse({ type: DriverResponse })
  @ApiProblems(400, 401, 403, 404)
  one(@Param('id', ObjectIdPipe) id: string, @CurrentPrincipal() principal: Principal): Promise<DriverResponse> {
    return this.drivers.get(id, actorOf(principal));
  }

  @Post(':id/activate')
  @HttpCode(200)
  @OptionalAuth()
  @ApiTags('drivers (management)')
  @ApiSecurity({})
  @ApiOperation({
    summary: "The driver's own step: activate the account with the six-digit key",
    description:
      'No API key needed (the key is the credential); a caller that sends one, or a dashboard session, is authenticated as elsewhere: an unknown or revoked key or an ended session is 401, a session without its X-CSRF-Token 403 CSRF_REJECTED. A wrong key is 422 DRIVER_ACTIVATION_KEY_INVALID and delays the next try (1 s, doubling, at most ACTIVATION_MAX_DELAY_SECONDS, default 15 min): ' +
      'a try before then is a 429 with Retry-After that counts for nothing; nobody can lock a driver out for good. A key older than ACTIVATION_KEY_HOURS (default 24) is 422 DRIVER_ACTIVATION_KEY_EXPIRED: ask the assembly for a new one, sent to your phone. ' +
      'Attempts are also limited per driver and per client address (429 with Retry-After), in PostgreSQL so every instance counts together; behind a proxy the address is found with TRUST_PROXY. ' +
      'With the right key, a driver whose email another, activated driver already has is not activated: 409 DRIVER_EMAIL_TAKEN (register again with your own email, or ask your assembly). Only whoever holds the phone and its key learns that; of two activations at once with one email, one wins and the other is this 409.',
  })
  @ApiBody({ type: ActivateBody })
  @View('registeredDriver')
  @ApiOkResponse({ type: DriverResponse })
  @ApiProblems(400, 401, 403, 404, 409, 413, 415, 422, 429)
  activate(
    @Param('id', ObjectIdPipe) id: string,
    @Body() body: ActivateBody,
    @Req() req: FastifyRequest,
    @CurrentPrincipal() principal: Principal | undefined,
  ): Promise<DriverResponse> {
    return this.drivers.activate(id, body.activationKey, actorOrAnonymous(principal), clientAddressKey(req.ip));
  }

  @Post(':id/approve')
  @HttpCode(200)
  @Roles('assembly')
  @ApiTags('drivers (management)')
  @ApiSecurity('apiKey')
  @ApiHeader(IF_MATCH)
  @ApiOperation({
    summary: 'Approve a driver at the assembly dashboard (approvedBy is the caller; assembly approvers only, else 403)',
    description:
      'All four checks must be true and the licence valid: otherwise 422 (DRIVER_CHECKLIST_FAILED, DRIVER_LICENSE_EXPIRED). ' +
      "Whoever set the driver's current phone or email (correcting it, or registering the driver for them) may not approve the driver: 422 DRIVER_APPROVER_SET_CONTACT (separation of duties). " +
      'Approving twice, or losing a race, is 409.',
  })
  @ApiBody({ type: ApproveDriverBody })
  @View('driver')
  @ApiOkResponse({ type: DriverResponse })
  @ApiProblems(400, 401, 403, 404, 409, 413, 415, 422)
  approve(
    @Param('id', ObjectIdPipe) id: string,
    @Body() body: ApproveDriverBody,
    @Headers('if-match') ifMatch: string | undefined,
    @CurrentPrincipal() principal: Principal,
  ): Promise<DriverResponse> {
    return this.drivers.approve(id, body.approvalChecklist, actorOf(principal), expectedVersion(ifMatch));
  }

  @CorrectRoute(
    'a driver',
    'driver',
    CorrectDriverBody,
    DriverResponse,
    'drivers (management)',
    'Any of name, phone, email, license, licenseClass, licenseIssueDate, idType, idNumber, gender, walletAccount, language (400 INVALID_LANGUAGE for one not spoken: docs/languages.md). ' +
      'Once the driver is approved: idType and idNumber are refused (422 CORRECTION_NOT_ALLOWED: the approver checked that document); ' +
      'a corrected license, licenseClass or licenseIssueDate withdraws the approval (and takes the driver offline) until an approver approves again. ' +
      'The expiry changes by renewal (POST /drivers/:id/renew).',
  )
  correct(
    @Param('id', ObjectIdPipe) id: string,
    @Body() body: CorrectDriverBody,
    @Headers('if-match') ifMatch: string | undefined,
    @CurrentPrincipal() principal: Principal,
  ): Promise<DriverResponse> {
    return this.drivers.correct(id, body, actorOf(principal), requiredVersion(ifMatch));
  }

  @Post(':id/renew')
  @HttpCode(200)
  @Roles('admin', 'assembly')
  @ApiTags('drivers (management)')
  @ApiSecurity('apiKey')
  @ApiHeader(IF_MATCH)
  @ApiOperation({
    summary: 'Record a renewed driving licence (assembly inspectors and approvers, admins)',
    description:
      'The new expiry must be in the future (else 422 RENEWAL_EXPIRED) and later than the current one (else 422 RENEWAL_NOT_LATER). ' +
      'A driver whose licence expired gets the renewal recorded this way before approval; the audit log keeps the expiry it replaced.',
  })
  @ApiBody({ type: RenewLicenseBody })
  @View('driver')
  @ApiOkResponse({ type: DriverResponse })
  @ApiProblems(400, 401, 403, 404, 409, 413, 415, 422)
  renew(
    @Param('id', ObjectIdPipe) id: string,
    @Body() body: RenewLicenseBody,
    @Headers('if-match') ifMatch: string | undefined,
    @CurrentPrincipal() principal: Principal,
  ): Promise<DriverResponse> {
    return this.drivers.renewLicense(id, body.licenseExpiry, actorOf(principal), expectedVersion(ifMatch));
  }

  @Post(':id/revoke')
  @HttpCode(200)
  @Roles('assembly')
  @ApiTags('drivers (management)')
  @ApiSecurity('apiKey')
  @ApiHeader(IF_MATCH)
  @ApiOperation({ summary: 'Withdraw approval, with a reason (takes the driver offline)' })
  @ApiBody({ type: RevokeBody })
  @View('driver')
  @ApiOkResponse({ type: DriverResponse })
  @ApiProblems(400, 401, 403, 404, 409, 413, 415, 422)
  revoke(
    @Param('id', ObjectIdPipe) id: string,
    @Body() body: RevokeBody,
    @Headers('if-match') ifMatch: string | undefined,
    @CurrentPrincipal() principal: Principal,
  ): Promise<DriverResponse> {
    return this.drivers.revoke(id, body.reason, actorOf(principal), expectedVersion(ifMatch));
  }

  @Post(':id/status')
  @HttpCode(200)
  @Roles('admin', 'platform')
  @ApiTags('drivers (management)')
  @ApiSecurity('apiKey')
  @ApiHeader(IF_MATCH)
  @ApiOperation({
    summary: 'Report a driver online/offline and busy/free',
    description:
      'Online needs an approved, activated driver (422 otherwise); busy needs online; going offline while busy is 422 DRIVER_BUSY. Reporting the current state changes nothing.',
  })
  @ApiBody({ type: DriverStatusBody })
  @View('driver')
  @ApiOkResponse({ type: DriverResponse })
  @ApiProblems(400, 401, 403, 404, 409, 413, 415, 422)
  status(
    @Param('id', ObjectIdPipe) id: string,
    @Body() body: DriverStatusBody,
    @Headers('if-match') ifMatch: string | undefined,
    @CurrentPrincipal() principal: Principal,
  ): Promise<DriverResponse> {
    return this.drivers.setStatus(id, body, actorOf(principal), expectedVersion(ifMatch));
  }

  @Post(':id/activation-key')
  @HttpCode(200)
  @Roles('admin', 'assembly')
  @ApiTags('drivers (management)')
  @ApiSecurity('apiKey')
  @ApiOperation({
    summary: "Send a new activation key to the driver's phone",
    description:
      "The new key (valid ACTIVATION_KEY_HOURS, lifting any delay) goes to the driver's phone by SMS (SMS_GATEWAY_URL; without one, the local `outbox_messages` table). " +
      'It never appears in any response: staff cannot activate a driver themselves. A duty of assembly approvers (and admins): other assembly roles get 403 DUTY_NOT_ALLOWED. ' +
      'Correcting the phone number of a driver who has not activated voids the current key, so a key sent to the old number cannot activate the account: send a new one here. ' +
      'Whoever corrected the number to the current one may not send the key to it: 422 DRIVER_KEY_SENDER_SET_PHONE, another approver sends it (separation of duties). ' +
      '502 MESSAGE_NOT_SENT when the gateway refuses it; the call may be repeated. ' +
      'In the quiet hours (REMINDER_QUIET_HOURS) nothing changes now: the new key is made and sent when they end. One activation key per number in ACTIVATION_SMS_WINDOW_MINUTES: before that, 429 with Retry-After (the current key keeps working). ' +
      'Past SMS_BUDGET_PER_HOUR, 503 SMS_BUDGET_EXHAUSTED with Retry-After. A stored number outside PHONE_COUNTRY_CODES is 400 PHONE_NOT_ALLOWED (correct it first).',
  })
  @View('driver')
  @ApiOkResponse({ type: DriverResponse })
  @ApiProblems(400, 401, 403, 404, 409, 422, 429, 502, 503)
  reissue(@Param('id', ObjectIdPipe) id: string, @CurrentPrincipal() principal: Principal): Promise<DriverResponse> {
    return this.drivers.reissueActivationKey(id, actorOf(principal));
  }

  @TransferRoute('a driver', 'driver', DriverResponse, 'drivers (management)')
  transfer(
    @Param('id', ObjectIdPipe) id: string,
    @Body() body: TransferBody,
    @Headers('if-match') ifMatch: string | undefined,
    @CurrentPrincipal() principal: Principal,
  ): Promise<DriverResponse> {
    return this.drivers.transfer(id, body.assembly, actorOf(principal), expectedVersion(ifMatch));
  }
}
