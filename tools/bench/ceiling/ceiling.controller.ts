// Not part of the service: `npm run bench -- --ceiling` copies this file into a scratch copy of the repository
// (apps/api/src/ceiling/), registers it beside the health controller and builds that API. Its routes run the bench
// baseline's own handlers (tools/bench/raw-handlers.cjs: the same SQL through the same pool, the same mapping to the
// same bytes) inside everything the API puts around a route: the security headers, the metrics and access-log hooks,
// Nest's router, the ApiKeyGuard (key cache, rate limits), the view and no-store hooks and the JSON reply. Their rate is the
// most any implementation of these endpoints can reach behind this HTTP pipeline; the API's own routes are measured
// against it.
import { Controller, Get, Inject, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type pg from 'pg';
import { CurrentPrincipal, OptionalAuth, Roles } from '../core/auth/auth.decorators';
import type { Principal } from '../core/auth/principal';
import type { Database } from '../persistence/database';
import { DATABASE } from '../persistence/database.module';

interface RawRoute {
  handle(
    pool: pg.Pool,
    url: URL,
    who?: Principal,
  ): Promise<{ status: number; body: unknown; headers: Record<string, string> }>;
}
// The baseline's one copy of its handlers (CommonJS), bundled as it is
const { ROUTES } = require('../../../../tools/bench/raw-handlers.cjs') as { ROUTES: Record<string, RawRoute> };

@ApiExcludeController()
@Controller('ceiling')
export class CeilingController {
  constructor(@Inject(DATABASE) private readonly database: Database) {}

  @Get('vehicles/all')
  @OptionalAuth()
  vehicles(@Req() req: FastifyRequest, @Res({ passthrough: true }) res: FastifyReply): Promise<unknown> {
    return this.answer(req, res);
  }

  @Get('drivers/all')
  @OptionalAuth()
  drivers(@Req() req: FastifyRequest, @Res({ passthrough: true }) res: FastifyReply): Promise<unknown> {
    return this.answer(req, res);
  }

  @Get('vehicles/owner/search')
  @Roles('admin')
  owners(@Req() req: FastifyRequest, @Res({ passthrough: true }) res: FastifyReply): Promise<unknown> {
    return this.answer(req, res);
  }

  @Get('trips/intracity/date')
  @Roles('admin')
  trips(@Req() req: FastifyRequest, @Res({ passthrough: true }) res: FastifyReply): Promise<unknown> {
    return this.answer(req, res);
  }

  @Get('payment/check_transaction')
  @Roles('merchant')
  check(
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) res: FastifyReply,
    @CurrentPrincipal() who: Principal,
  ): Promise<unknown> {
    return this.answer(req, res, who);
  }

  /** The baseline's answer for the same path without `/ceiling` (its Link header names that path too). */
  private async answer(req: FastifyRequest, res: FastifyReply, who?: Principal): Promise<unknown> {
    const url = new URL(req.url.replace(/^\/ceiling/, ''), 'http://ceiling');
    const { status, body, headers } = await ROUTES[url.pathname].handle(this.database.pool, url, who);
    res.status(status).headers(headers);
    return body;
  }
}
