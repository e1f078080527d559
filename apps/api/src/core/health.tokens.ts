export const HEALTH_TIMEOUT_MS = Symbol('HEALTH_TIMEOUT_MS');

/** Whether the process is draining before shutdown: readiness fails first, so load balancers stop sending work. */
export class Lifecycle {
  draining = false;
}
