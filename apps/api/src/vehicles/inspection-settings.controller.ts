import { Body, Controller, Get, Param, Put } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { InspectionSettings } from '@transport/domain';
import { CurrentPrincipal, Roles } from '../core/auth/auth.decorators';
import { actorOf, type Principal } from '../core/auth/principal';
import { ApiProblems } from '../core/http/openapi';
import { ObjectIdPipe } from '../core/http/params';
import { InspectionSettingsBody, InspectionSettingsResponse } from './vehicles.dto';
import { InspectionAppealsService } from './inspection-appeals.service';

/** /assembly/inspection-settings/{id}: an assembly's days to fix major defects and to appeal an inspection. */
@ApiTags('vehicles (management)')
@Controller('assembly')
export class InspectionSettingsController {
  constructor(private readonly inspections: InspectionAppealsService) {}

  @Get('inspection-settings/:id')
  @Roles('admin', 'assembly')
  @ApiSecurity('apiKey')
  @ApiOperation({
    summary:
      "An assembly's inspection settings: days to fix major defects (default 14), to appeal (default 15), and whether photos are required (default true)",
    description: "Admins, and the assembly's own staff (another assembly is a 404).",
  })
  @ApiOkResponse({ type: InspectionSettingsResponse })
  @ApiProblems(400, 401, 403, 404)
  get(@Param('id', ObjectIdPipe) id: string, @CurrentPrincipal() principal: Principal): Promise<InspectionSettings> {
    return this.inspections.inspectionSettings(id, actorOf(principal));
  }

  @Put('inspection-settings/:id')
  @Roles('admin', 'assembly')
  @ApiSecurity('apiKey')
  @ApiOperation({
    summary: "Set an assembly's inspection settings (admins; the assembly's own admin, else 403 DUTY_NOT_ALLOWED)",
    description:
      'Both day settings, whole days from 1 to 90, and optionally photosRequired (left out: unchanged). They apply to inspections, approvals and appeals from then on (a window already open keeps its end). Audited on the assembly.',
  })
  @ApiBody({ type: InspectionSettingsBody })
  @ApiOkResponse({ type: InspectionSettingsResponse })
  @ApiProblems(400, 401, 403, 404, 413, 415)
  put(
    @Param('id', ObjectIdPipe) id: string,
    @Body() body: InspectionSettingsBody,
    @CurrentPrincipal() principal: Principal,
  ): Promise<InspectionSettings> {
    return this.inspections.setInspectionSettings(
      id,
      { daysToFix: body.daysToFix, appealDays: body.appealDays, photosRequired: body.photosRequired },
      actorOf(principal),
    );
  }
}
