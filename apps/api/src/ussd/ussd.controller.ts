import { Body, Controller, Get, HttpCode, Post, Query, UseGuards } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { Public } from '../core/auth/auth.decorators';
import { ApiProblems } from '../core/http/openapi';
import { readInboundSms } from './hubtel-sms';
import { readUssdRequest } from './hubtel-ussd';
import { HubtelInboundGuard } from './hubtel-inbound.guard';
import { SmsCheckService } from './sms-check.service';
import { UssdFlow } from './ussd-flow';
import { HubtelUssdRequestBody, HubtelUssdResponseBody, InboundSmsAnswer, InboundSmsBody } from './ussd.dto';

const AUTH =
  'Hubtel authenticates with HTTP Basic (HUBTEL_INBOUND_USERNAME / HUBTEL_INBOUND_PASSWORD) and, with HUBTEL_INBOUND_ADDRESSES, from those addresses only (401 / 403). ' +
  'Without a password (the demo that `npm start` runs) only loopback is served, and never in production. docs/ussd-sms.md says how to set it up at Hubtel.';

/** The public checks over Hubtel: USSD sessions and inbound SMS. Thin: parse, then the flow or the service decides. */
@ApiTags('ussd-sms')
@Controller()
@Public()
@UseGuards(HubtelInboundGuard)
export class UssdController {
  constructor(
    private readonly flow: UssdFlow,
    private readonly sms: SmsCheckService,
  ) {}

  @Post('ussd/hubtel')
  @HttpCode(200)
  @ApiSecurity('hubtelBasic')
  @ApiOperation({
    summary: "A step of a USSD session (Hubtel Programmable Services' service interaction URL)",
    description:
      "Hubtel's request as its API reference gives it (Type initiation, response, release or timeout; Message; SessionId; Mobile; ClientState; Sequence; ServiceCode; Operator): field names and values in any letter case, numbers as strings or numbers. " +
      "The answer is the next screen (Type response, waiting for input) or the last (Type release), at most 182 characters, with the session's place in ClientState (nothing is kept between steps). " +
      'Menu: 1 check a vehicle (plate in any spelling, or the 10-digit code on its sticker), 2 check a driver by licence (approved or not), 3 language, 4 report a vehicle (plate and a reason, kept for its assembly). ' +
      'Steps per calling number are limited (USSD_STEPS_PER_PHONE_PER_HOUR; past it the session ends with a screen saying so). ' +
      AUTH,
  })
  @ApiBody({ type: HubtelUssdRequestBody })
  @ApiOkResponse({ type: HubtelUssdResponseBody })
  @ApiProblems(400, 401, 403)
  async ussd(@Body() body: unknown): Promise<HubtelUssdResponseBody> {
    return this.flow.answer(readUssdRequest(body));
  }

  @Post('sms/hubtel')
  @HttpCode(200)
  @ApiSecurity('hubtelBasic')
  @ApiOperation({
    summary: "An SMS to the service's number (Hubtel two-way messaging's callback URL)",
    description:
      "`CHECK GR 1234-20` (or CHECK and the sticker's code) is answered by SMS with the vehicle's verdict; `STOP` stops reminders to the number, `START` resumes them; `HELP` (or anything else) says what to send. " +
      'From, To and Message (or Content) in the JSON body or the query, names in any letter case. ' +
      'Answers are texted through the guarded sender (countries texted, the hourly SMS budget) and at most SMS_REPLIES_PER_PHONE_PER_HOUR to one number: past it the message is handled (STOP still stops) but not answered. ' +
      AUTH,
  })
  @ApiBody({ type: InboundSmsBody })
  @ApiOkResponse({ type: InboundSmsAnswer })
  @ApiProblems(400, 401, 403)
  async smsPost(@Query() query: unknown, @Body() body: unknown): Promise<InboundSmsAnswer> {
    return this.sms.handle(readInboundSms(query, body));
  }

  @Get('sms/hubtel')
  @ApiSecurity('hubtelBasic')
  @ApiOperation({
    summary: "An SMS to the service's number, pushed as a GET (the query holds From, To and Message)",
    description: 'The same as POST /sms/hubtel, for a campaign whose callback is set to push with GET. ' + AUTH,
  })
  @ApiOkResponse({ type: InboundSmsAnswer })
  @ApiProblems(400, 401, 403)
  async smsGet(@Query() query: unknown): Promise<InboundSmsAnswer> {
    return this.sms.handle(readInboundSms(query, undefined));
  }
}
