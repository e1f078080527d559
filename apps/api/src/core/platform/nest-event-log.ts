import { Logger } from '@nestjs/common';
import type { EventLog } from '../ports';

/** Event lines through Nest's logger, one JSON object each, so log pipelines can aggregate them. */
export class NestEventLog implements EventLog {
  constructor(private readonly logger = new Logger('Events')) {}

  info(event: string, fields: Record<string, unknown>): void {
    this.logger.log(JSON.stringify({ event, ...fields }));
  }

  warn(event: string, fields: Record<string, unknown>): void {
    this.logger.warn(JSON.stringify({ event, ...fields }));
  }

  error(event: string, fields: Record<string, unknown>): void {
    this.logger.error(JSON.stringify({ event, ...fields }));
  }
}
