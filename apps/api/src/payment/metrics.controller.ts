import { Controller, Get, Header, Inject } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { CLOCK } from '../api/tokens';
import type { Clock } from '@transport/domain';
import { Roles } from '../auth/auth.decorators';
import { ApiProblems } from '../http/openapi';
import type { Database } from '../database/database';
import { DATABASE } from '../database/database.module';

const AGE_BUCKETS_SECONDS = [60, 300, 900, 3600, 86_400];

/**
 * Prometheus text exposition of the payment pipeline, computed from the database (so every instance reports the same
 * totals): callbacks by outcome, pending transactions by age, merchant notification attempts and notifications.
 */
@ApiTags('health')
@ApiSecurity('apiKey')
@Controller('metrics')
export class MetricsController {
  constructor(
    @Inject(DATABASE) private readonly database: Database,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Get()
  @Roles('admin')
  @Header('Content-Type', 'text/plain; version=0.0.4; charset=utf-8')
  @ApiOperation({ summary: 'Payment metrics in Prometheus text format' })
  @ApiOkResponse({ description: 'Prometheus text format 0.0.4.' })
  @ApiProblems(401, 403)
  async metrics(): Promise<string> {
    const prisma = this.database.prisma;
    const outcomes = await prisma.paymentCallback.groupBy({ by: ['outcome'], _count: { _all: true } });
    const now = this.clock.now().getTime();
    const olderThan = async (seconds: number) =>
      prisma.transaction.count({ where: { status: 'pending', createdAt: { lte: new Date(now - seconds * 1000) } } });
    const pendingByAge = await Promise.all([0, ...AGE_BUCKETS_SECONDS].map(async (bucket) => [bucket, await olderThan(bucket)] as const));
    const attempts = await prisma.paymentDeliveryAttempt.groupBy({ by: ['outcome'], _count: { _all: true } });
    const notifications = await prisma.paymentNotification.groupBy({ by: ['status'], _count: { _all: true } });
    const lines = [
      '# HELP transport_payment_callbacks_total Provider callbacks received, by what applying them did.',
      '# TYPE transport_payment_callbacks_total counter',
    ];
    for (const outcome of ['applied', 'duplicate', 'deferred', 'anomaly', 'malformed', 'unprocessed']) {
      const count = outcomes.find((o) => (o.outcome ?? 'unprocessed') === outcome)?._count._all ?? 0;
      lines.push(`transport_payment_callbacks_total{outcome="${outcome}"} ${count}`);
    }
    lines.push(
      '# HELP transport_pending_transactions Pending transactions, by age in seconds (cumulative buckets).',
      '# TYPE transport_pending_transactions gauge',
    );
    for (const [bucket, count] of pendingByAge) lines.push(`transport_pending_transactions{older_than_seconds="${bucket}"} ${count}`);
    lines.push(
      '# HELP transport_notification_attempts_total Merchant notification attempts: delivered (2xx), retry (will be retried), failed (gave up).',
      '# TYPE transport_notification_attempts_total counter',
    );
    for (const outcome of ['delivered', 'retry', 'failed']) {
      lines.push(`transport_notification_attempts_total{outcome="${outcome}"} ${attempts.find((a) => a.outcome === outcome)?._count._all ?? 0}`);
    }
    lines.push('# HELP transport_notifications Merchant notifications by state.', '# TYPE transport_notifications gauge');
    for (const status of ['pending', 'delivered', 'failed']) {
      lines.push(`transport_notifications{status="${status}"} ${notifications.find((n) => n.status === status)?._count._all ?? 0}`);
    }
    return lines.join('\n') + '\n';
  }
}
