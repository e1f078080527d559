import { Public } from './auth/auth.decorators';
import { Controller, Get, Inject, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiSecurity, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import type { Database } from '../persistence/database';
import { DATABASE } from '../persistence/database.module';
import { HEALTH_TIMEOUT_MS } from './health.tokens';

export interface HealthBody {
  status: 'ok' | 'unavailable';
  database: { kind: string; status: 'up' | 'down'; latencyMs?: number; error?: string };
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

@ApiTags('health')
@ApiSecurity({})
@Controller('health')
export class HealthController {
  constructor(
    @Inject(DATABASE) private readonly database: Database,
    @Inject(HEALTH_TIMEOUT_MS) private readonly timeoutMs: number,
  ) {}

  @Get()
  @Public()
  @ApiOperation({
    summary: 'Liveness and database reachability',
    description:
      'Runs a real query against the database, bounded by HEALTH_TIMEOUT_MS. 200 when it answers, 503 when not.',
  })
  @ApiOkResponse({ description: 'The database answered.' })
  @ApiServiceUnavailableResponse({ description: 'The database did not answer in time or refused the query.' })
  async check(@Res({ passthrough: true }) response: Response): Promise<HealthBody> {
    const started = process.hrtime.bigint();
    try {
      await withTimeout(this.database.ping(), this.timeoutMs);
      const latencyMs = Number((process.hrtime.bigint() - started) / 1000n) / 1000;
      return { status: 'ok', database: { kind: this.database.kind, status: 'up', latencyMs } };
    } catch (error) {
      response.status(503);
      return {
        status: 'unavailable',
        database: { kind: this.database.kind, status: 'down', error: (error as Error).message.split('\n')[0] },
      };
    }
  }
}
