import type { Clock } from '@transport/domain';

export class SystemClock implements Clock {
  now(): Date {
    return new Date();
  }
}
