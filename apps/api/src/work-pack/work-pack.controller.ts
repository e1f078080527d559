import { Controller, Get, Query, Req, Res } from '@nestjs/common';
import { gzipSync } from 'node:zlib';
import { ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { acceptsGzip } from '../core/http/negotiation';
import { CurrentPrincipal, Roles } from '../core/auth/auth.decorators';
import { actorOf, type Principal } from '../core/auth/principal';
import { ApiProblems } from '../core/http/openapi';
import { PACK_MAX_LIMIT, WorkPackQuery, WorkPackVehicleResponse } from './work-pack.dto';
import { WorkPackService } from './work-pack.service';

@ApiTags('vehicles (management)')
@ApiSecurity('apiKey')
@Controller('vehicles/work-pack')
export class WorkPackController {
  constructor(private readonly pack: WorkPackService) {}

  @Get()
  @Roles('assembly')
  @ApiOperation({
    summary: "An inspector's work pack: their assembly's vehicles, for working without a signal",
    description:
      'Every vehicle of the caller’s assembly (never another’s), each reduced to what an inspection needs: `_id`, `__v` (for `If-Match`), the plate, make, model, colour, type, ' +
      'where it stands (`awaiting_inspection` is the inspection queue) and the items its last inspection failed. For assembly inspectors only (another role: 403 DUTY_NOT_ALLOWED). ' +
      `Oldest first, \`limit\` up to ${PACK_MAX_LIMIT} (the default) a page, the next page in the \`Link\` header. Each page has an \`ETag\`: ` +
      'sent back as `If-None-Match`, an unchanged page answers 304 without a body, so a refresh costs a round trip a page. ' +
      'About 170 bytes a vehicle as JSON, gzip-encoded when the request accepts it (about 11 bytes a vehicle: docs/dashboard.md, "The work pack").',
  })
  @ApiOkResponse({ description: 'A JSON array of vehicles.', type: WorkPackVehicleResponse, isArray: true })
  @ApiProblems(400, 401, 403)
  async workPack(
    @Query() query: WorkPackQuery,
    @CurrentPrincipal() principal: Principal,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) res: FastifyReply,
  ): Promise<WorkPackVehicleResponse[] | Buffer> {
    const limit = query.limit ?? PACK_MAX_LIMIT;
    const page = await this.pack.page(limit, query.after, actorOf(principal));
    if (page.next) res.header('Link', `</vehicles/work-pack?limit=${limit}&after=${page.next}>; rel="next"`);
    res.header('Vary', 'Accept-Encoding');
    if (!acceptsGzip(req)) return page.items;
    // Its field names repeat 2,000 times a page: gzip sends about a fifteenth of it (docs/dashboard.md, "The work
    // pack"), which on a 400 kbit/s signal is seconds, not a minute. The ETag is over what is sent.
    res.header('Content-Encoding', 'gzip').type('application/json; charset=utf-8');
    return gzipSync(JSON.stringify(page.items));
  }
}
