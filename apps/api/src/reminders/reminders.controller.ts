import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, Roles } from '../core/auth/auth.decorators';
import { actorOf, type Principal } from '../core/auth/principal';
import { ApiProblems } from '../core/http/openapi';
import { ObjectIdPipe } from '../core/http/params';
import { ReminderPreferenceBody, ReminderPreferenceResponse } from './reminders.dto';
import { RemindersService } from './reminders.service';

const DESCRIPTION =
  'SMS reminders go out 30, 7 and 1 days before a document lapses and on the day it does (REMINDER_DAYS), never between 20:00 and 07:00 Africa/Accra. ' +
  '`stop: true` records that the person asked to stop them: none is sent from then on, queued ones included; `stop: false` reminds them again. ' +
  "Asking twice changes nothing. The change is listed in the record's history (GET /audit). Assembly staff act on their own assembly's records (another's is 404).";

/** Staff record that an owner or a driver asked to stop (or to have again) the reminders before documents lapse. */
@ApiSecurity('apiKey')
@Controller()
export class RemindersController {
  constructor(private readonly reminders: RemindersService) {}

  @Post('vehicles/owner/:id/reminders')
  @HttpCode(200)
  @Roles('admin', 'assembly')
  @ApiTags('vehicles (management)')
  @ApiOperation({
    summary: "Stop or resume an owner's reminders (roadworthy and insurance of their vehicles)",
    description: DESCRIPTION,
  })
  @ApiBody({ type: ReminderPreferenceBody })
  @ApiOkResponse({ type: ReminderPreferenceResponse })
  @ApiProblems(400, 401, 403, 404, 413, 415)
  owner(
    @Param('id', ObjectIdPipe) id: string,
    @Body() body: ReminderPreferenceBody,
    @CurrentPrincipal() principal: Principal,
  ): Promise<ReminderPreferenceResponse> {
    return this.reminders.setStopped('owner', id, body.stop, actorOf(principal));
  }

  @Post('drivers/:id/reminders')
  @HttpCode(200)
  @Roles('admin', 'assembly')
  @ApiTags('drivers (management)')
  @ApiOperation({ summary: "Stop or resume a driver's licence reminders", description: DESCRIPTION })
  @ApiBody({ type: ReminderPreferenceBody })
  @ApiOkResponse({ type: ReminderPreferenceResponse })
  @ApiProblems(400, 401, 403, 404, 413, 415)
  driver(
    @Param('id', ObjectIdPipe) id: string,
    @Body() body: ReminderPreferenceBody,
    @CurrentPrincipal() principal: Principal,
  ): Promise<ReminderPreferenceResponse> {
    return this.reminders.setStopped('driver', id, body.stop, actorOf(principal));
  }
}
