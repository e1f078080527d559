import { Logger } from '@nestjs/common';
import type { EventLog } from '../ports';
import type { Metrics } from './metrics';

/**
 * Events worth counting: one log line each, with the event's fields as JSON fields (log pipelines aggregate them),
 * and one increment of `transport_events_total{event, outcome}`.
 */
export class MeteredEventLog implements EventLog {
  constructor(
    private readonly metrics: Metrics,
    private readonly logger = new Logger('Events'),
  ) {}

  info(event: string, fields: Record<string, unknown>): void {
    this.count(event, fields);
    this.logger.log({ event, ...fields }, event);
  }

  warn(event: string, fields: Record<string, unknown>): void {
    this.count(event, fields);
    this.logger.warn({ event, ...fields }, event);
  }

  error(event: string, fields: Record<string, unknown>): void {
    this.count(event, fields);
    this.logger.error({ event, ...fields }, event);
  }

  private count(event: string, fields: Record<string, unknown>): void {
    this.metrics.countEvent(event, typeof fields.outcome === 'string' ? fields.outcome : undefined);
  }
}
