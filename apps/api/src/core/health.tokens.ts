export const HEALTH_TIMEOUT_MS = Symbol('HEALTH_TIMEOUT_MS');
