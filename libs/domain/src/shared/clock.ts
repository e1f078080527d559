/** Port: where the domain learns the time. Never call `new Date()` for "now" inside the domain. */
export interface Clock {
  now(): Date;
}

/** A clock that only moves when told to: for tests and simulations. */
export class FixedClock implements Clock {
  private current: Date;

  constructor(start: Date | string) {
    this.current = new Date(start);
  }

  now(): Date {
    return new Date(this.current);
  }

  set(at: Date | string): void {
    this.current = new Date(at);
  }

  advance(milliseconds: number): void {
    this.current = new Date(this.current.getTime() + milliseconds);
  }
}
