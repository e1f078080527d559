/** Port: where the domain learns the time. Never call `new Date()` for "now" inside the domain. */
export interface Clock {
  now(): Date;
}
