import { Controller, Get, Header } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { Roles } from '../core/auth/auth.decorators';
import { ApiProblems } from '../core/http/openapi';
import { PaymentsService } from './payments.service';

@ApiTags('health')
@ApiSecurity('apiKey')
@Controller('metrics')
export class MetricsController {
  constructor(private readonly payments: PaymentsService) {}

  @Get()
  @Roles('admin')
  @Header('Content-Type', 'text/plain; version=0.0.4; charset=utf-8')
  @ApiOperation({ summary: 'Payment metrics in Prometheus text format' })
  @ApiOkResponse({ description: 'Prometheus text format 0.0.4.' })
  @ApiProblems(401, 403)
  metrics(): Promise<string> {
    return this.payments.metrics();
  }
}
